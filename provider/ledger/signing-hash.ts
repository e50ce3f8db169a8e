/**
 * The hash a Gateway's signer is given, chosen from the identity's key type (connect() checks it before anything is
 * sent), and the Node names of our Hash functions.
 */
import { ConfigError } from "../errors/config-error";
import type { ConnectOptions } from "./gateway-client";
import type { SigningContext } from "./gateway-objects";
import { DEFAULT_HASH, none, sha256, sha384, sha3_256, sha3_384 } from "./hash";
import type { Hash } from "./hash";
import { identityKeyType } from "./identity";
import { KEY_TYPE_NAMES } from "./key-types";
import type { KeyType } from "./key-types";
import { messageSignerOf, privateKeySignerType } from "./signing";

/** Node names of our Hash functions: with one of them, a newPrivateKeySigner signs the message in node:crypto. */
export const NODE_HASH_NAMES = new Map<Hash, string>([
  [sha256, "sha256"],
  [sha384, "sha384"],
  [sha3_256, "sha3-256"],
  [sha3_384, "sha3-384"],
]);

/**
 * The hash for the identity's key type; throws ConfigError naming the setting for a combination Fabric would refuse:
 * an Ed25519 identity with a digest (fabric-gateway#757), an ECDSA one with `none`, or one of our own signers whose key
 * type is not the certificate's.
 */
export function hashFor(options: Pick<ConnectOptions, "identity" | "signer" | "hash">, keyType: KeyType): Hash {
  const name = `${options.identity.mspId}'s identity has an ${KEY_TYPE_NAMES[keyType]} key`;
  if (keyType === "ed25519" && options.hash !== undefined && options.hash !== none) {
    throw new ConfigError({
      setting: "hash",
      message:
        `hash: ${name}, which Fabric verifies over the message itself, never over a digest: leave hash out or set ` +
        "hash: none (a signature over a digest would be refused by every peer, fabric-gateway#757)",
    });
  }
  if (keyType !== "ed25519" && options.hash === none) {
    throw new ConfigError({
      setting: "hash",
      message: `hash: ${name}, which Fabric verifies over a SHA-256 digest: leave hash out or set hash: sha256, not none`,
    });
  }
  const signerType = options.signer === undefined ? undefined : privateKeySignerType(options.signer);
  if (signerType !== undefined && signerType !== keyType) {
    throw new ConfigError({
      setting: "signer",
      message:
        `signer: the private key is ${KEY_TYPE_NAMES[signerType]} but ${name}: use the private key of ` +
        "identity's certificate, or the certificate of this key",
    });
  }
  return options.hash ?? (keyType === "ed25519" ? none : DEFAULT_HASH);
}

/**
 * How a client with these settings signs: the identity's key type, the hash (hashFor: ConfigError for a combination
 * Fabric would refuse, before anything is sent) and our signers' message fast path.
 */
export function resolveSigning(options: Pick<ConnectOptions, "identity" | "signer" | "hash">): SigningContext {
  const keyType = identityKeyType(options.identity);
  const hash = hashFor(options, keyType);
  const messageHashAlgorithm = NODE_HASH_NAMES.get(hash);
  return {
    signer: options.signer,
    // The fast path only for our own signers and a hash whose Node name we know; any other Signer gets the digest.
    messageSigner:
      options.signer === undefined || messageHashAlgorithm === undefined ? undefined : messageSignerOf(options.signer),
    messageHashAlgorithm: messageHashAlgorithm ?? "",
    hash,
    keyType,
  };
}
