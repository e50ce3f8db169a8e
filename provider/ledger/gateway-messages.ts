/** TypeScript shapes of the orderer and gateway messages (see messages.ts for the conventions). */
import type { ChaincodeEvent, ChaincodeResponse, Envelope, SignedProposal } from "./messages";

// ---- orderer / gateway ----

export type EmptyMessage = Readonly<Record<string, never>>;

/** oneof Type: exactly one member. */
export interface SeekPosition {
  readonly newest?: EmptyMessage;
  readonly oldest?: EmptyMessage;
  readonly specified?: { readonly number: bigint };
  readonly nextCommit?: EmptyMessage;
}

export interface EndorseRequest {
  readonly transactionId: string;
  readonly channelId: string;
  readonly proposedTransaction?: SignedProposal;
  readonly endorsingOrganizations: readonly string[];
}

export interface EndorseResponse {
  /** Unsigned. */
  readonly preparedTransaction?: Envelope;
}

export interface SubmitRequest {
  readonly transactionId: string;
  readonly channelId: string;
  /** Signed. */
  readonly preparedTransaction?: Envelope;
}

export interface SignedCommitStatusRequest {
  /** Serialized CommitStatusRequest. */
  readonly request: Uint8Array;
  readonly signature: Uint8Array;
}

export interface CommitStatusRequest {
  readonly transactionId: string;
  readonly channelId: string;
  /** Serialized SerializedIdentity. */
  readonly identity: Uint8Array;
}

export interface CommitStatusResponse {
  /** A TxValidationCode number; absent on the wire means VALID (0). */
  readonly result: number;
  readonly blockNumber: bigint;
}

export interface EvaluateRequest {
  readonly transactionId: string;
  readonly channelId: string;
  readonly proposedTransaction?: SignedProposal;
  readonly targetOrganizations: readonly string[];
}

export interface EvaluateResponse {
  readonly result?: ChaincodeResponse;
}

export interface SignedChaincodeEventsRequest {
  readonly request: Uint8Array;
  readonly signature: Uint8Array;
}

export interface ChaincodeEventsRequest {
  readonly channelId: string;
  readonly chaincodeId: string;
  readonly identity: Uint8Array;
  readonly startPosition?: SeekPosition;
  readonly afterTransactionId: string;
}

export interface ChaincodeEventsResponse {
  readonly events: readonly ChaincodeEvent[];
  readonly blockNumber: bigint;
}

/** One failing endorser or orderer, from google.rpc.Status.details (declared with the GatewayError that carries it). */
export type { ErrorDetail } from "../errors/ledger/gateway-error";

/** Offline signing only: the serialized form of a proposal awaiting a signature. */
export interface ProposedTransaction {
  readonly transactionId: string;
  readonly proposal?: SignedProposal;
  readonly endorsingOrganizations: readonly string[];
}

/** Offline signing only: the serialized form of an endorsed transaction awaiting a signature. */
export interface PreparedTransaction {
  readonly transactionId: string;
  readonly envelope?: Envelope;
}
