/**
 * The ledger data sources' logic, shared by both faces like google-reads.ts: the TypeScript SDK's functions
 * (sdk/ledger/get-transaction.ts, evaluate.ts, get-chain-info.ts, run in the program process) and the plugin's invokes
 * (`opsledger:ledger:getTransaction`, `:evaluate`, `:getChainInfo`). Each checks its inputs (every bad one named with
 * its fix, before the signer is opened or anything is sent; a client TLS key for mutual TLS is read and matched against
 * its certificate then too), opens the identity's signer through any reference the
 * LedgerTransaction accepts (ledger-transaction-signer.ts), connects as the component does (openGateway), checks the
 * identity's key type against the channel's capabilities as the component does (ledger-capabilities.ts), reads
 * through provider/ledger's ledger-reads.ts, and closes both.
 */
import { ValidationError } from "../../errors";
import type { FieldFailure } from "../../errors";
import { evaluateChaincode, readChainInfo, readTransaction, transactionIdProblem } from "../../ledger";
import { LedgerError } from "../../errors";
import type { ChainInfo, EvaluationResult, Gateway, TransactionRecord } from "../../ledger";
import {
  argsFailures,
  capabilityFailures,
  gatewayFailures,
  hasUnknown,
  identityFailures,
  isRecord,
  nonEmpty,
  parsesAsCertificate,
} from "./ledger-transaction-inputs";
import type { LedgerBytes } from "./ledger-transaction-inputs";
import type { LedgerReadShape } from "./ledger-shapes";
import { ledgerCapabilityFailure } from "./session/channel-capability-check";
import { clientTlsKeyFailures, clientTlsRefusal } from "./session/client-tls";
import { openLedgerSigner } from "./session/ledger-signers";
import { openGateway, toBytes } from "./ledger-transaction-submit";

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

function commonFailures(n: Record<string, unknown>): FieldFailure[] {
  const failures: FieldFailure[] = [
    ...gatewayFailures(n["gateway"]),
    ...nonEmpty("channel", n["channel"], "the channel name, e.g. 'mychannel'"),
    ...identityFailures(n["identity"], hasUnknown),
    ...capabilityFailures(n),
  ];
  const roots = n["trustedRootCertificates"];
  if (roots !== undefined && !hasUnknown(roots)) {
    if (!isRecord(roots)) {
      failures.push({
        property: "trustedRootCertificates",
        reason: "must be a map of MSP id to root CA certificate PEM",
      });
    } else {
      for (const [msp, pem] of Object.entries(roots)) {
        if (!parsesAsCertificate(pem))
          failures.push({ property: `trustedRootCertificates.${msp}`, reason: "is not a PEM X.509 certificate" });
      }
    }
  }
  return failures;
}

/** Every bad input of a ledger read, as failures naming the field and the fix. Never throws. */
export function ledgerReadFailures(
  kind: "getTransaction" | "evaluate" | "getChainInfo",
  inputs: Partial<EvaluateInputs & GetTransactionInputs>,
): FieldFailure[] {
  const n = inputs as Record<string, unknown>;
  const failures = commonFailures(n);
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

/** Checks the inputs, opens the signer and the gateway, runs `read`, and closes both. */
async function withGateway<T>(
  kind: "getTransaction" | "evaluate" | "getChainInfo",
  inputs: LedgerReadInputs,
  read: (gateway: Gateway) => Promise<T>,
): Promise<T> {
  const failures = ledgerReadFailures(kind, inputs);
  if (failures.length === 0) failures.push(...clientTlsKeyFailures(inputs.gateway));
  if (failures.length > 0) throw new ValidationError({ subject: `ledger.${kind}`, failures });
  const opened = await openLedgerSigner(inputs.identity);
  try {
    const gateway = openGateway(
      {
        gateway: inputs.gateway,
        identity: inputs.identity,
        signer: opened.signer,
        trustedRootCertificates: inputs.trustedRootCertificates ?? {},
      },
      "create",
    );
    try {
      // An identity the channel cannot accept is refused naming the channel's capabilities (ledger-capabilities.ts).
      const refused = await ledgerCapabilityFailure(gateway, inputs);
      if (refused !== undefined) throw new ValidationError({ subject: `ledger.${kind}`, failures: [refused] });
      return await read(gateway);
    } catch (error) {
      const refusal = clientTlsRefusal(error, inputs.gateway);
      if (refusal === undefined) throw error;
      throw new LedgerError({ message: `ledger.${kind}: ${refusal}`, cause: error });
    } finally {
      gateway.close();
    }
  } finally {
    opened.close();
  }
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
