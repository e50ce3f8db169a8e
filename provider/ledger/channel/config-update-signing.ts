/**
 * Signing a configuration update as `peer channel signconfigtx` and `peer channel update` do: each approver's
 * ConfigSignature is their signature over SignatureHeader ‖ ConfigUpdate bytes (protoutil.SignedData of a
 * ConfigUpdateEnvelope); the CONFIG_UPDATE envelope carries the update and those signatures and is itself signed by
 * the submitter (the orderer checks that signature against /Channel/Writers, and counts only the ConfigSignatures for
 * the update's policies). Any Signer works — a key file, an HSM, Cloud KMS: it gets SHA-256 of the message for ECDSA
 * (its signature comes out low-S DER) and the message itself for Ed25519.
 */
import { codecs } from "../codec";
import type { ConfigSignature, ConfigUpdate } from "../config-messages";
import { sign } from "../gateway-objects";
import { concatBytes } from "../hash";
import type { Hash } from "../hash";
import { serializeIdentity } from "../identity";
import type { Identity } from "../identity";
import type { Envelope } from "../messages";
import { newNonce } from "../proposal";
import type { Signer } from "../signing";
import { resolveSigning } from "../signing-hash";
import { HeaderType } from "../unwrap";

/** An identity with the signer of its key. */
export interface SigningIdentity {
  readonly identity: Identity;
  readonly signer: Signer;
  /** @default sha256 for ECDSA, none (the message) for Ed25519 */
  readonly hash?: Hash;
}

/** Signs `message` as Fabric verifies the identity's signatures (the gateway's signing: hash, Signer, low-S). */
export function signAs(who: SigningIdentity, message: Uint8Array): Promise<Uint8Array> {
  return sign(resolveSigning(who), message, "configuration update");
}

/** The serialized ConfigUpdate every signature covers. */
export function configUpdateBytes(update: ConfigUpdate): Uint8Array {
  return codecs.ConfigUpdate.encode(update);
}

/** One approver's signature of a configuration update (its bytes as `configUpdateBytes` gave them). */
export async function signConfigUpdate(updateBytes: Uint8Array, who: SigningIdentity): Promise<ConfigSignature> {
  const signatureHeader = codecs.SignatureHeader.encode({
    creator: serializeIdentity(who.identity),
    nonce: newNonce(),
  });
  return { signatureHeader, signature: await signAs(who, concatBytes(signatureHeader, updateBytes)) };
}

/** The identity a ConfigSignature was made by (to tell whose signatures a file already carries). */
export function signerOf(signature: ConfigSignature): Identity {
  const creator = codecs.SerializedIdentity.decode(codecs.SignatureHeader.decode(signature.signatureHeader).creator);
  return { mspId: creator.mspid, credentials: creator.idBytes };
}

export interface ConfigUpdateEnvelopeOptions {
  readonly channelId: string;
  readonly updateBytes: Uint8Array;
  readonly signatures: readonly ConfigSignature[];
  /** Who submits: the envelope's creator and signer (a member of a channel organization's Writers). */
  readonly submitter: SigningIdentity;
  /** @default () => new Date() */
  readonly now?: () => Date;
}

/** The signed CONFIG_UPDATE envelope the orderer's Broadcast takes. */
export async function configUpdateEnvelope(options: ConfigUpdateEnvelopeOptions): Promise<Envelope> {
  const now = (options.now ?? (() => new Date()))();
  const channelHeader = codecs.ChannelHeader.encode({
    type: HeaderType.CONFIG_UPDATE,
    channelId: options.channelId,
    timestamp: { seconds: BigInt(Math.floor(now.getTime() / 1000)), nanos: (now.getTime() % 1000) * 1_000_000 },
  });
  const signatureHeader = codecs.SignatureHeader.encode({
    creator: serializeIdentity(options.submitter.identity),
    nonce: newNonce(),
  });
  const data = codecs.ConfigUpdateEnvelope.encode({
    configUpdate: options.updateBytes,
    signatures: options.signatures,
  });
  const payload = codecs.Payload.encode({ header: { channelHeader, signatureHeader }, data });
  return { payload, signature: await signAs(options.submitter, payload) };
}

/** The channel, update bytes and signatures of a CONFIG_UPDATE envelope (a file passed from admin to admin). */
export function readConfigUpdateEnvelope(envelope: Envelope): {
  channelId: string;
  updateBytes: Uint8Array;
  update: ConfigUpdate;
  signatures: readonly ConfigSignature[];
} {
  const context = { path: "CONFIG_UPDATE envelope" };
  const payload = codecs.Payload.decode(envelope.payload, context);
  const header = codecs.ChannelHeader.decode(payload.header?.channelHeader ?? new Uint8Array(0), context);
  const inner = codecs.ConfigUpdateEnvelope.decode(payload.data, { path: "ConfigUpdateEnvelope" });
  const update = codecs.ConfigUpdate.decode(inner.configUpdate, { path: "ConfigUpdate" });
  return { channelId: header.channelId, updateBytes: inner.configUpdate, update, signatures: inner.signatures };
}
