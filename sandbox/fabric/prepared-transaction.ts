/**
 * How Fabric's gateway assembles the prepared (unsigned) transaction from the proposal and the endorsements
 * (internal/pkg/gateway prepareTransaction), and the sandbox's tamper modes, which return a modified one to prove
 * that a client verifies before it signs. What each tamper mode changes, and what a committer then says:
 *
 * | mode                 | change                                                          | committer code |
 * |----------------------|-----------------------------------------------------------------|----------------|
 * | chaincodeArgs        | last chaincode argument in chaincode_proposal_payload replaced   | 5 INVALID_ENDORSER_TRANSACTION |
 * | endorsementSignature | one bit of the first endorsement's signature flipped             | 10 ENDORSEMENT_POLICY_FAILURE  |
 * | proposalHash         | proposal_hash altered, endorsements re-signed by the peers       | 5 INVALID_ENDORSER_TRANSACTION |
 * | rwset                | a write added to the read-write set, endorsements not re-signed  | 10 ENDORSEMENT_POLICY_FAILURE  |
 * | creator              | creator replaced by another identity of the client's MSP         | 4 BAD_CREATOR_SIGNATURE        |
 */
import type { Endorsement, Header } from "./messages";
import { decode, encode } from "./wire";

export type TamperMode = "none" | "chaincodeArgs" | "endorsementSignature" | "proposalHash" | "rwset" | "creator";
export const TAMPER_MODES: readonly TamperMode[] = [
  "none",
  "chaincodeArgs",
  "endorsementSignature",
  "proposalHash",
  "rwset",
  "creator",
];

/** The parts the gateway assembles a transaction from. */
export interface TransactionParts {
  /** The proposal's common.Header (channel header and signature header bytes, as sent). */
  readonly header: Header;
  /** f(ChaincodeProposalPayload without TransientMap) for the visibility mode. */
  readonly chaincodeProposalPayload: Buffer;
  /** The ProposalResponsePayload all endorsers signed. */
  readonly proposalResponsePayload: Buffer;
  readonly endorsements: readonly Endorsement[];
}

/** Fabric's prepareTransaction: ChaincodeActionPayload → Transaction → Payload → unsigned Envelope bytes. */
export function prepareTransaction(parts: TransactionParts): Buffer {
  const unique = new Map<string, Endorsement>();
  for (const e of parts.endorsements)
    unique.set(e.endorser.toString("base64"), unique.get(e.endorser.toString("base64")) ?? e);
  const actionPayload = encode("protos.ChaincodeActionPayload", {
    chaincodeProposalPayload: parts.chaincodeProposalPayload,
    action: { proposalResponsePayload: parts.proposalResponsePayload, endorsements: [...unique.values()] },
  });
  const transaction = encode("protos.Transaction", {
    actions: [{ header: parts.header.signatureHeader, payload: actionPayload }],
  });
  const payload = encode("common.Payload", { header: parts.header, data: transaction });
  return encode("common.Envelope", { payload });
}

export interface TamperTools {
  /** Endorsements of `proposalResponsePayload` by the same peers (a gateway colluding with its peers). */
  readonly resign: (proposalResponsePayload: Buffer) => Endorsement[];
  /** A serialized identity of the same MSP as `creator`, other than it. */
  readonly otherCreator: (creator: Buffer) => Buffer;
}

function flipSignatureBit(signature: Buffer): Buffer {
  const copy = Buffer.from(signature);
  // DER: 30 len 02 rlen r... — flip the last bit of r, which keeps the DER structure valid. An Ed25519 signature (64
  // raw bytes) has no such structure: any bit flipped invalidates it, so one inside it is flipped whatever byte 3 says.
  const rLength = copy[3] ?? 0;
  const index = 4 + rLength - 1;
  const at = index < copy.length ? index : 0;
  copy[at] = (copy[at] ?? 0) ^ 0x01;
  return copy;
}

function tamperArgs(cpp: Buffer): Buffer {
  const payload = decode("protos.ChaincodeProposalPayload", cpp);
  const invocation = decode("protos.ChaincodeInvocationSpec", payload.input);
  const spec = invocation.chaincodeSpec;
  const args = [...(spec?.input?.args ?? [])];
  args[Math.max(args.length - 1, 1)] = Buffer.from("tampered-by-gateway");
  const input = encode("protos.ChaincodeInvocationSpec", {
    chaincodeSpec: { ...spec, input: { ...spec?.input, args } },
  });
  return encode("protos.ChaincodeProposalPayload", { input });
}

function tamperRwset(prpBytes: Buffer): Buffer {
  const prp = decode("protos.ProposalResponsePayload", prpBytes);
  const action = decode("protos.ChaincodeAction", prp.extension);
  const txRwSet = decode("rwset.TxReadWriteSet", action.results);
  const nsRwset = txRwSet.nsRwset.map((ns) => {
    // The chaincode's own namespace (a write to _lifecycle would be a different defect: INVALID_CHAINCODE).
    if (ns.namespace !== action.chaincodeId?.name) return ns;
    const kv = decode("kvrwset.KVRWSet", ns.rwset);
    const writes = [...kv.writes, { key: "tampered-by-gateway", isDelete: false, value: Buffer.from("x") }];
    return { ...ns, rwset: encode("kvrwset.KVRWSet", { ...kv, writes }) };
  });
  const results = encode("rwset.TxReadWriteSet", { ...txRwSet, nsRwset });
  return encode("protos.ProposalResponsePayload", {
    ...prp,
    extension: encode("protos.ChaincodeAction", { ...action, results }),
  });
}

/** Applies `mode` to the parts of a prepared transaction. */
export function tamper(mode: TamperMode, parts: TransactionParts, tools: TamperTools): TransactionParts {
  switch (mode) {
    case "none":
      return parts;
    case "chaincodeArgs": {
      let cpp: Buffer;
      try {
        cpp = tamperArgs(parts.chaincodeProposalPayload);
      } catch {
        // "hash" visibility: the payload is a digest; change it instead.
        cpp = Buffer.from(parts.chaincodeProposalPayload);
        cpp[0] = (cpp[0] ?? 0) ^ 0x01;
      }
      return { ...parts, chaincodeProposalPayload: cpp };
    }
    case "endorsementSignature":
      return {
        ...parts,
        endorsements: parts.endorsements.map((e, i) =>
          i === 0 ? { ...e, signature: flipSignatureBit(e.signature) } : e,
        ),
      };
    case "proposalHash": {
      const prp = decode("protos.ProposalResponsePayload", parts.proposalResponsePayload);
      const hash = Buffer.from(prp.proposalHash);
      hash[0] = (hash[0] ?? 0) ^ 0xff;
      const altered = encode("protos.ProposalResponsePayload", { ...prp, proposalHash: hash });
      return { ...parts, proposalResponsePayload: altered, endorsements: tools.resign(altered) };
    }
    case "rwset":
      return { ...parts, proposalResponsePayload: tamperRwset(parts.proposalResponsePayload) };
    case "creator": {
      const signatureHeader = decode("common.SignatureHeader", parts.header.signatureHeader);
      const altered = encode("common.SignatureHeader", {
        ...signatureHeader,
        creator: tools.otherCreator(signatureHeader.creator),
      });
      return { ...parts, header: { channelHeader: parts.header.channelHeader, signatureHeader: altered } };
    }
  }
}
