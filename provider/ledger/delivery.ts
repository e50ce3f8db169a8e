/**
 * Getting one signed transaction committed through faults of a Fabric network, never twice (used by
 * ledger-transaction-submit.ts):
 *
 * - A gateway that does not answer, or cannot reach the endorsing peers or the orderers for a moment (a peer
 *   restarting, a Raft leader election), is tried again for up to `graceMs` before the step fails with an error that
 *   says what is down, whether anything was submitted, and what to do.
 * - Submit is repeated with the same signed envelope, so the txId stays the same: Fabric commits at most one
 *   transaction per txId as VALID (a repeat that reaches a block is marked DUPLICATE_TXID and changes nothing).
 * - A transaction the orderers acknowledged can still be lost: kill -9 of the Raft leader drops the batch it had not
 *   yet cut (test/integration/fabric-network/faults-client.test.ts shows it on real Fabric). So when no commit status
 *   arrives within `resubmitAfterMs` the same envelope is submitted again (then after twice as long, up to
 *   MAX_RESUBMIT_AFTER_MS), until the step's deadline.
 * - A SmartBFT orderer answers an envelope whose txId it has already ordered with `SERVICE_UNAVAILABLE: request
 *   already processed` (Fabric's gateway then fails the Submit as UNAVAILABLE, naming each orderer's answer): the
 *   transaction was accepted, so that answer counts as a submission and the commit status decides.
 */
import { status as grpcStatus } from "@grpc/grpc-js";
import { GatewayError } from "../errors/ledger/gateway-error";
import { LedgerError } from "../errors/ledger/ledger-error";
import type { Commit, CommitStatus, Transaction } from "./gateway-objects";

/** How long a run of transient failures (a gateway, endorser or orderer not answering) is retried. */
export const DEFAULT_GATEWAY_GRACE_MS = 20_000;
/** How long to wait for a commit status before submitting the same signed transaction again (then 2x, 4x, ...). */
export const DEFAULT_RESUBMIT_AFTER_MS = 10_000;
export const MAX_RESUBMIT_AFTER_MS = 60_000;
/** The pause after a transient failure; it doubles on each failure in a row, up to MAX_RETRY_DELAY_MS. */
export const DEFAULT_RETRY_DELAY_MS = 250;
export const MAX_RETRY_DELAY_MS = 2_000;
/** The deadline of one Submit call (the gateway tries the orderers in turn within it). */
export const SUBMIT_CALL_TIMEOUT_MS = 5_000;
/** The deadline of one Evaluate or Endorse call. */
export const ENDORSE_CALL_TIMEOUT_MS = 15_000;

/** What a transient failure was: the gateway unreachable, an endorser unreachable, discovery, or no orderer. */
export type TransientKind = "gateway" | "endorsers" | "discovery" | "ordering";

export interface RetryClock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

const SYSTEM_CLOCK: RetryClock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface DeliveryOptions {
  /** "LedgerTransaction <name>": how messages name the resource. */
  readonly subject: string;
  /** The gateway's "host:port", named in messages. */
  readonly address: string;
  /** The step's deadline (epoch ms): nothing is retried past it. */
  readonly deadline: number;
  /** @default DEFAULT_GATEWAY_GRACE_MS */
  readonly graceMs?: number;
  /** @default DEFAULT_RESUBMIT_AFTER_MS */
  readonly resubmitAfterMs?: number;
  /** @default the system clock */
  readonly clock?: RetryClock;
  /** Progress: `lasting` messages (a resubmission) are diagnostics, the others the resource row's status. */
  readonly report?: (message: string, lasting: boolean) => void;
  /**
   * The commit status of the transaction's txId (Gateway.getCommitStatus): what is waited for when the orderers
   * already had the envelope before this step submitted it (a SmartBFT "request already processed").
   */
  readonly commitStatus?: Commit["getStatus"];
}

// The gRPC codes this module acts on, as the numbers GatewayError.code holds.
const CANCELLED: number = grpcStatus.CANCELLED;
const DEADLINE_EXCEEDED: number = grpcStatus.DEADLINE_EXCEEDED;
const FAILED_PRECONDITION: number = grpcStatus.FAILED_PRECONDITION;
const ABORTED: number = grpcStatus.ABORTED;
const UNAVAILABLE: number = grpcStatus.UNAVAILABLE;

/** The gRPC status name of a code ("UNAVAILABLE"). */
function codeName(code: number): string {
  return (grpcStatus as unknown as Record<number, string | undefined>)[code] ?? `gRPC ${String(code)}`;
}

/** The server's (or grpc-js's) words without our "/gateway.Gateway/X failed (gRPC n): " prefix and grpc-js noise. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof GatewayError)) return error instanceof Error ? error.message : String(error);
  const text = error.message
    .replace(/^\/gateway\.Gateway\/\w+ failed \(gRPC \d+\): /, "")
    .replace(/\s*Resolution note:\s*$/, "")
    .replace(/Last error: Error: /, "last error: ")
    .replace(/\.\s*$/, "");
  return `${codeName(error.code)}: ${text}`;
}

/**
 * Whether a failed call may succeed if tried again, and why it failed. `step` is the call: a lookup or endorsement
 * (nothing submitted), a submission, or a commit-status wait.
 */
export function transientKind(error: unknown, step: "endorse" | "submit" | "commitStatus"): TransientKind | undefined {
  if (!(error instanceof GatewayError)) return undefined;
  const text = error.message;
  // A TLS failure (an untrusted certificate, a wrong host name) is a setting to fix, not a peer that is down.
  if (/certificate|SSL|handshake|altnames/i.test(text)) return undefined;
  if (step === "submit") {
    // UNAVAILABLE: the gateway is down, or it found no orderer that accepted the envelope (no Raft leader);
    // DEADLINE_EXCEEDED / CANCELLED: the broadcast hung while the orderers elected a leader. ABORTED (an orderer's
    // 4xx, e.g. a policy refusal) and the rest are answers: trying again would get the same one.
    if (text.includes("No connection established") || text.includes("Connection dropped")) return "gateway";
    if ([UNAVAILABLE, DEADLINE_EXCEEDED, CANCELLED].includes(error.code)) return "ordering";
    return undefined;
  }
  if (error.code === UNAVAILABLE) return "gateway";
  if (step === "commitStatus") return undefined;
  // A gateway peer that just restarted has not yet discovered the other organizations' peers (about 4 s here).
  if (error.code === FAILED_PRECONDITION && text.includes("no combination of peers can be derived")) return "discovery";
  // An endorsing peer of another organization does not answer: every ErrorDetail says so.
  if (
    error.code === ABORTED &&
    error.details.length > 0 &&
    error.details.every((d) => /code = Unavailable|connection refused|connection error/i.test(d.message))
  )
    return "endorsers";
  return undefined;
}

const RERUN =
  "run `pulumi up` again: the re-run looks the txId up and adopts the transaction if it committed, or submits it " +
  "again (Fabric lets at most one transaction with a txId be VALID)";

/** The error that ends a run of transient failures: what is down, whether anything was submitted, what to do. */
function giveUpError(
  o: DeliveryOptions,
  kind: TransientKind,
  error: unknown,
  seconds: number,
  sent: string | undefined,
): LedgerError {
  const reason = reasonOf(error);
  const what = {
    gateway: `the gateway peer at ${o.address} did not answer for ${String(seconds)} s (${reason})`,
    endorsers: `the gateway at ${o.address} could not reach the endorsing peers it needs for ${String(seconds)} s (${reason})`,
    discovery:
      `the gateway at ${o.address} found no set of peers that satisfies the endorsement policy for ${String(seconds)} s ` +
      `(${reason}); a peer that just restarted needs a few seconds to find the others, otherwise check that each ` +
      "required organization's peer is up, joined to the channel and has the chaincode",
    ordering: `the orderers did not accept the transaction through the gateway at ${o.address} for ${String(seconds)} s (${reason})`,
  }[kind];
  const fix = {
    gateway: "start that peer or set gateway.address to a running gateway peer",
    endorsers: "start those peers",
    discovery: "fix the peers",
    ordering: "make sure the ordering service has a Raft leader (a majority of its orderers running)",
  }[kind];
  const message =
    sent === undefined
      ? `${o.subject}: ${what}. Nothing was submitted: ${fix}, then run \`pulumi up\` again`
      : `${o.subject}: transaction ${sent} was sent to the gateway, but ${what}, so its outcome is unknown. Once it ` +
        `answers (${fix}), ${RERUN}`;
  return new LedgerError({ message, transactionId: sent, cause: error });
}

/** Runs attempts of one step, retrying transient failures with backoff for up to the grace period. */
class Retrier {
  readonly #o: DeliveryOptions;
  readonly #clock: RetryClock;
  #streakStart: number | undefined;
  #delayMs = DEFAULT_RETRY_DELAY_MS;

  constructor(o: DeliveryOptions) {
    this.#o = o;
    this.#clock = o.clock ?? SYSTEM_CLOCK;
  }

  now(): number {
    return this.#clock.now();
  }

  /** A call deadline `ms` ahead, never past the step's. */
  callDeadline(ms: number): Date {
    return new Date(Math.min(this.now() + ms, this.#o.deadline));
  }

  async run<T>(
    step: "endorse" | "submit" | "commitStatus",
    attempt: () => Promise<T>,
    sent: () => string | undefined,
  ): Promise<T> {
    for (;;) {
      try {
        const result = await attempt();
        this.#streakStart = undefined;
        this.#delayMs = DEFAULT_RETRY_DELAY_MS;
        return result;
      } catch (error) {
        const kind = transientKind(error, step);
        if (kind === undefined) throw error;
        const now = this.now();
        this.#streakStart ??= now;
        const graceEnd = Math.min(this.#streakStart + (this.#o.graceMs ?? DEFAULT_GATEWAY_GRACE_MS), this.#o.deadline);
        if (now + this.#delayMs > graceEnd) {
          throw giveUpError(this.#o, kind, error, Math.round((now - this.#streakStart) / 1000), sent());
        }
        this.#o.report?.(`gateway ${this.#o.address}: ${reasonOf(error)}; trying again`, false);
        await this.#clock.sleep(this.#delayMs);
        this.#delayMs = Math.min(this.#delayMs * 2, MAX_RETRY_DELAY_MS);
      }
    }
  }
}

/**
 * Runs a call that changes nothing on the ledger (a qscc lookup, an endorsement), retrying transient failures.
 * `sent` names the transaction already sent when the call comes after a submission (for the message).
 */
export function withRetries<T>(
  o: DeliveryOptions,
  sent: string | undefined,
  call: (options: { deadline: Date }) => Promise<T>,
): Promise<T> {
  const retrier = new Retrier(o);
  return retrier.run(
    "endorse",
    () => call({ deadline: retrier.callDeadline(ENDORSE_CALL_TIMEOUT_MS) }),
    () => sent,
  );
}

/** The outcome of deliver(): the commit status and how many times the envelope was submitted. */
export interface Delivery {
  readonly status: CommitStatus;
  readonly submissions: number;
}

/**
 * Whether a Submit was refused because the orderers already have a transaction with this txId: a SmartBFT orderer's
 * `SERVICE_UNAVAILABLE: request already processed` (fabric.md: a resubmitted, already ordered envelope), in the
 * gateway's message or one of its ErrorDetails.
 */
export function isAlreadyOrdered(error: unknown): boolean {
  return (
    error instanceof GatewayError &&
    [error.message, ...error.details.map((d) => d.message)].some((t) => t.includes("request already processed"))
  );
}

function isWaitExpired(error: unknown): boolean {
  return error instanceof GatewayError && (error.code === DEADLINE_EXCEEDED || error.code === CANCELLED);
}

/**
 * Submits an endorsed, verified transaction and waits for its commit status, resubmitting the same signed envelope
 * when the status does not come (see the module comment). Rejects with a LedgerError that says whether the
 * transaction was submitted and how to finish; a non-transient gateway error is rethrown as it is.
 */
export async function deliver(transaction: Transaction, o: DeliveryOptions): Promise<Delivery> {
  const txId = transaction.getTransactionId();
  const retrier = new Retrier(o);
  let submissions = 0;
  // Whether the envelope may have reached the gateway: every attempt but one that never connected.
  let sent = false;
  const sentTxId = (): string | undefined => (sent ? txId : undefined);
  let resubmitAfterMs = o.resubmitAfterMs ?? DEFAULT_RESUBMIT_AFTER_MS;
  let commit: Pick<Commit, "getStatus"> | undefined;
  for (;;) {
    commit = await retrier.run(
      "submit",
      async (): Promise<Pick<Commit, "getStatus">> => {
        try {
          return await transaction.submit({ deadline: retrier.callDeadline(SUBMIT_CALL_TIMEOUT_MS) });
        } catch (error) {
          if (!(error instanceof GatewayError && error.message.includes("No connection established"))) sent = true;
          // The orderers have this txId already (ordered from an earlier submission): its commit status decides.
          const earlier = commit ?? (o.commitStatus === undefined ? undefined : { getStatus: o.commitStatus });
          if (isAlreadyOrdered(error) && earlier !== undefined) {
            o.report?.(
              `transaction ${txId}: the orderers answered that they already have it (${reasonOf(error)}); waiting ` +
                "for its commit status",
              true,
            );
            return earlier;
          }
          throw error;
        }
      },
      sentTxId,
    );
    sent = true;
    submissions++;
    const submittedAt = retrier.now();
    const waitUntil = Math.min(submittedAt + resubmitAfterMs, o.deadline);
    let status: CommitStatus | undefined;
    while (status === undefined && retrier.now() < waitUntil) {
      try {
        const waiting = commit;
        status = await retrier.run(
          "commitStatus",
          () => waiting.getStatus({ deadline: new Date(waitUntil) }),
          sentTxId,
        );
      } catch (error) {
        if (!isWaitExpired(error)) throw error;
        // A wait the server ended early (CANCELLED) is waited again, after a pause.
        if (retrier.now() < waitUntil) await (o.clock ?? SYSTEM_CLOCK).sleep(DEFAULT_RETRY_DELAY_MS);
      }
    }
    if (status !== undefined) return { status, submissions };
    const waitedS = Math.round((retrier.now() - submittedAt) / 1000);
    if (retrier.now() >= o.deadline) {
      throw new LedgerError({
        message:
          `${o.subject}: transaction ${txId} was submitted ${submissions === 1 ? "once" : `${String(submissions)} times`} ` +
          `but the gateway at ${o.address} reported no commit within the step's timeout; it may still commit: ${RERUN}`,
        transactionId: txId,
      });
    }
    o.report?.(
      `transaction ${txId} not committed ${String(waitedS)} s after it was submitted: submitting the same signed ` +
        "transaction again (a copy that also reaches a block is marked DUPLICATE_TXID and changes nothing)",
      true,
    );
    resubmitAfterMs = Math.min(resubmitAfterMs * 2, MAX_RESUBMIT_AFTER_MS);
  }
}
