/**
 * Codec throughput: encode+decode of Envelope, Transaction and ProcessedTransaction, our protobufjs 8 codecs
 * (provider/ledger) vs @hyperledger/fabric-protos (google-protobuf), on the same realistic bytes: a transaction
 * endorsed by two organizations and committed by the in-process Fabric sandbox, read back through qscc.
 * One operation = decode the bytes, then encode the decoded message. Both sides must reproduce the input bytes
 * exactly, or the benchmark throws. Prints nothing; the caller prints the rows.
 */
import { common, peer } from "@hyperledger/fabric-protos";
import { codecs, connect, newIdentity, newPrivateKeySigner } from "../provider/ledger";
import { startFabricSandbox } from "../sandbox/fabric";

export interface LedgerCodecBenchOptions {
  /** Timed encode+decode operations per message and side. @default DEFAULT_BENCH_CODEC_ITERATIONS */
  readonly iterations?: number;
}

export interface LedgerCodecBenchRow {
  /** The message type. */
  readonly message: string;
  readonly oursOpsPerSec: number;
  readonly fabricProtosOpsPerSec: number;
  /** oursOpsPerSec / fabricProtosOpsPerSec (the target is at least 2). */
  readonly ratio: number;
}

export const DEFAULT_BENCH_CODEC_ITERATIONS = 50_000;
/** Timed rounds per side, interleaved; the best round counts (JIT warm-up would otherwise favour the last side). */
const ROUNDS = 3;

interface Sample {
  readonly message: string;
  readonly bytes: Uint8Array;
  readonly ours: (bytes: Uint8Array) => Uint8Array;
  readonly fabricProtos: (bytes: Uint8Array) => Uint8Array;
}

/** The stored envelope, its Transaction and the qscc ProcessedTransaction of one committed sandbox transaction. */
async function realisticBytes(): Promise<{ envelope: Uint8Array; transaction: Uint8Array; processed: Uint8Array }> {
  const sandbox = await startFabricSandbox({ port: 0 });
  const client = sandbox.newClientIdentity("Org1MSP");
  const gateway = connect({
    address: sandbox.address,
    identity: newIdentity(client.mspId, client.certificatePem),
    signer: newPrivateKeySigner(client.privateKeyPem),
    trustedMsps: Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
  });
  try {
    const { transactionId } = await gateway.submitTransaction({
      channelId: sandbox.channel,
      chaincodeName: sandbox.chaincode,
      functionName: "CreateAsset",
      args: ["asset-benchmark-0001", JSON.stringify({ color: "blue", size: 5, owner: "Tomoko", appraisedValue: 300 })],
    });
    const processed = await gateway.getTransactionById(sandbox.channel, transactionId);
    const envelope = new Uint8Array(sandbox.blocks()[1]?.transactions[0]?.envelope ?? []);
    const transaction = codecs.Payload.decode(codecs.Envelope.decode(envelope).payload).data;
    return { envelope, transaction, processed: codecs.ProcessedTransaction.encode(processed) };
  } finally {
    gateway.close();
    await sandbox.close();
  }
}

function samples(bytes: Awaited<ReturnType<typeof realisticBytes>>): Sample[] {
  return [
    {
      message: "common.Envelope",
      bytes: bytes.envelope,
      ours: (b) => codecs.Envelope.encode(codecs.Envelope.decode(b)),
      fabricProtos: (b) => common.Envelope.deserializeBinary(b).serializeBinary(),
    },
    {
      message: "protos.Transaction",
      bytes: bytes.transaction,
      ours: (b) => codecs.Transaction.encode(codecs.Transaction.decode(b)),
      fabricProtos: (b) => peer.Transaction.deserializeBinary(b).serializeBinary(),
    },
    {
      message: "protos.ProcessedTransaction",
      bytes: bytes.processed,
      ours: (b) => codecs.ProcessedTransaction.encode(codecs.ProcessedTransaction.decode(b)),
      fabricProtos: (b) => peer.ProcessedTransaction.deserializeBinary(b).serializeBinary(),
    },
  ];
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  return Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));
}

/** Operations per second of `iterations` calls (the result is kept so the work cannot be optimized away). */
function opsPerSec(iterations: number, bytes: Uint8Array, op: (b: Uint8Array) => Uint8Array): number {
  let total = 0;
  const started = performance.now();
  for (let i = 0; i < iterations; i++) total += op(bytes).length;
  const elapsedMs = performance.now() - started;
  if (total !== iterations * bytes.length) throw new Error("benchLedgerCodec: a round trip changed the bytes");
  return Math.round((iterations * 1000) / elapsedMs);
}

export async function benchLedgerCodec(options: LedgerCodecBenchOptions = {}): Promise<LedgerCodecBenchRow[]> {
  const iterations = options.iterations ?? DEFAULT_BENCH_CODEC_ITERATIONS;
  const rows: LedgerCodecBenchRow[] = [];
  for (const sample of samples(await realisticBytes())) {
    if (
      !sameBytes(sample.ours(sample.bytes), sample.bytes) ||
      !sameBytes(sample.fabricProtos(sample.bytes), sample.bytes)
    ) {
      throw new Error(`benchLedgerCodec: ${sample.message} does not round-trip to identical bytes on both sides`);
    }
    const warmUp = Math.max(1, Math.floor(iterations / 10));
    opsPerSec(warmUp, sample.bytes, sample.ours);
    opsPerSec(warmUp, sample.bytes, sample.fabricProtos);
    let ours = 0;
    let fabricProtos = 0;
    for (let round = 0; round < ROUNDS; round++) {
      ours = Math.max(ours, opsPerSec(iterations, sample.bytes, sample.ours));
      fabricProtos = Math.max(fabricProtos, opsPerSec(iterations, sample.bytes, sample.fabricProtos));
    }
    rows.push({
      message: sample.message,
      oursOpsPerSec: ours,
      fabricProtosOpsPerSec: fabricProtos,
      ratio: Math.round((ours / fabricProtos) * 100) / 100,
    });
  }
  return rows;
}
