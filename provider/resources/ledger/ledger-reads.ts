/**
 * The ledger data sources' logic, shared by both faces like provider/functions/google-reads.ts: the TypeScript SDK's
 * functions (sdk/ledger/get-transaction.ts, evaluate.ts, get-chain-info.ts, run in the program process) and the
 * plugin's invokes (`opsledger:ledger:getTransaction`, `:evaluate`, `:getChainInfo`). Each checks its inputs (every bad
 * one named with its fix, before the signer is opened or anything is sent; a client TLS key for mutual TLS is read and
 * matched against its certificate then too), reads in a session as the resources do (session/ledger-session.ts: the
 * signer through any reference a LedgerTransaction accepts, the gateway, the channel-capability check), through
 * provider/ledger's qscc-reads.ts, and closes it.
 */
import { LedgerError, ValidationError } from "../../errors";
import type { FieldFailure } from "../../errors";
import { evaluateChaincode, readChainInfo, readTransaction, transactionIdProblem } from "../../ledger";
import type { ChainInfo, EvaluationResult, Gateway, TransactionRecord } from "../../ledger";
import type { LedgerBytes, LedgerReadShape } from "./ledger-shapes";
import { argsFailures } from "./ledger-transaction-inputs";
import { toBytes } from "./ledger-transaction-submit";
import { checkedClientTlsKey } from "./session/client-tls";
import { withSession } from "./session/ledger-session";
import type { SessionFrame } from "./session/ledger-session";
import { nonEmpty, sessionFailures } from "./session/session-checks";

/** What every ledger read takes: where the gateway is, the channel, and who asks (declared in ledger-shapes.ts). */
export type LedgerReadInputs = LedgerReadShape;

/** ledger.getTransaction's inputs. */
export interface GetTransactionInputs extends LedgerReadInputs {
  txId: string;
}

/** ledger.evaluate's inputs. */
export interface EvaluateInputs extends LedgerReadInputs {
  chaincode: string;
  function: string;
  args?: LedgerBytes[];
  /** MSP ids whose peers may answer. @default the gateway's choice */
  targetOrganizations?: string[];
}

/** Every bad input of a ledger read, as failures naming the field and the fix. Never throws. */
export function ledgerReadFailures(
  kind: "getTransaction" | "evaluate" | "getChainInfo",
  inputs: Partial<EvaluateInputs & GetTransactionInputs>,
): FieldFailure[] {
  const n = inputs as Record<string, unknown>;
  const failures = sessionFailures(n, "optional");
  if (kind === "getTransaction") {
    const problem = transactionIdProblem(n["txId"]);
    if (problem !== undefined) failures.push({ property: "txId", reason: problem });
  }
  if (kind === "evaluate") {
    failures.push(
      ...nonEmpty("chaincode", n["chaincode"], "the chaincode name, e.g. 'basic'"),
      ...nonEmpty("function", n["function"], "the chaincode function to query, e.g. 'ReadAsset'"),
      ...argsFailures("args", n["args"]),
    );
    const orgs = n["targetOrganizations"];
    if (orgs !== undefined && (!Array.isArray(orgs) || orgs.some((o) => typeof o !== "string" || o.trim() === ""))) {
      failures.push({
        property: "targetOrganizations",
        reason: "must be a list of non-empty MSP ids, e.g. ['Org1MSP']",
      });
    }
  }
  return failures;
}

/** A read's frame: the signer's own error, a refused channel a ValidationError, a refused handshake named. */
export function readFrame(kind: string): SessionFrame {
  return {
    capability: {},
    signer: (error) => error,
    refused: (failure) => new ValidationError({ subject: `ledger.${kind}`, failures: [failure] }),
    tls: (refusal, error) => new LedgerError({ message: `ledger.${kind}: ${refusal}`, cause: error }),
  };
}

/** Checks the inputs, then runs `read` in a session (the signer and the gateway opened, the channel checked). */
async function withGateway<T>(
  kind: "getTransaction" | "evaluate" | "getChainInfo",
  inputs: LedgerReadInputs,
  read: (gateway: Gateway) => Promise<T>,
): Promise<T> {
  const failures = ledgerReadFailures(kind, inputs);
  const tls = failures.length === 0 ? checkedClientTlsKey(inputs.gateway) : { key: undefined };
  if ("failures" in tls) failures.push(...tls.failures);
  if (failures.length > 0) throw new ValidationError({ subject: `ledger.${kind}`, failures });
  return withSession(inputs, "create", readFrame(kind), ({ gateway }) => read(gateway));
}

const trustOf = (roots: Record<string, string> | undefined) =>
  roots === undefined || Object.keys(roots).length === 0
    ? {}
    : { trustedMsps: Object.entries(roots).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })) };

/** ledger.getTransaction: the committed transaction `txId`, decoded and verified. */
export function readLedgerTransaction(inputs: GetTransactionInputs): Promise<TransactionRecord> {
  return withGateway("getTransaction", inputs, (gateway) =>
    readTransaction(
      gateway,
      { channelId: inputs.channel, transactionId: inputs.txId },
      trustOf(inputs.trustedRootCertificates),
    ),
  );
}

/** ledger.evaluate: a chaincode query's response payload. */
export function evaluateLedger(inputs: EvaluateInputs): Promise<EvaluationResult> {
  return withGateway("evaluate", inputs, (gateway) =>
    evaluateChaincode(gateway, {
      channelId: inputs.channel,
      chaincodeName: inputs.chaincode,
      functionName: inputs.function,
      args: (inputs.args ?? []).map(toBytes),
      ...(inputs.targetOrganizations === undefined ? {} : { targetOrganizations: inputs.targetOrganizations }),
    }),
  );
}

/** ledger.getChainInfo: the channel's height and newest block hashes. */
export function readLedgerChainInfo(inputs: LedgerReadInputs): Promise<ChainInfo> {
  return withGateway("getChainInfo", inputs, (gateway) => readChainInfo(gateway, inputs.channel));
}
