/** Helpers for the byte-compatibility tests against @hyperledger/fabric-protos. */
import assert from "node:assert/strict";
import * as fp from "@hyperledger/fabric-protos";
import { Timestamp } from "google-protobuf/google/protobuf/timestamp_pb";
import type { MessageCodec, MessageInit } from "../../../provider/ledger/codec";

export const u8 = (s: string): Uint8Array => new TextEncoder().encode(s);
export const hex = (b: Uint8Array): string => Buffer.from(b).toString("hex");
export const empty = (): Uint8Array => new Uint8Array(0);

export interface FabricMessage {
  serializeBinary(): Uint8Array;
  toObject(): unknown;
}
export interface FabricClass {
  deserializeBinary(bytes: Uint8Array): FabricMessage;
}

/**
 * The same logical message built with our codec and with @hyperledger/fabric-protos: identical bytes, ours decodes
 * theirs to exactly `ours`, and theirs decodes ours to exactly their message.
 */
export function assertCompatible<T>(codec: MessageCodec<T>, ours: T, theirs: FabricMessage, Theirs: FabricClass): void {
  const ourBytes = codec.encode(ours as MessageInit<T>);
  const theirBytes = theirs.serializeBinary();
  assert.equal(hex(ourBytes), hex(theirBytes));
  assert.deepEqual(codec.decode(theirBytes), ours);
  assert.deepEqual(Theirs.deserializeBinary(ourBytes).toObject(), theirs.toObject());
}

export const CERT = u8("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n");

export function timestamp(seconds: number, nanos: number): Timestamp {
  const t = new Timestamp();
  t.setSeconds(seconds);
  t.setNanos(nanos);
  return t;
}

export function fabricEnvelope(payload: Uint8Array, signature: Uint8Array): fp.common.Envelope {
  const e = new fp.common.Envelope();
  e.setPayload(payload);
  e.setSignature(signature);
  return e;
}

export function fabricEndorsement(endorser: Uint8Array, signature: Uint8Array): fp.peer.Endorsement {
  const e = new fp.peer.Endorsement();
  e.setEndorser(endorser);
  e.setSignature(signature);
  return e;
}

export function fabricChaincodeId(name: string, version: string): fp.peer.ChaincodeID {
  const id = new fp.peer.ChaincodeID();
  id.setName(name);
  id.setVersion(version);
  return id;
}

export function fabricResponse(status: number, message: string, payload: Uint8Array): fp.peer.Response {
  const r = new fp.peer.Response();
  r.setStatus(status);
  r.setMessage(message);
  r.setPayload(payload);
  return r;
}
