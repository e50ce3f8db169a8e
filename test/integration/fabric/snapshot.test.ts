/**
 * The Fabric sandbox's snapshot and restore: a restored sandbox serves on the recorded port with the recorded TLS
 * certificate, knows the recorded identities and holds the recorded ledger, so that a client of the first sandbox
 * reads its transaction from the second (test/e2e/upgrade.test.ts relies on it).
 */
import { strict as assert } from "node:assert";
import { FabricSandboxError, startFabricSandbox } from "../../../sandbox/fabric";
import type { FabricSandbox, FabricSandboxSnapshot } from "../../../sandbox/fabric";
import { connectOfficial, text } from "./helpers";

function portOf(sandbox: FabricSandbox): number {
  return Number(sandbox.address.split(":")[1]);
}

describe("Fabric sandbox snapshot and restore", function () {
  this.timeout(60_000);
  let first: FabricSandbox;
  let snapshot: FabricSandboxSnapshot;
  let txId: string;
  let identity: ReturnType<FabricSandbox["newClientIdentity"]>;

  before(async () => {
    first = await startFabricSandbox({ tls: true, organizations: ["Org1MSP", "Org2MSP"] });
    identity = first.newClientIdentity("Org1MSP");
    const c = connectOfficial(first, identity, first.tlsRootCertPem);
    try {
      const proposal = c.contract.newProposal("CreateAsset", { arguments: ["snap-1", "teal"] });
      const submitted = await (await proposal.endorse()).submit();
      txId = submitted.getTransactionId();
      assert.equal((await submitted.getStatus()).successful, true);
    } finally {
      c.close();
    }
    // Through JSON, as a fixture file holds it.
    snapshot = JSON.parse(JSON.stringify(first.snapshot())) as FabricSandboxSnapshot;
  });
  after(async () => {
    await first.close();
  });

  it("refuses to restore on a port that is taken, naming the port", async () => {
    await assert.rejects(
      startFabricSandbox({ restore: snapshot }),
      (e: unknown) =>
        e instanceof FabricSandboxError && e.message.includes(`port ${String(portOf(first))} of 127.0.0.1 is taken`),
    );
  });

  it("refuses options the snapshot holds, and a snapshot of another format", async () => {
    await assert.rejects(startFabricSandbox({ restore: snapshot, port: 0, tls: true }), {
      message: /restore: port, tls come from the snapshot; leave them out/,
    });
    const other = { ...snapshot, format: "other" } as unknown as FabricSandboxSnapshot;
    await assert.rejects(startFabricSandbox({ restore: other }), { message: /restore: format must be/ });
  });

  it("restores the sandbox: same port, TLS, identities and ledger; the recorded client reads its transaction", async () => {
    const blocks = first.blocks().map((b) => b.bytes.toString("hex"));
    const state = [...first.worldState()].map(([k, v]) => [k, v.value.toString("utf8"), v.version.blockNum]);
    await first.close(); // frees the port
    const second = await startFabricSandbox({ restore: snapshot });
    try {
      assert.equal(portOf(second), snapshot.port);
      assert.equal(second.tlsRootCertPem, snapshot.tls?.rootCertPem);
      assert.deepEqual(
        second.blocks().map((b) => b.bytes.toString("hex")),
        blocks,
      );
      assert.deepEqual(
        [...second.worldState()].map(([k, v]) => [k, v.value.toString("utf8"), v.version.blockNum]),
        state,
      );
      const c = connectOfficial(second, identity, snapshot.tls?.rootCertPem);
      try {
        assert.equal(text(await c.contract.evaluateTransaction("ReadAsset", "snap-1")), "teal");
        const qscc = c.gateway.getNetwork(second.channel).getContract("qscc");
        await qscc.evaluateTransaction("GetTransactionByID", second.channel, txId);
      } finally {
        c.close();
      }
      assert.deepEqual(second.evaluations(), [
        { chaincode: "assets", fn: "ReadAsset" },
        { chaincode: "qscc", fn: "GetTransactionByID" },
      ]);
      assert.equal(second.transactionCount(), 1);
    } finally {
      await second.close();
    }
  });

  it("refuses a snapshot whose blocks do not validate as recorded", async () => {
    const [block] = snapshot.blocks;
    const [tx] = block?.transactions ?? [];
    assert.ok(tx !== undefined);
    const wrong = { ...snapshot, blocks: [{ transactions: [{ ...tx, code: 11 }] }] };
    await assert.rejects(startFabricSandbox({ restore: wrong }), {
      message: /restore: block 1 validated as \[0\], recorded \[11\]/,
    });
  });
});
