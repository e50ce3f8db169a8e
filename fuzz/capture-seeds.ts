/**
 * Captures the seed corpus of the fuzz targets from a real Fabric network (sandbox/fabric-network, 2.5.16 unless
 * `--version` says otherwise): the raw bytes the gateway peer answered (EndorseResponse, SubmitResponse,
 * CommitStatusResponse, EvaluateResponse, a gRPC error's grpc-status-details-bin trailer), what qscc returns
 * (ProcessedTransaction, blocks, BlockchainInfo) and the envelopes inside the blocks. Written under
 * test/fixtures/fuzz/seeds/<target>/. They hold public certificates and test data only: no private key is written.
 *
 *     node dist/fuzz/capture-seeds.js [--version 2.5.16]
 */
import * as grpc from "@grpc/grpc-js";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { connect, codecs, newIdentity, newPrivateKeySigner } from "../provider/ledger";
import { startFabricNetwork, type FabricVersion } from "../sandbox/fabric-network";
import { gatewayInput, type GatewayKind } from "./targets/gateway";

const SEEDS = join(__dirname, "..", "..", "test", "fixtures", "fuzz", "seeds");

function save(target: string, name: string, bytes: Uint8Array): void {
  mkdirSync(join(SEEDS, target), { recursive: true });
  writeFileSync(join(SEEDS, target, name), bytes);
}

/** A grpc-js Client that keeps the raw bytes of every unary answer and of every error's details trailer. */
function recordingClient(address: string, credentials: grpc.ChannelCredentials, serverName: string) {
  const answers: { method: string; bytes: Uint8Array }[] = [];
  const trailers: { method: string; bytes: Uint8Array }[] = [];
  const client = new grpc.Client(address, credentials, { "grpc.ssl_target_name_override": serverName });
  const original = client.makeUnaryRequest.bind(client) as (...args: unknown[]) => grpc.ClientUnaryCall;
  (client as unknown as { makeUnaryRequest: unknown }).makeUnaryRequest = (...args: unknown[]) => {
    const method = args[0] as string;
    const deserialize = args[2] as (b: Buffer) => unknown;
    const callback = args[args.length - 1] as (e: grpc.ServiceError | null, r?: unknown) => void;
    const wrapped = [...args];
    wrapped[2] = (b: Buffer) => {
      answers.push({ method, bytes: new Uint8Array(b) });
      return deserialize(b);
    };
    wrapped[wrapped.length - 1] = (e: grpc.ServiceError | null, r?: unknown) => {
      for (const t of e?.metadata.get("grpc-status-details-bin") ?? [])
        if (typeof t !== "string") trailers.push({ method, bytes: new Uint8Array(t) });
      callback(e, r);
    };
    return original(...wrapped);
  };
  const stream = client.makeServerStreamRequest.bind(client) as (
    ...args: unknown[]
  ) => grpc.ClientReadableStream<unknown>;
  (client as unknown as { makeServerStreamRequest: unknown }).makeServerStreamRequest = (...args: unknown[]) => {
    const method = args[0] as string;
    const deserialize = args[2] as (b: Buffer) => unknown;
    const wrapped = [...args];
    wrapped[2] = (b: Buffer) => {
      answers.push({ method, bytes: new Uint8Array(b) });
      return deserialize(b);
    };
    return stream(...wrapped);
  };
  return { client, answers, trailers };
}

async function main(): Promise<void> {
  const i = process.argv.indexOf("--version");
  const version = (i > 0 ? process.argv[i + 1] : "2.5.16") as FabricVersion;
  const network = await startFabricNetwork({ version, log: (line) => process.stderr.write(`${line}\n`) });
  try {
    const org = network.organization("Org1MSP");
    const trustedMsps = ["Org1MSP", "Org2MSP"].map((mspId) => ({
      mspId,
      rootCertificates: [network.organization(mspId).caCertificatePem],
    }));
    const rec = recordingClient(
      org.gatewayAddress,
      grpc.credentials.createSsl(Buffer.from(org.tlsRootCertPem)),
      org.tlsServerName,
    );
    const gateway = connect({
      client: rec.client,
      identity: newIdentity(org.mspId, org.client.certificatePem),
      signer: newPrivateKeySigner(org.client.privateKeyPem),
      trustedMsps,
    });
    const channelId = network.channel;
    const chaincodeName = network.chaincode;
    const at = new Date().toISOString();
    const save2 = (kind: GatewayKind, name: string, bytes: Uint8Array): void => {
      save("gateway", name, gatewayInput(kind, bytes));
    };

    // Endorse → Submit → CommitStatus, with the proposal the endorse target replays against its answer.
    const proposal = gateway.newProposal({
      channelId,
      chaincodeName,
      functionName: "CreateAsset",
      args: ["fuzz-seed", "blue"],
    });
    rec.answers.length = 0;
    const transaction = await proposal.endorse();
    save2("endorse", "endorse-create-asset.bin", rec.answers[0]?.bytes ?? new Uint8Array(0));
    const txId = proposal.getTransactionId();
    const commit = await transaction.submit();
    save2("submit", "submit.bin", rec.answers[1]?.bytes ?? new Uint8Array(0));
    rec.answers.length = 0;
    const status = await commit.getStatus();
    save2("commitStatus", "commit-status-valid.bin", rec.answers[0]?.bytes ?? new Uint8Array(0));
    writeFileSync(
      join(SEEDS, "gateway", "context.json"),
      `${JSON.stringify(
        {
          fabric: version,
          capturedAt: at,
          mspId: org.mspId,
          certificatePem: org.client.certificatePem,
          trustedMsps: trustedMsps.map((t) => ({ mspId: t.mspId, rootCertificatePem: t.rootCertificates[0] })),
          proposedTransaction: Buffer.from(proposal.getBytes()).toString("base64"),
          channelId,
        },
        null,
        2,
      )}\n`,
    );

    // The ChaincodeEvents stream from the block holding our transaction: its first message.
    rec.answers.length = 0;
    const events = await gateway.getChaincodeEvents(channelId, chaincodeName, { startBlock: status.blockNumber });
    for await (const event of events) if (event.transactionId === txId) break;
    events.close();
    save2("chaincodeEvents", "chaincode-events-asset-created.bin", rec.answers[0]?.bytes ?? new Uint8Array(0));

    rec.answers.length = 0;
    await gateway.evaluateTransaction({ channelId, chaincodeName, functionName: "ReadAsset", args: ["fuzz-seed"] });
    save2("evaluate", "evaluate-read-asset.bin", rec.answers[0]?.bytes ?? new Uint8Array(0));
    rec.answers.length = 0;
    const processed = await gateway.getTransactionById(channelId, txId);
    save2("processedTransaction", "qscc-get-transaction-by-id.bin", rec.answers[0]?.bytes ?? new Uint8Array(0));
    const processedBytes = codecs.EvaluateResponse.decode(rec.answers[0]?.bytes ?? new Uint8Array(0)).result?.payload;
    if (processedBytes === undefined) throw new Error("qscc answered no payload");
    for (const target of ["wire-decode", "cli-decode", "cli-verify"])
      save(target, "processed-transaction.bin", processedBytes);
    save(
      "cli-decode",
      "processed-transaction.b64",
      new TextEncoder().encode(Buffer.from(processedBytes).toString("base64")),
    );
    const envelope = codecs.Envelope.encode(processed.transactionEnvelope ?? {});
    save("unwrap", "envelope-create-asset.bin", envelope);
    save("cli-verify", "envelope-create-asset.bin", envelope);

    // A failed evaluate: the gRPC error's details trailer (google.rpc.Status with ErrorDetail entries).
    await gateway
      .evaluateTransaction({ channelId, chaincodeName, functionName: "ReadAsset", args: ["no-such-asset"] })
      .catch(() => undefined);
    await gateway
      .newProposal({ channelId, chaincodeName, functionName: "NoSuchFunction", args: [] })
      .endorse()
      .catch(() => undefined);
    rec.trailers.forEach((t, n) => {
      save2("errorDetails", `error-details-${String(n)}.bin`, t.bytes);
    });

    // Blocks: the genesis (config) block, the lifecycle blocks and the one holding our transaction; chain info.
    const qscc = async (fn: string, args: string[]) => {
      rec.answers.length = 0;
      return gateway.evaluateTransaction({
        channelId,
        chaincodeName: "qscc",
        functionName: fn,
        args: [channelId, ...args],
      });
    };
    const info = await qscc("GetChainInfo", []);
    for (const target of ["wire-decode", "cli-decode"]) save(target, "blockchain-info.bin", info);
    const height = codecs.BlockchainInfo.decode(info).height;
    for (const n of new Set([0n, 1n, height - 2n, height - 1n, status.blockNumber])) {
      if (n < 0n) continue;
      const block = await qscc("GetBlockByNumber", [n.toString()]);
      for (const target of ["wire-decode", "cli-decode", "cli-verify"])
        save(target, `block-${n.toString()}.bin`, block);
      for (const [index, data] of (codecs.Block.decode(block).data?.data ?? []).entries())
        save("unwrap", `block-${n.toString()}-envelope-${String(index)}.bin`, data);
    }
    gateway.close();
    rec.client.close();
    process.stdout.write(`captured from Fabric ${version} at ${at}\n`);
  } finally {
    await network.close();
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
