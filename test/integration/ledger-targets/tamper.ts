/**
 * A gateway that lies, in front of any target: a grpc-js client whose interceptor rewrites each EndorseResponse on
 * its way to the client, so the real peers' endorsements arrive changed — as a compromised gateway (or anything
 * between) could change them. It works for both clients: ours reads raw bytes, the official one google-protobuf
 * messages. The changes are made with @hyperledger/fabric-protos, independently of our codec.
 */
import { createHash, createPrivateKey } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { signers } from "@hyperledger/fabric-gateway";
import { common, gateway, ledger as rwsets, msp, peer } from "@hyperledger/fabric-protos";
import { targetCredentials } from "../../helpers/ledger-targets";
import type { TargetGateway, TargetIdentity } from "../../helpers/ledger-targets";

export type GatewayTamper = "endorsementSignature" | "chaincodeArgs" | "rwset" | "proposalHash";

/** Peer identities that re-sign endorsements (the proposalHash mode), by MSP id. */
export type Resigners = (mspId: string) => TargetIdentity;

const sha256 = (...parts: Uint8Array[]): Buffer => {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return hash.digest();
};

function resign(prp: Uint8Array, endorsements: peer.Endorsement[], resigners: Resigners): Promise<peer.Endorsement[]> {
  return Promise.all(
    endorsements.map(async (e) => {
      const mspId = msp.SerializedIdentity.deserializeBinary(e.getEndorser_asU8()).getMspid();
      const identity = resigners(mspId);
      const endorser = new msp.SerializedIdentity();
      endorser.setMspid(mspId);
      endorser.setIdBytes(Buffer.from(identity.certificatePem));
      const endorserBytes = endorser.serializeBinary();
      const sign = signers.newPrivateKeySigner(createPrivateKey(identity.privateKeyPem));
      const signed = new peer.Endorsement();
      signed.setEndorser(endorserBytes);
      signed.setSignature(await sign(sha256(prp, endorserBytes)));
      return signed;
    }),
  );
}

/** Which endorsement the `endorsementSignature` mode changes: that of the MSP id `endorser` (default the first). */
export interface TamperOptions {
  readonly endorser?: string;
}

const endorserMspId = (e: peer.Endorsement): string =>
  msp.SerializedIdentity.deserializeBinary(e.getEndorser_asU8()).getMspid();

/** The EndorseResponse `bytes` with its prepared transaction changed as `mode` says. */
export async function tamperEndorseResponse(
  bytes: Uint8Array,
  mode: GatewayTamper,
  resigners: Resigners,
  options: TamperOptions = {},
): Promise<Uint8Array> {
  const response = gateway.EndorseResponse.deserializeBinary(bytes);
  const envelope = response.getPreparedTransaction();
  if (envelope === undefined) return bytes;
  const payload = common.Payload.deserializeBinary(envelope.getPayload_asU8());
  const transaction = peer.Transaction.deserializeBinary(payload.getData_asU8());
  const action = transaction.getActionsList()[0];
  if (action === undefined) return bytes;
  const actionPayload = peer.ChaincodeActionPayload.deserializeBinary(action.getPayload_asU8());
  const endorsed = actionPayload.getAction();
  if (endorsed === undefined) return bytes;
  const prp = peer.ProposalResponsePayload.deserializeBinary(endorsed.getProposalResponsePayload_asU8());

  switch (mode) {
    case "endorsementSignature": {
      const list = endorsed.getEndorsementsList();
      const first = options.endorser === undefined ? list[0] : list.find((e) => endorserMspId(e) === options.endorser);
      const signature = Buffer.from(first?.getSignature_asU8() ?? []);
      signature[signature.length - 1] = (signature[signature.length - 1] ?? 0) ^ 0x01;
      first?.setSignature(signature);
      break;
    }
    case "chaincodeArgs": {
      const cpp = peer.ChaincodeProposalPayload.deserializeBinary(actionPayload.getChaincodeProposalPayload_asU8());
      const invocation = peer.ChaincodeInvocationSpec.deserializeBinary(cpp.getInput_asU8());
      const input = invocation.getChaincodeSpec()?.getInput();
      const args = input?.getArgsList_asU8() ?? [];
      input?.setArgsList([...args.slice(0, -1), Buffer.from("tampered-by-gateway")]);
      cpp.setInput(invocation.serializeBinary());
      actionPayload.setChaincodeProposalPayload(cpp.serializeBinary());
      break;
    }
    case "rwset": {
      const chaincodeAction = peer.ChaincodeAction.deserializeBinary(prp.getExtension_asU8());
      const set = rwsets.rwset.TxReadWriteSet.deserializeBinary(chaincodeAction.getResults_asU8());
      const namespace = set
        .getNsRwsetList()
        .find((ns) => ns.getNamespace() === chaincodeAction.getChaincodeId()?.getName());
      if (namespace !== undefined) {
        const kv = rwsets.rwset.kvrwset.KVRWSet.deserializeBinary(namespace.getRwset_asU8());
        const write = new rwsets.rwset.kvrwset.KVWrite();
        write.setKey("written-by-gateway");
        write.setValue(Buffer.from("x"));
        kv.addWrites(write);
        namespace.setRwset(kv.serializeBinary());
      }
      chaincodeAction.setResults(set.serializeBinary());
      prp.setExtension$(chaincodeAction.serializeBinary());
      endorsed.setProposalResponsePayload(prp.serializeBinary());
      break;
    }
    case "proposalHash": {
      prp.setProposalHash(sha256(Buffer.from("another proposal")));
      const prpBytes = prp.serializeBinary();
      endorsed.setProposalResponsePayload(prpBytes);
      endorsed.setEndorsementsList(await resign(prpBytes, endorsed.getEndorsementsList(), resigners));
      break;
    }
  }
  actionPayload.setAction(endorsed);
  action.setPayload(actionPayload.serializeBinary());
  payload.setData(transaction.serializeBinary());
  envelope.setPayload(payload.serializeBinary());
  response.setPreparedTransaction(envelope);
  return response.serializeBinary();
}

interface Serializable {
  serializeBinary(): Uint8Array;
}

/**
 * A grpc-js client to `target` whose EndorseResponses are changed by `mode` (when `mode()` returns one), of the
 * endorsement `which` names. `tampered` counts the responses changed.
 */
export function tamperingClient(
  target: TargetGateway,
  mode: () => GatewayTamper | undefined,
  resigners: Resigners,
  which: TamperOptions = {},
): { client: grpc.Client; tampered: () => number } {
  let count = 0;
  const interceptor: grpc.Interceptor = (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start: (metadata, _listener, next) => {
        next(metadata, {
          onReceiveMessage: (message: Uint8Array | Serializable, forward: (message: unknown) => void) => {
            const how = mode();
            if (options.method_definition.path !== "/gateway.Gateway/Endorse" || how === undefined) {
              forward(message);
              return;
            }
            const raw = message instanceof Uint8Array ? message : message.serializeBinary();
            void tamperEndorseResponse(raw, how, resigners, which).then((changed) => {
              count++;
              forward(message instanceof Uint8Array ? changed : gateway.EndorseResponse.deserializeBinary(changed));
            });
          },
        });
      },
    });
  const client = new grpc.Client(target.address, targetCredentials(target), {
    interceptors: [interceptor],
    ...(target.serverNameOverride === undefined ? {} : { "grpc.ssl_target_name_override": target.serverNameOverride }),
  });
  return { client, tampered: () => count };
}
