/**
 * On a real Fabric network a commit status is the gateway peer's word only: the other organization's peer commits the
 * block on its own time, and a transaction that reads this one's writes is endorsed there too. The component reports
 * a transaction done only once every endorsing organization's peer has it (provider/resources/
 * provider/ledger/endorsing-peers.ts). waitsForEveryEndorsingPeer freezes the other organization's peer (SIGSTOP) right after
 * it endorsed, so it cannot commit the block: `pulumi up` must not finish before the component has asked that peer
 * (qscc, targeted at its organization) and the peer, resumed, has answered. Only a real network has peers that can lag
 * (the sandbox's peers share one ledger), and only a network of the caller's own may have a node frozen: never the
 * run's shared one. test/e2e/ledger-component-peers.test.ts runs it on 2.5.16, ledger-component.test.ts on 3.1.5.
 */
import { strict as assert } from "node:assert";
import { evaluation, GATEWAY } from "./gateway-proxy";
import { processOf, signal, waitStopped } from "./kill-stack";
import { componentStack, runUntilHeld, submits, submittedTxId, uniqueKey } from "./ledger-component";
import type { ComponentTarget } from "./ledger-component";

/** The other endorsing organization's peer frozen after it endorsed: up ends only once that peer has the transaction. */
export async function waitsForEveryEndorsingPeer(t: ComponentTarget): Promise<void> {
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
