/**
 * Signatures and verifications per second for each key type a Fabric identity can have: ECDSA
 * P-256, ECDSA P-384 and Ed25519, through our private-key signer and the official client's
 * (`@hyperledger/fabric-gateway` signers.newPrivateKeySigner), on the same inputs in the same process.
 *
 * What each side is given is what its gateway client gives it: for ECDSA the SHA-256 digest of the message (Fabric
 * hashes with SHA-256 whatever the curve; the official client's default hash), for Ed25519 the message itself (its
 * `hash.none`). Ours signs an ECDSA digest with the BigInt RFC 6979 signer (Node cannot sign a precomputed digest),
 * and our gateway client, which holds the message, takes the node:crypto fast path instead (`messageSignerOf`,
 * low-S normalized): both rows are shown. Every signature of every side is verified before timing, so a side that
 * signed wrongly fails the benchmark instead of winning it. Prints nothing; the caller prints the rows.
 */
import * as crypto from "node:crypto";
import * as official from "@hyperledger/fabric-gateway";
import { isLowS, newPrivateKeySigner, verifySignature } from "../provider/ledger";
import type { KeyType } from "../provider/ledger";
import { messageSignerOf } from "../provider/ledger/signing";
import { opsPerSec } from "./ledger-signing";

export interface KeyTypeBenchRow {
  readonly keyType: KeyType;
  /** "sign" or "verify", and whose. */
  readonly operation: string;
  readonly opsPerSec: number;
  /** The official client's signer on the same inputs (sign rows), or node:crypto's verify (verify rows). */
  readonly baselineOpsPerSec: number;
  readonly baseline: string;
}

export interface KeyTypeBenchOptions {
  /** Signatures per side and key type. @default 2_000 */
  readonly signatures?: number;
  /** Verifications per side and key type. @default 5_000 */
  readonly verifications?: number;
}

/** About the size of a prepared transaction's payload with two endorsements. */
const MESSAGE_BYTES = 4_096;
/** Messages rotated through, so no side benefits from signing one message again and again. */
const MESSAGES = 64;

const GENERATE: Readonly<Record<KeyType, () => crypto.KeyPairKeyObjectResult>> = {
  "ecdsa-p256": () => crypto.generateKeyPairSync("ec", { namedCurve: "P-256" }),
  "ecdsa-p384": () => crypto.generateKeyPairSync("ec", { namedCurve: "P-384" }),
  ed25519: () => crypto.generateKeyPairSync("ed25519"),
};

/** Throws unless `signature` verifies over `message` and, for ECDSA, is low-S with the curve's own order. */
function assertFabricValid(
  who: string,
  keyType: KeyType,
  publicKey: crypto.KeyObject,
  message: Uint8Array,
  signature: Uint8Array,
): void {
  const lowS = keyType === "ed25519" || isLowS(signature, keyType);
  if (!lowS || !verifySignature({ publicKey, message, signature })) {
    throw new Error(
      `benchLedgerKeyTypes: a ${keyType} signature of ${who} is not one Fabric accepts; the benchmark would be meaningless`,
    );
  }
}

export async function benchLedgerKeyTypes(options: KeyTypeBenchOptions = {}): Promise<KeyTypeBenchRow[]> {
  const signatures = options.signatures ?? 2_000;
  const verifications = options.verifications ?? 5_000;
  const messages = Array.from({ length: MESSAGES }, () => new Uint8Array(crypto.randomBytes(MESSAGE_BYTES)));
  const digests = messages.map((m) => new Uint8Array(crypto.createHash("sha256").update(m).digest()));
  const rows: KeyTypeBenchRow[] = [];
  for (const keyType of ["ecdsa-p256", "ecdsa-p384", "ed25519"] as const) {
    const { privateKey, publicKey } = GENERATE[keyType]();
    const ed = keyType === "ed25519";
    // What each gateway client hands its signer: the message for Ed25519, else its SHA-256 digest.
    const input = (i: number): Uint8Array => (ed ? messages : digests)[i % MESSAGES] ?? new Uint8Array(0);
    const message = (i: number): Uint8Array => messages[i % MESSAGES] ?? new Uint8Array(0);
    const ours = newPrivateKeySigner(privateKey);
    const theirs = official.signers.newPrivateKeySigner(privateKey);
    const fast = messageSignerOf(ours);

    for (let i = 0; i < MESSAGES; i++) {
      assertFabricValid("ours", keyType, publicKey, message(i), await ours(input(i)));
      assertFabricValid("the official client", keyType, publicKey, message(i), await theirs(input(i)));
      if (fast !== undefined)
        assertFabricValid("ours (message path)", keyType, publicKey, message(i), fast(message(i), "sha256"));
    }
    const officialSign = await opsPerSec(signatures, (i) => theirs(input(i)));
    const oursSign = await opsPerSec(signatures, (i) => ours(input(i)));
    const baseline = `@hyperledger/fabric-gateway signers.newPrivateKeySigner (${ed ? "hash.none: the message" : "the SHA-256 digest"})`;
    rows.push({
      keyType,
      operation: ed ? "sign the message (ours)" : "sign the digest (ours, RFC 6979)",
      opsPerSec: oursSign,
      baselineOpsPerSec: officialSign,
      baseline,
    });
    if (fast !== undefined) {
      const fastSign = await opsPerSec(signatures, (i) => fast(message(i), "sha256"));
      rows.push({
        keyType,
        operation: "sign the message (ours, what our gateway client uses)",
        opsPerSec: fastSign,
        baselineOpsPerSec: officialSign,
        baseline,
      });
    }

    const signed = await Promise.all(messages.map((_, i) => ours(input(i))));
    const signature = (i: number): Uint8Array => signed[i % MESSAGES] ?? new Uint8Array(0);
    const oursVerify = await opsPerSec(verifications, (i) =>
      verifySignature({ publicKey, message: message(i), signature: signature(i) }),
    );
    const nodeVerify = await opsPerSec(verifications, (i) =>
      crypto.verify(ed ? null : "sha256", message(i), publicKey, signature(i)),
    );
    rows.push({
      keyType,
      operation: `verify (ours: ${ed ? "" : "canonical DER and low-S checks, then "}node:crypto)`,
      opsPerSec: oursVerify,
      baselineOpsPerSec: nodeVerify,
      baseline: "node:crypto verify alone",
    });
  }
  return rows;
}
