/**
 * The offline-signable steps of a transaction, in the official client's shape: Proposal → (endorse, verify)
 * Transaction → (submit) Commit. Each exposes getBytes()/getDigest() and signs only if no signature was supplied.
 * Implementation classes are not exported; gateway-client.ts creates them.
 */
import type * as grpc from "@grpc/grpc-js";
import type { TrustedMsp } from "./cert-chain";
import { codecs } from "./codec";
import type { Hash } from "./hash";
import type { Identity } from "./identity";
import type { KeyType } from "./key-types";
import { LedgerError } from "../errors/ledger/ledger-error";
import type { Envelope } from "./messages";
import type { BuiltProposal } from "./proposal";
import { unaryCall } from "./grpc-transport";
import { normalizeLowS } from "./signing";
import type { MessageSigner, Signer } from "./signing";
import { validationCodeName } from "../errors/ledger/validation-codes";
import { verifyPreparedTransaction } from "./verify";
import type { VerificationReport } from "./verify";

/** The result of CommitStatus. */
export interface CommitStatus {
  readonly transactionId: string;
  /** The TxValidationCode number. */
  readonly code: number;
  /** Its name, or UNKNOWN(n). */
  readonly codeName: string;
  readonly successful: boolean;
  readonly blockNumber: bigint;
}

export interface Signable {
  getTransactionId(): string;
  /** The serialized form to hand to an offline signer or to keep. */
  getBytes(): Uint8Array;
  /** hash(the bytes that are signed): what a Signer signs. */
  getDigest(): Uint8Array;
}

/**
 * Options of one gRPC call (a deadline, say), as the official client's step methods take them; without them the
 * gateway's options supplier for that kind of call applies.
 */
export type StepCallOptions = grpc.CallOptions;

export interface Proposal extends Signable {
  /** Evaluates (query, no commit) and returns the chaincode response payload. */
  evaluate(options?: StepCallOptions): Promise<Uint8Array>;
  /** Endorses, then verifies the prepared transaction before anything signs it (verify-before-sign). */
  endorse(options?: StepCallOptions): Promise<Transaction>;
}

export interface Transaction extends Signable {
  /** The chaincode response payload. */
  getResult(): Uint8Array;
  /** The verify-before-sign report; absent for a transaction rebuilt from bytes (verified where it was endorsed). */
  getVerification(): VerificationReport | undefined;
  /**
   * Sends the signed transaction to the orderers through the gateway. Calling it again sends the same signed envelope
   * (the same txId): Fabric commits at most one transaction per txId as VALID, a repeat becomes DUPLICATE_TXID.
   */
  submit(options?: StepCallOptions): Promise<Commit>;
}

export interface Commit extends Signable {
  /** Waits for the gateway peer to commit the transaction (up to the call's deadline) and returns its status. */
  getStatus(options?: StepCallOptions): Promise<CommitStatus>;
}

/** How a client signs: its signer and the hash it is given, resolved once (connect(), connectEndorser()). */
export interface SigningContext {
  readonly signer: Signer | undefined;
  /**
   * The signer's message fast path (newPrivateKeySigner) when `hash` is a known Node hash (`messageHashAlgorithm`);
   * undefined otherwise, and then the Signer gets hash(message).
   */
  readonly messageSigner: MessageSigner | undefined;
  /** The Node name of `hash` for `messageSigner`. */
  readonly messageHashAlgorithm: string;
  readonly hash: Hash;
  /** The key type of the identity's certificate: how signatures are normalized (low-S per curve, or Ed25519). */
  readonly keyType: KeyType;
}

/** What the step objects share: the transport seam, the signing identity and the resolved options. */
export interface GatewayContext extends SigningContext {
  readonly client: grpc.Client;
  readonly identity: Identity;
  readonly creator: Uint8Array;
  readonly hashAlgorithm: string;
  readonly trustedMsps: readonly TrustedMsp[];
  readonly now: () => Date;
  readonly callOptions: (
    kind: "evaluate" | "endorse" | "submit" | "commitStatus" | "chaincodeEvents",
  ) => grpc.CallOptions;
}

/** Signs `message` with the gateway's signer (fast path or hash + Signer, low-S); rejects without a signer. */
export async function sign(context: SigningContext, message: Uint8Array, what: string): Promise<Uint8Array> {
  if (context.signer === undefined) {
    throw new LedgerError({
      message: `No signer configured to sign the ${what}: sign getDigest() offline and use the gateway's newSigned...() with the signature`,
    });
  }
  if (context.messageSigner !== undefined) return context.messageSigner(message, context.messageHashAlgorithm);
  return normalizeLowS(await context.signer(context.hash(message)), context.keyType);
}

export interface ProposalParts {
  readonly built: BuiltProposal;
  readonly endorsingOrganizations: readonly string[];
  readonly targetOrganizations: readonly string[];
  readonly signature?: Uint8Array;
}

class ProposalImpl implements Proposal {
  // ES private fields: util.inspect/console.log never show them (the payload can hold transient data).
  readonly #context: GatewayContext;
  readonly #parts: ProposalParts;
  #signature: Uint8Array;

  constructor(context: GatewayContext, parts: ProposalParts) {
    this.#context = context;
    this.#parts = parts;
    this.#signature = parts.signature ?? new Uint8Array(0);
  }

  getTransactionId(): string {
    return this.#parts.built.txId;
  }

  getBytes(): Uint8Array {
    return codecs.ProposedTransaction.encode({
      transactionId: this.#parts.built.txId,
      proposal: { proposalBytes: this.#parts.built.proposalBytes, signature: this.#signature },
      endorsingOrganizations: this.#parts.endorsingOrganizations,
    });
  }

  getDigest(): Uint8Array {
    return this.#context.hash(this.#parts.built.proposalBytes);
  }

  private async signedProposal() {
    if (this.#signature.length === 0)
      this.#signature = await sign(this.#context, this.#parts.built.proposalBytes, "proposal");
    return { proposalBytes: this.#parts.built.proposalBytes, signature: this.#signature };
  }

  async evaluate(options?: StepCallOptions): Promise<Uint8Array> {
    const built = this.#parts.built;
    const response = await unaryCall(
      this.#context.client,
      "evaluate",
      {
        transactionId: built.txId,
        channelId: built.channelId,
        proposedTransaction: await this.signedProposal(),
        targetOrganizations: this.#parts.targetOrganizations,
      },
      codecs.EvaluateRequest,
      codecs.EvaluateResponse,
      options ?? this.#context.callOptions("evaluate"),
      built.txId,
    );
    return response.result?.payload ?? new Uint8Array(0);
  }

  async endorse(options?: StepCallOptions): Promise<Transaction> {
    const built = this.#parts.built;
    const response = await unaryCall(
      this.#context.client,
      "endorse",
      {
        transactionId: built.txId,
        channelId: built.channelId,
        proposedTransaction: await this.signedProposal(),
        endorsingOrganizations: this.#parts.endorsingOrganizations,
      },
      codecs.EndorseRequest,
      codecs.EndorseResponse,
      options ?? this.#context.callOptions("endorse"),
      built.txId,
    );
    const envelope = response.preparedTransaction ?? { payload: new Uint8Array(0), signature: new Uint8Array(0) };
    const report = await verifyPreparedTransaction(
      built,
      { payload: envelope.payload, signature: new Uint8Array(0) },
      {
        trustedMsps: this.#context.trustedMsps,
        now: this.#context.now,
        hashAlgorithm: this.#context.hashAlgorithm,
        requiredOrganizations: this.#parts.endorsingOrganizations,
      },
    );
    return new TransactionImpl(this.#context, {
      transactionId: built.txId,
      channelId: built.channelId,
      payload: envelope.payload,
      result: report.response.payload,
      verification: report,
    });
  }
}

export interface TransactionParts {
  readonly transactionId: string;
  readonly channelId: string;
  readonly payload: Uint8Array;
  readonly result: Uint8Array;
  readonly verification?: VerificationReport;
  readonly signature?: Uint8Array;
}

class TransactionImpl implements Transaction {
  // ES private fields: util.inspect/console.log never show them (the payload can hold transient data).
  readonly #context: GatewayContext;
  readonly #parts: TransactionParts;
  #signature: Uint8Array;

  constructor(context: GatewayContext, parts: TransactionParts) {
    this.#context = context;
    this.#parts = parts;
    this.#signature = parts.signature ?? new Uint8Array(0);
  }

  getTransactionId(): string {
    return this.#parts.transactionId;
  }

  private envelope(): Envelope {
    return { payload: this.#parts.payload, signature: this.#signature };
  }

  getBytes(): Uint8Array {
    return codecs.PreparedTransaction.encode({ transactionId: this.#parts.transactionId, envelope: this.envelope() });
  }

  getDigest(): Uint8Array {
    return this.#context.hash(this.#parts.payload);
  }

  getResult(): Uint8Array {
    return this.#parts.result;
  }

  getVerification(): VerificationReport | undefined {
    return this.#parts.verification;
  }

  async submit(options?: StepCallOptions): Promise<Commit> {
    if (this.#signature.length === 0) this.#signature = await sign(this.#context, this.#parts.payload, "transaction");
    const { transactionId, channelId } = this.#parts;
    await unaryCall(
      this.#context.client,
      "submit",
      { transactionId, channelId, preparedTransaction: this.envelope() },
      codecs.SubmitRequest,
      codecs.SubmitResponse,
      options ?? this.#context.callOptions("submit"),
      transactionId,
    );
    return newCommit(this.#context, { transactionId, channelId });
  }
}

export interface CommitParts {
  readonly transactionId: string;
  readonly channelId: string;
  /** A serialized CommitStatusRequest signed elsewhere (offline signing). */
  readonly request?: Uint8Array;
  readonly signature?: Uint8Array;
}

class CommitImpl implements Commit {
  // ES private fields: util.inspect/console.log never show them (the payload can hold transient data).
  readonly #context: GatewayContext;
  readonly #parts: CommitParts;
  #signature: Uint8Array;
  readonly #request: Uint8Array;

  constructor(context: GatewayContext, parts: CommitParts) {
    this.#context = context;
    this.#parts = parts;
    this.#signature = parts.signature ?? new Uint8Array(0);
    this.#request =
      parts.request ??
      codecs.CommitStatusRequest.encode({
        transactionId: parts.transactionId,
        channelId: parts.channelId,
        identity: context.creator,
      });
  }

  getTransactionId(): string {
    return this.#parts.transactionId;
  }

  getBytes(): Uint8Array {
    return codecs.SignedCommitStatusRequest.encode({ request: this.#request, signature: this.#signature });
  }

  getDigest(): Uint8Array {
    return this.#context.hash(this.#request);
  }

  async getStatus(options?: StepCallOptions): Promise<CommitStatus> {
    if (this.#signature.length === 0)
      this.#signature = await sign(this.#context, this.#request, "commit status request");
    const id = this.#parts.transactionId;
    const response = await unaryCall(
      this.#context.client,
      "commitStatus",
      { request: this.#request, signature: this.#signature },
      codecs.SignedCommitStatusRequest,
      codecs.CommitStatusResponse,
      options ?? this.#context.callOptions("commitStatus"),
      id,
    );
    return {
      transactionId: id,
      code: response.result,
      codeName: validationCodeName(response.result),
      successful: response.result === 0,
      blockNumber: response.blockNumber,
    };
  }
}

export function newProposal(context: GatewayContext, parts: ProposalParts): Proposal {
  return new ProposalImpl(context, parts);
}

export function newTransaction(context: GatewayContext, parts: TransactionParts): Transaction {
  return new TransactionImpl(context, parts);
}

export function newCommit(context: GatewayContext, parts: CommitParts): Commit {
  return new CommitImpl(context, parts);
}
