/**
 * The ledger data sources through the plain `pulumi` CLI: a generated program (test/helpers/ledger-reads-project.ts)
 * previewed against the Fabric sandbox (two organizations that must both endorse, TLS) with a reader identity — Org1's
 * peer identity, a member of the channel's Readers and not of its Writers, so it could submit nothing — signing
 * through a key file. The preview reads getTransaction of a transaction a client committed, evaluate (qscc
 * GetChainInfo, a query the Readers may send) and getChainInfo, and prints them; nothing is ordered, and the key is in
 * no output. One lean run: the ledger-targets integration tests hold the reads to real Fabric 2.5.16 and 3.1.5.
 */
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { codecs } from "../../provider/ledger/codec";
import { connect } from "../../provider/ledger/gateway-client";
import { toHex } from "../../provider/ledger/hash";
import { newIdentity } from "../../provider/ledger/identity";
import { newPrivateKeySigner } from "../../provider/ledger/signing";
import { startFabricSandbox } from "../../sandbox/fabric";
import type { FabricSandbox } from "../../sandbox/fabric";
import { writeLedgerReadsProject } from "../helpers/ledger-reads-project";
import { changeSummary, initProjectStack } from "../helpers/project-stack";

/** The stack's outputs as the preview registered them last (its first outputs event, at the start, has none). */
function previewOutputs(events: readonly EngineEvent[]): Record<string, unknown> {
  const stack = events.filter((e) => e.resOutputsEvent?.metadata.type === "pulumi:pulumi:Stack").at(-1);
  return (stack?.resOutputsEvent?.metadata.new?.outputs ?? {}) as Record<string, unknown>;
}

describe("ledger data sources in a preview with a reader identity (pulumi CLI, Fabric sandbox)", function () {
  this.timeout(300_000);
  let sandbox: FabricSandbox;

  before(async () => {
    sandbox = await startFabricSandbox({ organizations: ["Org1MSP", "Org2MSP"], endorsementPolicy: "all", tls: true });
  });
  after(async () => {
    await sandbox.close();
  });

  it("reads a committed transaction, a query and the chain's height, and orders nothing", async () => {
    const tls = { rootCertificates: sandbox.tlsRootCertPem ?? "", serverNameOverride: "localhost" };
    const client = sandbox.newClientIdentity("Org1MSP", "User1");
    const gateway = connect({
      address: sandbox.address,
      tls,
      identity: newIdentity(client.mspId, client.certificatePem),
      signer: newPrivateKeySigner(client.privateKeyPem),
      trustedMsps: Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
    });
    const committed = await gateway
      .submitTransaction({
        channelId: sandbox.channel,
        chaincodeName: sandbox.chaincode,
        functionName: "CreateAsset",
        args: ["asset-read", "violet"],
      })
      .finally(() => {
        gateway.close();
      });
    const reader = sandbox.newPeerIdentity("Org1MSP");
    const project = writeLedgerReadsProject({
      gateway: { address: sandbox.address, tlsRootCertPem: tls.rootCertificates, serverNameOverride: "localhost" },
      channel: sandbox.channel,
      identity: reader,
      trustedRootCertificates: sandbox.caCertificates,
      txId: committed.transactionId,
      query: { chaincode: "qscc", function: "GetChainInfo", args: [sandbox.channel] },
    });
    const stack = await initProjectStack({ projectDir: project.dir, config: project.config });
    try {
      const height = sandbox.blocks().length;
      const preview = await stack.preview();
      assert.deepEqual(changeSummary(preview.events), { create: 1 });
      assert.equal(sandbox.blocks().length, height, "the preview ordered nothing");
      const outputs = previewOutputs(preview.events);
      assert.deepEqual(outputs["transaction"], {
        validationCode: "VALID",
        validationCodeNumber: 0,
        blockNumber: committed.status.blockNumber.toString(),
        creator: "Org1MSP",
        chaincode: sandbox.chaincode,
        function: "CreateAsset",
        args: ["asset-read", "violet"],
        writes: [`${sandbox.chaincode}:asset-read=violet`],
        endorsers: ["Org1MSP", "Org2MSP"],
        verified: true,
      });
      const last = sandbox.blocks()[height - 1];
      assert.ok(last !== undefined);
      const info = codecs.BlockchainInfo.decode(Buffer.from((outputs["query"] as { base64: string }).base64, "base64"));
      assert.deepEqual(outputs["chainInfo"], {
        height: String(height),
        currentBlockHash: toHex(info.currentBlockHash),
        previousBlockHash: toHex(info.previousBlockHash),
      });
      assert.equal(info.height, BigInt(height));
      // The CLI printed what the program read, and never the reader's key.
      assert.match(preview.stdout, new RegExp(`blockNumber\\s*: "${committed.status.blockNumber.toString()}"`));
      const keyBody = reader.privateKeyPem.split("\n")[1] ?? "";
      assert.ok(keyBody.length > 20);
      assert.equal(preview.output.includes(keyBody), false, "the reader's key is in the preview's output");
    } finally {
      await stack.dispose();
      project.remove();
    }
  });
});
