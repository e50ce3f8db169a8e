/**
 * Key pairs the sandbox generates: one for its own identity provider (it signs the subject tokens the STS route
 * accepts) and one per service account (their key files sign JWT-bearer assertions). Nothing is read from disk.
 */
import { createHash, generateKeyPair, generateKeyPairSync, type KeyObject } from "node:crypto";
import { promisify } from "node:util";

const generateKeyPairAsync = promisify(generateKeyPair);
/** RSA modulus length of every generated key. */
export const DEFAULT_RSA_MODULUS_BITS = 2048;

export interface KeyPair {
  /** Key id: hex of the SHA-1 of the public key's DER (the shape of a real private_key_id). */
  readonly keyId: string;
  readonly privateKey: KeyObject;
  readonly publicKey: KeyObject;
}

function toKeyPair(pair: { privateKey: KeyObject; publicKey: KeyObject }): KeyPair {
  const der = pair.publicKey.export({ type: "spki", format: "der" });
  return { keyId: createHash("sha1").update(der).digest("hex"), ...pair };
}

export class KeyRing {
  private readonly serviceAccountKeys = new Map<string, KeyPair>();
  private readonly kmsKeys = new Map<string, KeyPair>();

  private constructor(readonly identityProvider: KeyPair) {}

  /** Generates the IdP key and the keys of `serviceAccounts` in parallel. */
  static async create(serviceAccounts: readonly string[]): Promise<KeyRing> {
    const generate = async (): Promise<KeyPair> =>
      toKeyPair(await generateKeyPairAsync("rsa", { modulusLength: DEFAULT_RSA_MODULUS_BITS }));
    const [idp, ...accounts] = await Promise.all([generate(), ...serviceAccounts.map(generate)]);
    const ring = new KeyRing(idp);
    serviceAccounts.forEach((email, i) => {
      const pair = accounts[i];
      if (pair !== undefined) ring.serviceAccountKeys.set(email, pair);
    });
    return ring;
  }

  /** The key of a service account, generated now if it has none yet (a seed added it later). */
  serviceAccountKey(email: string): KeyPair {
    let pair = this.serviceAccountKeys.get(email);
    if (pair === undefined) {
      pair = toKeyPair(generateKeyPairSync("rsa", { modulusLength: DEFAULT_RSA_MODULUS_BITS }));
      this.serviceAccountKeys.set(email, pair);
    }
    return pair;
  }

  /**
   * The key pair of a Cloud KMS key version (P-256, P-384 or Ed25519 by its algorithm), generated on first use and
   * kept for the sandbox's lifetime.
   */
  kmsKey(name: string, algorithm = "EC_SIGN_P256_SHA256"): KeyPair {
    const id = `${algorithm}\n${name}`;
    let pair = this.kmsKeys.get(id);
    if (pair === undefined) {
      pair = toKeyPair(
        algorithm === "EC_SIGN_ED25519"
          ? generateKeyPairSync("ed25519")
          : generateKeyPairSync("ec", { namedCurve: algorithm === "EC_SIGN_P384_SHA384" ? "P-384" : "P-256" }),
      );
      this.kmsKeys.set(id, pair);
    }
    return pair;
  }

  /** The key of a service account with this key id, if the account has one. */
  findServiceAccountKey(email: string): KeyPair | undefined {
    return this.serviceAccountKeys.get(email);
  }
}
