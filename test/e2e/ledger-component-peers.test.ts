/**
 * examples/ledger on real Fabric networks of this file's own, as `npm run fabric:up` starts one: on a real network a
 * commit status is the gateway peer's word only, so `pulumi up` must end only once the other endorsing organization's
 * peer has the transaction; and examples/ledger/README.md's fabric:up block as a user runs it. The networks are the
 * file's own: a frozen node must never be the run's shared network's, and the README's block uses a fixed stack name
 * and key, new only on a new network. TARGETS names the bodies that run on each.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { networkBanner } from "../../sandbox/fabric-network";
import { evaluation, GATEWAY } from "../helpers/gateway-proxy";
import { processOf, signal, waitStopped } from "../helpers/kill-stack";
import {
  componentStack,
  runUntilHeld,
  startComponentTarget,
  submits,
  submittedTxId,
  uniqueKey,
} from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { ledgerTargets } from "../helpers/ledger-targets";
import { pulumiBinDir } from "../helpers/project-stack";
import { fabricUserEnv, runReadmeCommands } from "../helpers/readme-commands";

/**
 * On a real network a commit status is the gateway peer's word only: the other organization's peer commits the block on
 * its own time. The other endorsing organization's peer is frozen (SIGSTOP) right after it endorsed, so it cannot
 * commit the block: `pulumi up` must not finish before the component has asked that peer (qscc, targeted at its
 * organization) and the peer, resumed, has answered. Only on a network of this file's own (TARGETS' `own`).
 */
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
 * network (networkBanner) pasted where the block says so, against the network directly (TLS, no proxy). The block uses
 * a fixed stack name and key, new only on a network of this file's own.
 */
async function runsTheReadmeAgainstTheNetwork(t: ComponentTarget): Promise<void> {
  const network = t.ledger.network;
  assert.ok(network !== undefined);
  const pasted = networkBanner(network)
    .split("\n")
    .filter((line) => line.startsWith("pulumi config set "));
  assert.equal(pasted.length, 8, networkBanner(network));
  const env = fabricUserEnv(pulumiBinDir());
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

/** Each body: its test's title, and how it runs. */
const BODIES = {
  // It freezes the other organization's peer (and resumes it, whatever happens).
  everyEndorsingPeer: {
    title: "finishes pulumi up only once the other endorsing organization's peer has committed the transaction",
    run: waitsForEveryEndorsingPeer,
  },
  readme: {
    title: "runs examples/ledger/README.md's block with the pulumi config lines fabric:up prints, as written",
    run: runsTheReadmeAgainstTheNetwork,
  },
} as const satisfies Record<string, { title: string; run: (t: ComponentTarget) => Promise<void> }>;
type Body = keyof typeof BODIES;

/** A network of this file's own, started once for its `describe`, and the bodies that run on it in order. */
interface Target {
  readonly fabric: "2.5.16" | "3.1.5";
  readonly bodies: readonly Body[];
}

const TARGETS: readonly Target[] = [
  // fabric:up prints the same lines for either release: once is enough.
  { fabric: "2.5.16", bodies: ["everyEndorsingPeer", "readme"] },
  { fabric: "3.1.5", bodies: ["everyEndorsingPeer"] },
];

const FACTORIES = ledgerTargets(["2.5.16", "3.1.5"]);

for (const target of TARGETS) {
  describe(`examples/ledger: LedgerTransaction and the other organization's peer (Fabric ${target.fabric})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async () => {
      const factory = FACTORIES.find((f) => f.label === `Fabric ${target.fabric}`);
      assert.ok(factory !== undefined, target.fabric);
      t = await startComponentTarget(factory, { own: true }); // it freezes a peer: never the run's shared network
    });
    after(async () => {
      await t.close();
    });

    for (const body of target.bodies) {
      it(BODIES[body].title, () => BODIES[body].run(t));
    }
  });
}
