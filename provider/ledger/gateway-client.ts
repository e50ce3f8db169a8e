/**
 * A Fabric Gateway client over @grpc/grpc-js with our protobufjs codec:
 * Endorse → verify-before-sign → sign → Submit → CommitStatus; Evaluate; ChaincodeEvents; qscc GetTransactionByID.
 *
 *     const gateway = connect({ address: "127.0.0.1:7051", identity, signer, trustedMsps });
 *     const { result, status } = await gateway.submitTransaction({ channelId, chaincodeName, functionName, args });
 *     gateway.close();
 */
import * as grpc from "@grpc/grpc-js";
import { ValidationError } from "../errors/validation-error";
import type { TrustedMsp } from "./cert-chain";
import { newChaincodeEventsRequest, newSignedChaincodeEventsRequest } from "./chaincode-events";
import type {
  ChaincodeEvent,
  ChaincodeEventsOptions,
  ChaincodeEventsRequest,
  CloseableAsyncIterable,
  GetEventsOptions,
} from "./chaincode-events";
import { codecs } from "./codec";
import { CommitError } from "../errors/ledger/commit-error";
import { GatewayError } from "../errors/ledger/gateway-error";
import { newGatewayGrpcClient } from "./gateway-grpc-client";
import type { GatewayTlsOptions } from "./gateway-grpc-client";
import { newCommit, newProposal, newTransaction } from "./gateway-objects";
import type { Commit, CommitStatus, GatewayContext, Proposal, Transaction } from "./gateway-objects";
import type { Hash } from "./hash";
import type { Identity } from "./identity";
import { serializeIdentity } from "./identity";
import type { ProcessedTransaction } from "./messages";
import { buildProposal, DEFAULT_VISIBILITY, parseProposal } from "./proposal";
import type { ProposalOptions, Visibility } from "./proposal";
import type { Signer } from "./signing";
import { resolveSigning } from "./signing-hash";
import { unwrap } from "./unwrap";
import type { VerificationReport } from "./verify";

export const DEFAULT_EVALUATE_TIMEOUT_MS = 5_000;
export const DEFAULT_ENDORSE_TIMEOUT_MS = 15_000;
export const DEFAULT_SUBMIT_TIMEOUT_MS = 5_000;
export const DEFAULT_COMMIT_STATUS_TIMEOUT_MS = 60_000;

/** Supplies the options (typically a fresh deadline) of one gRPC call. */
export type CallOptionsSupplier = () => grpc.CallOptions;

export interface ConnectOptions {
  /** "host:port" of the gateway peer. Required unless `client` is given. */
  readonly address?: string;
  /** TLS settings; when absent the connection is insecure, which is allowed only for loopback addresses. */
  readonly tls?: GatewayTlsOptions;
  /** An existing grpc-js Client to use instead of `address`/`tls` (not closed by `close()`). */
  readonly client?: grpc.Client;
  /** The client identity (MSP id and PEM certificate). */
  readonly identity: Identity;
  /** Signs digests; without it, only offline signing (getDigest() + newSigned...()) works. */
  readonly signer?: Signer;
  /**
   * What the Signer is given of each message: `sha256` for ECDSA identities (Fabric verifies ECDSA over SHA-256
   * whatever the curve), `none` (the message itself) for Ed25519 ones. connect() refuses an Ed25519 identity with any
   * other hash and an ECDSA one with `none`, before anything is sent.
   * @default sha256, or none for an Ed25519 identity
   */
  readonly hash?: Hash;
  /**
   * Node name of `hash`, used to verify endorsement signatures.
   * @default "sha256"
   */
  readonly hashAlgorithm?: string;
  /** Trusted MSP roots for verify-before-sign: every endorser must chain to one. */
  readonly trustedMsps: readonly TrustedMsp[];
  /**
   * Visibility modes the gateway is declared to support. Real Fabric peers support only "full".
   * @default ["full"]
   */
  readonly supportedVisibility?: readonly Visibility[];
  /** @default () => new Date() */
  readonly now?: () => Date;
  /** @default a deadline DEFAULT_EVALUATE_TIMEOUT_MS ahead */
  readonly evaluateOptions?: CallOptionsSupplier;
  /** @default a deadline DEFAULT_ENDORSE_TIMEOUT_MS ahead */
  readonly endorseOptions?: CallOptionsSupplier;
  /** @default a deadline DEFAULT_SUBMIT_TIMEOUT_MS ahead */
  readonly submitOptions?: CallOptionsSupplier;
  /** @default a deadline DEFAULT_COMMIT_STATUS_TIMEOUT_MS ahead */
  readonly commitStatusOptions?: CallOptionsSupplier;
  /** @default no deadline: the stream stays open until it is closed or aborted */
  readonly chaincodeEventsOptions?: CallOptionsSupplier;
}

/** A proposal as buildProposal takes it (the gateway supplies the identity and the clock), and where to send it. */
export interface ProposalRequest extends Omit<ProposalOptions, "identity" | "now" | "chaincodeType"> {
  /** MSP ids that must endorse (each must then have a valid endorsement). */
  readonly endorsingOrganizations?: readonly string[];
  /** MSP ids to evaluate on. */
  readonly targetOrganizations?: readonly string[];
}

export interface SubmitResult {
  readonly transactionId: string;
  /** The chaincode response payload from the verified endorsement. */
  readonly result: Uint8Array;
  readonly status: CommitStatus;
  readonly verification: VerificationReport | undefined;
}

export interface Gateway {
  getIdentity(): Identity;
  /** Builds (does not send) a proposal. Throws ValidationError for bad input or an unsupported visibility. */
  newProposal(request: ProposalRequest): Proposal;
  /** A proposal from ProposedTransaction bytes (Proposal.getBytes()) and an offline signature of its digest. */
  newSignedProposal(bytes: Uint8Array, signature: Uint8Array): Proposal;
  /** A transaction from PreparedTransaction bytes (Transaction.getBytes()) and an offline signature. */
  newSignedTransaction(bytes: Uint8Array, signature: Uint8Array): Transaction;
  /** A commit-status request from SignedCommitStatusRequest bytes (Commit.getBytes()) and an offline signature. */
  newSignedCommit(bytes: Uint8Array, signature: Uint8Array): Commit;
  /** Endorse → verify → sign → Submit → CommitStatus. Rejects with CommitError unless the code is VALID. */
  submitTransaction(request: ProposalRequest): Promise<SubmitResult>;
  /** Evaluate; returns the chaincode response payload. */
  evaluateTransaction(request: ProposalRequest, options?: grpc.CallOptions): Promise<Uint8Array>;
  /** The signed CommitStatus of a transaction id (waits until it commits, up to the call deadline). */
  getCommitStatus(channelId: string, transactionId: string, options?: grpc.CallOptions): Promise<CommitStatus>;
  /**
   * The events of a chaincode's valid transactions, from `options.startBlock`, a checkpoint, or the next block
   * committed: an async iterable to close when done (see chaincode-events.ts). Throws ValidationError for bad input.
   */
  getChaincodeEvents(
    channelId: string,
    chaincodeName: string,
    options?: ChaincodeEventsOptions & GetEventsOptions,
  ): Promise<CloseableAsyncIterable<ChaincodeEvent>>;
  /** Builds (does not send) a chaincode events request, for offline signing. */
  newChaincodeEventsRequest(
    channelId: string,
    chaincodeName: string,
    options?: ChaincodeEventsOptions,
  ): ChaincodeEventsRequest;
  /** A chaincode events request from its bytes (ChaincodeEventsRequest.getBytes()) and an offline signature. */
  newSignedChaincodeEventsRequest(bytes: Uint8Array, signature: Uint8Array): ChaincodeEventsRequest;
  /** qscc GetTransactionByID: the committed transaction and its validation code. */
  getTransactionById(
    channelId: string,
    transactionId: string,
    options?: grpc.CallOptions,
  ): Promise<ProcessedTransaction>;
  /** Closes the gRPC connection when it was opened by connect(). */
  close(): void;
}

function createClient(options: ConnectOptions): grpc.Client {
  return options.client ?? newGatewayGrpcClient(options);
}

const DEFAULT_TIMEOUTS_MS = {
  evaluate: DEFAULT_EVALUATE_TIMEOUT_MS,
  endorse: DEFAULT_ENDORSE_TIMEOUT_MS,
  submit: DEFAULT_SUBMIT_TIMEOUT_MS,
  commitStatus: DEFAULT_COMMIT_STATUS_TIMEOUT_MS,
} as const;

class GatewayImpl implements Gateway {
  // ES private fields, and no reference to the options: util.inspect never shows the signer or a TLS key.
  readonly #context: GatewayContext;
  readonly #supportedVisibility: readonly Visibility[];
  readonly #ownsClient: boolean;

  constructor(options: ConnectOptions, ownsClient: boolean, client: grpc.Client) {
    this.#ownsClient = ownsClient;
    const suppliers = {
      evaluate: options.evaluateOptions,
      endorse: options.endorseOptions,
      submit: options.submitOptions,
      commitStatus: options.commitStatusOptions,
      chaincodeEvents: options.chaincodeEventsOptions,
    };
    this.#supportedVisibility = options.supportedVisibility ?? [DEFAULT_VISIBILITY];
    this.#context = {
      ...resolveSigning(options),
      client,
      identity: options.identity,
      creator: serializeIdentity(options.identity),
      hashAlgorithm: options.hashAlgorithm ?? "sha256",
      trustedMsps: options.trustedMsps,
      now: options.now ?? (() => new Date()),
      callOptions: (kind) =>
        suppliers[kind]?.() ?? (kind === "chaincodeEvents" ? {} : { deadline: Date.now() + DEFAULT_TIMEOUTS_MS[kind] }),
    };
  }

  getIdentity(): Identity {
    return this.#context.identity;
  }

  newProposal(request: ProposalRequest): Proposal {
    const visibility = request.visibility ?? DEFAULT_VISIBILITY;
    if (!this.#supportedVisibility.includes(visibility)) {
      throw new ValidationError({
        subject: "Proposal",
        failures: [
          {
            property: "visibility",
            reason: `'${visibility}' requires a gateway declared to support it (supportedVisibility: ${this.#supportedVisibility.join(", ")}); real Fabric peers support only 'full'`,
          },
        ],
      });
    }
    const built = buildProposal({
      identity: this.#context.identity,
      channelId: request.channelId,
      chaincodeName: request.chaincodeName,
      functionName: request.functionName,
      visibility,
      now: this.#context.now,
      ...(request.contractName === undefined ? {} : { contractName: request.contractName }),
      ...(request.args === undefined ? {} : { args: request.args }),
      ...(request.transientData === undefined ? {} : { transientData: request.transientData }),
      ...(request.nonce === undefined ? {} : { nonce: request.nonce }),
    });
    return newProposal(this.#context, {
      built,
      endorsingOrganizations: request.endorsingOrganizations ?? [],
      targetOrganizations: request.targetOrganizations ?? [],
    });
  }

  newSignedProposal(bytes: Uint8Array, signature: Uint8Array): Proposal {
    const proposed = codecs.ProposedTransaction.decode(bytes);
    const built = parseProposal(proposed.proposal?.proposalBytes ?? new Uint8Array(0));
    return newProposal(this.#context, {
      built,
      endorsingOrganizations: proposed.endorsingOrganizations,
      targetOrganizations: [],
      signature,
    });
  }

  newSignedTransaction(bytes: Uint8Array, signature: Uint8Array): Transaction {
    const prepared = codecs.PreparedTransaction.decode(bytes);
    const payload = prepared.envelope?.payload ?? new Uint8Array(0);
    const unwrapped = unwrap(codecs.Envelope.encode({ payload }));
    return newTransaction(this.#context, {
      transactionId: prepared.transactionId,
      channelId: unwrapped.channelHeader.channelId,
      payload,
      result: unwrapped.chaincodeAction.response?.payload ?? new Uint8Array(0),
      signature,
    });
  }

  newSignedCommit(bytes: Uint8Array, signature: Uint8Array): Commit {
    const signed = codecs.SignedCommitStatusRequest.decode(bytes);
    const request = codecs.CommitStatusRequest.decode(signed.request);
    return newCommit(this.#context, {
      transactionId: request.transactionId,
      channelId: request.channelId,
      request: signed.request,
      signature,
    });
  }

  async submitTransaction(request: ProposalRequest): Promise<SubmitResult> {
    const transaction = await this.newProposal(request).endorse();
    const status = await (await transaction.submit()).getStatus();
    if (!status.successful) {
      throw new CommitError({
        transactionId: status.transactionId,
        validationCode: status.code,
        blockNumber: status.blockNumber,
      });
    }
    return {
      transactionId: transaction.getTransactionId(),
      result: transaction.getResult(),
      status,
      verification: transaction.getVerification(),
    };
  }

  evaluateTransaction(request: ProposalRequest, options?: grpc.CallOptions): Promise<Uint8Array> {
    return this.newProposal(request).evaluate(options);
  }

  getCommitStatus(channelId: string, transactionId: string, options?: grpc.CallOptions): Promise<CommitStatus> {
    return newCommit(this.#context, { transactionId, channelId }).getStatus(options);
  }

  async getChaincodeEvents(
    channelId: string,
    chaincodeName: string,
    options: ChaincodeEventsOptions & GetEventsOptions = {},
  ): Promise<CloseableAsyncIterable<ChaincodeEvent>> {
    const { signal, callOptions, ...start } = options;
    return await this.newChaincodeEventsRequest(channelId, chaincodeName, start).getEvents({
      ...(signal === undefined ? {} : { signal }),
      ...(callOptions === undefined ? {} : { callOptions }),
    });
  }

  newChaincodeEventsRequest(
    channelId: string,
    chaincodeName: string,
    options: ChaincodeEventsOptions = {},
  ): ChaincodeEventsRequest {
    return newChaincodeEventsRequest(this.#context, channelId, chaincodeName, options);
  }

  newSignedChaincodeEventsRequest(bytes: Uint8Array, signature: Uint8Array): ChaincodeEventsRequest {
    return newSignedChaincodeEventsRequest(this.#context, bytes, signature);
  }

  async getTransactionById(
    channelId: string,
    transactionId: string,
    options?: grpc.CallOptions,
  ): Promise<ProcessedTransaction> {
    const payload = await this.evaluateTransaction(
      { channelId, chaincodeName: "qscc", functionName: "GetTransactionByID", args: [channelId, transactionId] },
      options,
    );
    return codecs.ProcessedTransaction.decode(payload, { transactionId });
  }

  close(): void {
    if (this.#ownsClient) this.#context.client.close();
  }
}

/**
 * Connects to a gateway peer. Throws, before anything is sent, ConfigError for bad settings (address, TLS, a hash
 * the identity's key type cannot use) and IdentityError for a certificate whose key Fabric does not accept.
 */
export function connect(options: ConnectOptions): Gateway {
  resolveSigning(options);
  const client = createClient(options);
  return new GatewayImpl(options, options.client === undefined, client);
}

/** Whether an error is qscc's "no such transaction ID" (the transaction is not in the ledger). */
export function isTransactionNotFound(error: unknown): boolean {
  if (!(error instanceof GatewayError)) return false;
  return [error.message, ...error.details.map((d) => d.message)].some((t) => t.includes("no such transaction ID"));
}
