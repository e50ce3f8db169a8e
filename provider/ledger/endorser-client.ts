/**
 * A client of one peer's Endorser service (`/protos.Endorser/ProcessProposal`): a signed proposal to any chaincode,
 * system ones included, answered by that peer alone — what the peer CLI sends for _lifecycle's InstallChaincode and
 * QueryInstalledChaincodes, or cscc's JoinChain, which no gateway forwards. The connection and TLS settings are the
 * gateway's (gateway-grpc-client.ts), the proposal is buildProposal's, the signing the Gateway's (a Signer over the
 * hash, low-S; offline signing through getBytes()/getDigest()).
 *
 *     const peer = connectEndorser({ address: "127.0.0.1:7051", tls, identity: admin, signer });
 *     const { payload } = await peer.processProposal({ chaincodeName: "_lifecycle",
 *       functionName: "QueryInstalledChaincodes", args: [codecs.QueryInstalledChaincodesArgs.encode({})] });
 *     peer.close();
 *
 * A response status of 400 or more (Fabric's error threshold: a refused ACL, a chaincode error) rejects with
 * EndorserError, as does a failed call. Nothing here is ordered: a proposal to a channel's chaincode is only endorsed.
 */
import * as grpc from "@grpc/grpc-js";
import { codecs } from "./codec";
import { EndorserError } from "../errors/ledger/endorser-error";
import type { ConnectOptions } from "./gateway-client";
import { newGatewayGrpcClient } from "./gateway-grpc-client";
import { sign } from "./gateway-objects";
import type { Signable, SigningContext } from "./gateway-objects";
import { serviceErrorProperties, unaryBytes } from "./grpc-transport";
import type { Identity } from "./identity";
import type { ProposalResponse } from "./messages";
import { buildProposal, parseProposal } from "./proposal";
import type { BuiltProposal, ProposalOptions } from "./proposal";
import { resolveSigning } from "./signing-hash";

export const ENDORSER_PROCESS_PROPOSAL = "/protos.Endorser/ProcessProposal";

/**
 * The deadline of one ProcessProposal call. An install waits for the peer to build the package (quick for a
 * chaincode-as-a-service package, minutes for source the peer must compile: give such calls a longer deadline).
 */
export const DEFAULT_PROCESS_PROPOSAL_TIMEOUT_MS = 60_000;

/** Fabric's error threshold (shim.ERRORTHRESHOLD): a response status from 400 up is a failure. */
export const RESPONSE_ERROR_THRESHOLD = 400;

/**
 * The gateway's connection and signing settings (ConnectOptions: `address` or `client`, `tls`, the `identity`
 * proposals are signed as — a peer admin for _lifecycle installs and cscc joins —, `signer`, `hash`, `now`), and the
 * options of a ProcessProposal call.
 */
export interface EndorserConnectOptions extends Pick<
  ConnectOptions,
  "address" | "tls" | "client" | "identity" | "signer" | "hash" | "now"
> {
  /** @default a deadline DEFAULT_PROCESS_PROPOSAL_TIMEOUT_MS ahead */
  readonly processProposalOptions?: () => grpc.CallOptions;
}

/** A proposal as buildProposal takes it (the client supplies the identity and the clock). */
export interface EndorserProposalRequest extends Omit<
  ProposalOptions,
  "identity" | "now" | "channelId" | "channelless" | "visibility"
> {
  /** The channel; absent or empty for a proposal to the peer itself (_lifecycle installs, cscc JoinChain). */
  readonly channelId?: string;
}

/** What the peer answered. */
export interface EndorserResponse {
  readonly transactionId: string;
  /** The response status (200 for success). */
  readonly status: number;
  readonly message: string;
  /** The chaincode's response payload. */
  readonly payload: Uint8Array;
  /** The whole ProposalResponse: the peer's endorsement and the ProposalResponsePayload it signed. */
  readonly proposalResponse: ProposalResponse;
}

/** A built proposal: signable offline (getBytes() are the Proposal bytes the signature covers), then sent. */
export interface EndorserProposal extends Signable {
  /** Signs (unless a signature was supplied) and sends the proposal to the peer. */
  send(options?: grpc.CallOptions): Promise<EndorserResponse>;
}

export interface Endorser {
  /** The peer's "host:port" (as named in errors), or "(client)" for a caller's grpc-js Client. */
  readonly address: string;
  getIdentity(): Identity;
  /** Builds (does not send) a proposal. Throws ValidationError for bad input. */
  newProposal(request: EndorserProposalRequest): EndorserProposal;
  /** A proposal from its Proposal bytes (EndorserProposal.getBytes()) and an offline signature of its digest. */
  newSignedProposal(bytes: Uint8Array, signature: Uint8Array): EndorserProposal;
  /** Builds, signs and sends a proposal: newProposal(request).send(options). */
  processProposal(request: EndorserProposalRequest, options?: grpc.CallOptions): Promise<EndorserResponse>;
  /** Closes the gRPC connection when it was opened by connectEndorser(). */
  close(): void;
}

interface EndorserContext {
  readonly client: grpc.Client;
  readonly address: string;
  readonly signing: SigningContext;
  readonly callOptions: () => grpc.CallOptions;
}

/** The chaincode and function a proposal names, for messages. */
function invocationOf(built: BuiltProposal): { chaincodeName: string; functionName: string } {
  const payload = codecs.ChaincodeProposalPayload.decode(built.payload);
  const spec = codecs.ChaincodeInvocationSpec.decode(payload.input).chaincodeSpec;
  const fn = spec?.input?.args[0];
  return {
    chaincodeName: spec?.chaincodeId?.name ?? built.chaincodeName,
    functionName: fn === undefined ? "" : Buffer.from(fn).toString("utf8"),
  };
}

class EndorserProposalImpl implements EndorserProposal {
  // ES private fields: util.inspect never shows them (the payload can hold transient data).
  readonly #context: EndorserContext;
  readonly #built: BuiltProposal;
  #signature: Uint8Array;

  constructor(context: EndorserContext, built: BuiltProposal, signature?: Uint8Array) {
    this.#context = context;
    this.#built = built;
    this.#signature = signature ?? new Uint8Array(0);
  }

  getTransactionId(): string {
    return this.#built.txId;
  }

  getBytes(): Uint8Array {
    return this.#built.proposalBytes;
  }

  getDigest(): Uint8Array {
    return this.#context.signing.hash(this.#built.proposalBytes);
  }

  async send(options?: grpc.CallOptions): Promise<EndorserResponse> {
    if (this.#signature.length === 0)
      this.#signature = await sign(this.#context.signing, this.#built.proposalBytes, "proposal");
    const transactionId = this.#built.txId;
    const { address } = this.#context;
    const request = codecs.SignedProposal.encode({
      proposalBytes: this.#built.proposalBytes,
      signature: this.#signature,
    });
    let answer: Uint8Array;
    try {
      answer = await unaryBytes(
        this.#context.client,
        ENDORSER_PROCESS_PROPOSAL,
        request,
        options ?? this.#context.callOptions(),
      );
    } catch (error) {
      const { code, details, message } = serviceErrorProperties(error, ENDORSER_PROCESS_PROPOSAL);
      throw new EndorserError({
        ...invocationOf(this.#built),
        address,
        method: ENDORSER_PROCESS_PROPOSAL,
        code,
        details,
        responseMessage: message,
        transactionId,
        cause: error,
      });
    }
    const proposalResponse = codecs.ProposalResponse.decode(answer, { path: "ProposalResponse", transactionId });
    const status = proposalResponse.response?.status ?? 0;
    const message = proposalResponse.response?.message ?? "";
    if (proposalResponse.response === undefined || status >= RESPONSE_ERROR_THRESHOLD) {
      throw new EndorserError({
        ...invocationOf(this.#built),
        address,
        method: ENDORSER_PROCESS_PROPOSAL,
        status,
        responseMessage: proposalResponse.response === undefined ? "no response in the ProposalResponse" : message,
        transactionId,
      });
    }
    return {
      transactionId,
      status,
      message,
      payload: proposalResponse.response.payload,
      proposalResponse,
    };
  }
}

class EndorserImpl implements Endorser {
  // ES private fields, and no reference to the options: util.inspect never shows the signer or a TLS key.
  readonly #context: EndorserContext;
  readonly #identity: Identity;
  readonly #now: () => Date;
  readonly #ownsClient: boolean;

  constructor(options: EndorserConnectOptions, signing: SigningContext) {
    this.#ownsClient = options.client === undefined;
    const client = options.client ?? newGatewayGrpcClient({ ...options, settings: "peer" });
    this.#identity = options.identity;
    this.#now = options.now ?? (() => new Date());
    this.#context = {
      client,
      address: options.address ?? "(client)",
      signing,
      callOptions:
        options.processProposalOptions ?? (() => ({ deadline: Date.now() + DEFAULT_PROCESS_PROPOSAL_TIMEOUT_MS })),
    };
  }

  get address(): string {
    return this.#context.address;
  }

  getIdentity(): Identity {
    return this.#identity;
  }

  newProposal(request: EndorserProposalRequest): EndorserProposal {
    const channelId = request.channelId ?? "";
    const built = buildProposal({
      ...request,
      identity: this.#identity,
      channelId,
      channelless: channelId === "",
      now: this.#now,
    });
    return new EndorserProposalImpl(this.#context, built);
  }

  newSignedProposal(bytes: Uint8Array, signature: Uint8Array): EndorserProposal {
    return new EndorserProposalImpl(this.#context, parseProposal(bytes), signature);
  }

  processProposal(request: EndorserProposalRequest, options?: grpc.CallOptions): Promise<EndorserResponse> {
    return this.newProposal(request).send(options);
  }

  close(): void {
    if (this.#ownsClient) this.#context.client.close();
  }
}

/**
 * Connects to one peer's Endorser service. Throws, before anything is sent, ConfigError for bad settings (the address,
 * TLS — named `peer.address`, `peer.tls` — or a hash the identity's key type cannot use) and IdentityError for a
 * certificate whose key Fabric does not accept.
 */
export function connectEndorser(options: EndorserConnectOptions): Endorser {
  return new EndorserImpl(options, resolveSigning(options));
}
