/**
 * The one error tree: every error the provider throws extends OpsLedgerError, has a static `kind` of its own and takes
 * one Readonly properties object. Families in their folders (google/, operations/, ledger/), with what each needs to
 * describe itself; nothing here imports the families. The sandboxes keep their own errors.
 */
export { OpsLedgerError, isOpsLedgerError } from "./opsledger-error";
export type { OpsLedgerErrorProperties } from "./opsledger-error";
export { ValidationError } from "./validation-error";
export type { FieldFailure } from "./validation-error";
export { ConfigError } from "./config-error";
export { DeadlineError } from "./deadline-error";
export { PartialFailureError } from "./partial-failure-error";
export { ApiError, isApiError } from "./google/api-error";
export { KmsIntegrityError } from "./google/kms-integrity-error";
export { LedgerError } from "./ledger/ledger-error";
export { SignerError } from "./ledger/signer-error";
export { ChannelCapabilityError } from "./ledger/channel-capability-error";
export { LedgerTransactionsError } from "./ledger/ledger-transactions-error";
