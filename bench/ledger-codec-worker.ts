/**
 * One side of the codec benchmark in its own process (started by ledger-codec.ts): `node ledger-codec-worker.js
 * <ours|fabric-protos> <dir>` reads the sample messages from <dir>, measures encode+decode of each in this side's
 * own steady state (its own garbage and collections, nothing left by the other side) and prints one JSON line:
 * `{ "<message>": <best ops/s>, ... }`.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import { common, peer } from "@hyperledger/fabric-protos";
import { codecs } from "../provider/ledger";

export type CodecSide = "ours" | "fabric-protos";

type RoundTrip = (bytes: Uint8Array) => Uint8Array;

/** The three messages, by file name in the samples directory, with each side's decode-then-encode. */
export const CODEC_SAMPLES: readonly { message: string; file: string; sides: Record<CodecSide, RoundTrip> }[] = [
  {
    message: "common.Envelope",
    file: "envelope.bin",
    sides: {
      ours: (b) => codecs.Envelope.encode(codecs.Envelope.decode(b)),
      "fabric-protos": (b) => common.Envelope.deserializeBinary(b).serializeBinary(),
    },
  },
  {
    message: "protos.Transaction",
    file: "transaction.bin",
    sides: {
      ours: (b) => codecs.Transaction.encode(codecs.Transaction.decode(b)),
      "fabric-protos": (b) => peer.Transaction.deserializeBinary(b).serializeBinary(),
    },
  },
  {
    message: "protos.ProcessedTransaction",
    file: "processed-transaction.bin",
    sides: {
      ours: (b) => codecs.ProcessedTransaction.encode(codecs.ProcessedTransaction.decode(b)),
      "fabric-protos": (b) => peer.ProcessedTransaction.deserializeBinary(b).serializeBinary(),
    },
  },
];

/** Operations per second of `iterations` calls (the result is kept so the work cannot be optimized away). */
function opsPerSec(iterations: number, bytes: Uint8Array, op: RoundTrip): number {
  let total = 0;
  const started = performance.now();
  for (let i = 0; i < iterations; i++) total += op(bytes).length;
  const elapsedMs = performance.now() - started;
  if (total !== iterations * bytes.length) throw new Error("benchLedgerCodec: a round trip changed the bytes");
  return Math.round((iterations * 1000) / elapsedMs);
}

function main(): void {
  const [side, dir, iterationsArg, roundsArg] = process.argv.slice(2);
  if ((side !== "ours" && side !== "fabric-protos") || dir === undefined) {
    throw new Error("usage: ledger-codec-worker <ours|fabric-protos> <dir> [iterations] [rounds]");
  }
  const iterations = Number(iterationsArg ?? 20_000);
  const rounds = Number(roundsArg ?? 10);
  const result: Record<string, number> = {};
  for (const sample of CODEC_SAMPLES) {
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, sample.file)));
    const op = sample.sides[side];
    opsPerSec(iterations, bytes, op); // warm-up: JIT and the side's steady-state heap
    let best = 0;
    for (let round = 0; round < rounds; round++) best = Math.max(best, opsPerSec(iterations, bytes, op));
    result[sample.message] = best;
  }
  process.stdout.write(`${JSON.stringify(result)}\n`);
}

if (require.main === module) main();
