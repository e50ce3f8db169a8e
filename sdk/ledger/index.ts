/** ledger: a declarative Hyperledger Fabric transaction (the LedgerTransaction component). */
export { LEDGER_TRANSACTION_TYPE, LedgerTransaction } from "./ledger-transaction";
export type {
  LedgerGatewayArgs,
  LedgerIdentityArgs,
  LedgerKmsArgs,
  LedgerPkcs11Args,
  LedgerOnDestroyArgs,
  LedgerTimeouts,
  LedgerTransactionArgs,
  LedgerVisibility,
} from "./ledger-transaction";
export { LEDGER_TRANSACTION_SUBMISSION_TYPE, LedgerTransactionSubmission } from "./ledger-transaction-submission";
export type { LedgerBytesInput, LedgerPayload, LedgerTransactionSubmissionArgs } from "./ledger-transaction-submission";
