/**
 * On a real Fabric network a commit status is the gateway peer's word only: the other organization's peer commits the
 * block on its own time, and a transaction that reads this one's writes is endorsed there too. The component reports
 * a transaction done only once every endorsing organization's peer has it (provider/resources/
 * ledger-transaction-peers.ts). Here the other organization's peer is frozen (SIGSTOP) right after it endorsed, so it
 * cannot commit the block: `pulumi up` must not finish before the component has asked that peer (qscc, targeted at its
 * organization) and the peer, resumed, has answered. Only a real network has peers that can lag (the sandbox's peers
 * share one ledger), and a network of the test's own, since it freezes a node.
 */
import { strict as assert } from "node:assert";
import { evaluation, GATEWAY } from "../helpers/gateway-proxy";
import {
  componentStack,
  runUntilHeld,
  startComponentTarget,
  submits,
  submittedTxId,
  uniqueKey,
} from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { networkBanner } from "../../sandbox/fabric-network";
import { processOf, signal, waitStopped } from "../helpers/kill-stack";
import { ledgerTargets } from "../helpers/ledger-targets";
import { pulumiBinDir } from "../helpers/project-stack";
import { runReadmeCommands } from "../helpers/readme-commands";

async function waitsForEveryEndorsingPeer(t: ComponentTarget): Promise<void> {
  const network = t.ledger.network;
  assert.ok(network !== undefined);
  const other = t.ledger.organizations[1] ?? "";
  const peerName = network.organization(other).peerName;
  const pid = network.processes().find((p) => p.name === peerName)?.pid;
  const peerProcess = typeof pid === "number" ? processOf(pid) : undefined;
  assert.ok(peerProcess !== undefined, `${peerName} is running`);
  const key = uniqueKey("catch-up");
  const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "blue"] });
  let frozen = false;
  const thaw = (): void => {
    if (frozen) signal([peerProcess], "SIGCONT");
    frozen = false;
  };
  try {
    const endorsed = t.proxy.hold(GATEWAY.endorse);
    const asked = t.proxy.nextRequest((c) => {
      if (c.path !== GATEWAY.evaluate) return false;
      const e = evaluation(c);
      return e.chaincode === "qscc" && e.targets.includes(other);
    });
    const mark = t.proxy.calls.length;
    const running = await runUntilHeld(stack.up({ allowFailure: true }), endorsed, "the endorsement");
    assert.equal(running.call.status, 0);
    // Both organizations have endorsed; from now on the other one's peer cannot commit anything. SIGSTOP is delivered
    // asynchronously: the answer goes on only once the kernel shows the peer stopped (state T).
    signal([peerProcess], "SIGSTOP");
    frozen = true;
    await waitStopped([peerProcess]);
    endorsed.release();

    const first = await Promise.race([
      asked.then((call) => ({ call, result: undefined })),
      running.command.then((result) => ({ call: undefined, result })),
    ]);
    if (first.call === undefined) {
      assert.fail(
        `pulumi up ended (${String(first.result.code)}) while ${other}'s peer was frozen and could not have committed ` +
          `the transaction:\n${first.result.output}`,
      );
    }
    const [txId] = submits(t.proxy, mark).map(submittedTxId);
    assert.ok(txId !== undefined, "the transaction was submitted before the wait");
    assert.deepEqual(evaluation(first.call).args, ["GetTransactionByID", t.ledger.channel, txId]);
    thaw();

    const up = await running.command;
    assert.equal(up.code, 0, up.output);
    assert.equal(up.outputs["ledgerTxId"], txId);
    assert.equal(up.outputs["ledgerValidationCode"], "VALID");
    // Right away, with no wait of the test's own: the other organization's gateway reads the write from its peer.
    const official = t.ledger.connectOfficial(other);
    try {
      const contract = official.gateway.getNetwork(t.ledger.channel).getContract(t.ledger.chaincode);
      assert.equal(Buffer.from(await contract.evaluateTransaction("ReadAsset", key)).toString(), "blue");
    } finally {
      official.close();
    }
  } finally {
    thaw();
    await stack.dispose();
  }
}

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

for (const target of ledgerTargets(["2.5.16", "3.1.5"]).filter((f) => f.kind === "fabric")) {
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
    if (target.label === "Fabric 2.5.16") {
      it("runs examples/ledger/README.md's block with the pulumi config lines fabric:up prints, as written", () =>
        runsTheReadmeAgainstTheNetwork(t));
    }
  });
}
