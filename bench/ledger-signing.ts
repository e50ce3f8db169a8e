/**
 * Signing and verification throughput of the ledger library against node:crypto on the same messages.
 *
 * - sign: SHA-256 of the message, then our low-S RFC 6979 signer (`newPrivateKeySigner`, BigInt arithmetic, because
 *   Node's crypto cannot sign a precomputed digest) vs `crypto.sign("sha256", message, key)` (OpenSSL, high-S about
 *   half the time, which Fabric would reject).
 * - verify: `verifySignature` (canonical DER and low-S checks, then OpenSSL) vs `crypto.verify` of the same
 *   low-S signature.
 * Prints nothing; the caller prints the rows.
 */
import * as crypto from "node:crypto";
import { newPrivateKeySigner, sha256, verifySignature } from "../provider/ledger";

export interface LedgerSigningBenchOptions {
  /** Signatures per side. @default DEFAULT_BENCH_SIGN_ITERATIONS */
  readonly signIterations?: number;
  /** Verifications per side. @default DEFAULT_BENCH_VERIFY_ITERATIONS */
  readonly verifyIterations?: number;
  /** Bytes of the signed message. @default DEFAULT_BENCH_MESSAGE_BYTES */
  readonly messageBytes?: number;
}

export interface LedgerSigningBenchRow {
  /** "sign" or "verify". */
  readonly operation: string;
  /** Ours, operations per second. */
  readonly opsPerSec: number;
  /** The baseline's operations per second on the same messages. */
  readonly baselineOpsPerSec: number;
  /** What the baseline is. */
  readonly baseline: string;
}

export const DEFAULT_BENCH_SIGN_ITERATIONS = 2_000;
export const DEFAULT_BENCH_VERIFY_ITERATIONS = 5_000;
/** About the size of a prepared transaction's payload with two endorsements. */
export const DEFAULT_BENCH_MESSAGE_BYTES = 4_096;
/** Messages rotated through, so no side benefits from signing one message repeatedly. */
const MESSAGE_COUNT = 64;

/** Operations per second of `iterations` sequential awaited calls of `task(i)`, after a short warm-up. */
export async function opsPerSec(iterations: number, task: (i: number) => unknown): Promise<number> {
  for (let i = 0; i < Math.min(50, iterations); i++) await task(i);
  const started = performance.now();
  for (let i = 0; i < iterations; i++) await task(i);
  const elapsedMs = performance.now() - started;
  return Math.round((iterations * 1000) / elapsedMs);
}

export async function benchLedgerSigning(options: LedgerSigningBenchOptions = {}): Promise<LedgerSigningBenchRow[]> {
  const signIterations = options.signIterations ?? DEFAULT_BENCH_SIGN_ITERATIONS;
  const verifyIterations = options.verifyIterations ?? DEFAULT_BENCH_VERIFY_ITERATIONS;
  const messageBytes = options.messageBytes ?? DEFAULT_BENCH_MESSAGE_BYTES;
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const messages = Array.from({ length: MESSAGE_COUNT }, () => new Uint8Array(crypto.randomBytes(messageBytes)));
  const message = (i: number): Uint8Array => messages[i % MESSAGE_COUNT] ?? new Uint8Array(0);
  const signer = newPrivateKeySigner(privateKey);

  const ourSign = await opsPerSec(signIterations, (i) => signer(sha256(message(i))));
  const nodeSign = await opsPerSec(signIterations, (i) => crypto.sign("sha256", message(i), privateKey));

  const signatures = await Promise.all(messages.map((m) => signer(sha256(m))));
  const signature = (i: number): Uint8Array => signatures[i % MESSAGE_COUNT] ?? new Uint8Array(0);
  for (const [i, m] of messages.entries()) {
    if (!verifySignature({ publicKey, message: m, signature: signature(i) })) {
      throw new Error("benchLedgerSigning: our signature does not verify; the benchmark would be meaningless");
    }
  }
  const ourVerify = await opsPerSec(verifyIterations, (i) =>
    verifySignature({ publicKey, message: message(i), signature: signature(i) }),
  );
  const nodeVerify = await opsPerSec(verifyIterations, (i) =>
    crypto.verify("sha256", message(i), publicKey, signature(i)),
  );
  return [
    {
      operation: "sign",
      opsPerSec: ourSign,
      baselineOpsPerSec: nodeSign,
      baseline: "node:crypto sign (sha256, P-256, DER; high-S half the time)",
    },
    { operation: "verify", opsPerSec: ourVerify, baselineOpsPerSec: nodeVerify, baseline: "node:crypto verify" },
  ];
}
