/**
 * examples/ledger on a real Fabric 2.5.16 network of this file's own, as `npm run fabric:up` starts one: on a real
 * network a commit status is the gateway peer's word only, so `pulumi up` must end only once the other endorsing
 * organization's peer has the transaction (test/helpers/ledger-component-peers.ts freezes that peer with SIGSTOP right
 * after it endorsed; test/e2e/ledger-component.test.ts runs the same body on 3.1.5, on that file's own network); and
 * examples/ledger/README.md's fabric:up block as a user runs it. The network is the file's own: a frozen node must
 * never be the run's shared network's, and the README's block uses a fixed stack name and key, new only on a new
 * network.
 */ import { strict as assert } from "node:assert";
import { startComponentTarget } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { waitsForEveryEndorsingPeer } from "../helpers/ledger-component-peers";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { networkBanner } from "../../sandbox/fabric-network";
import { ledgerTargets } from "../helpers/ledger-targets";
import { pulumiBinDir } from "../helpers/project-stack";
import { runReadmeCommands } from "../helpers/readme-commands";

/**
 * examples/ledger/README.md's fabric:up block as a user runs it: the `pulumi config set` lines fabric:up prints for the
 * network (networkBanner) pasted where the block says so, against the network directly (TLS, no proxy).
 */
async function runsTheReadmeAgainstTheNetwork(t: ComponentTarget): Promise<void> {
  const network = t.ledger.network;
  assert.ok(network !== undefined);
  const pasted = networkBanner(network)
    .split("\n")
    .filter((line) => line.startsWith("pulumi config set "));
  assert.equal(pasted.length, 8, networkBanner(network));
  const user = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !k.startsWith("PULUMI_") && !k.startsWith("GOOGLE_")),
  );
  const env = {
    ...user,
    PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env["PATH"] ?? ""].join(path.delimiter),
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
  };
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-fabric-readme-"));
  try {
    const output = await runReadmeCommands("ledger", env, tmp, {
      marker: "fabric-up-commands",
      stack: "fabric",
      edit: (block) => block.replace(/^# paste the .*$/m, pasted.join("\n")),
    });
    assert.match(output, /ledgerValidationCode\s*: "VALID"/);
    assert.match(output, /ledgerEndorsers\s*: \[\s*\[0\]: "Org1MSP"\s*\[1\]: "Org2MSP"\s*\]/);
    assert.match(output, /^\s+3 unchanged$/m);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

for (const target of ledgerTargets(["2.5.16"]).filter((f) => f.kind === "fabric")) {
  describe(`examples/ledger: LedgerTransaction and the other organization's peer (${target.label})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async () => {
      t = await startComponentTarget(target, { own: true }); // it freezes a peer: never the run's shared network
    });
    after(async () => {
      await t.close();
    });

    it("finishes pulumi up only once the other endorsing organization's peer has committed the transaction", () =>
      waitsForEveryEndorsingPeer(t));
    // fabric:up prints the same lines for either release: once is enough.
    it("runs examples/ledger/README.md's block with the pulumi config lines fabric:up prints, as written", () =>
      runsTheReadmeAgainstTheNetwork(t));
  });
}
