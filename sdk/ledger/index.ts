/**
 * ledger: a declarative Hyperledger Fabric transaction (the LedgerTransaction component), the chaincode lifecycle
 * (package, installation, approval, committed definition) and the ledger's read side.
 */
export { LEDGER_TRANSACTION_RESOURCE_TYPE, LEDGER_TRANSACTION_TYPE, LedgerTransaction } from "./ledger-transaction";
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
export { LEDGER_TRANSACTIONS_TYPE, LedgerTransactions } from "./ledger-transactions";
export type {
  LedgerTransactionsArgs,
  LedgerTransactionsCommitted,
  LedgerTransactionsItemArgs,
  LedgerTransactionsPlanned,
  LedgerTransactionsTimeouts,
} from "./ledger-transactions";
export { ChaincodePackage } from "./chaincode-package";
export type { CcaasConnectionArgs, ChaincodePackageArgs } from "./chaincode-package";
export { ChaincodeInstallation } from "./chaincode-installation";
export type {
  ChaincodeInstallationArgs,
  ChaincodeInstallationTimeouts,
  LedgerReadGatewayArgs,
} from "./chaincode-installation";
export { ChaincodeApproval } from "./chaincode-approval";
export type { ChaincodeApprovalArgs } from "./chaincode-approval";
export { ChaincodeDefinition } from "./chaincode-definition";
export type {
  ChaincodeDefinitionArgs,
  ChaincodeDefinitionFieldsArgs,
  ChaincodeStepTimeoutsArgs,
} from "./chaincode-definition";
export type {
  ChaincodeApprovalView,
  ChaincodeCollection,
  ChaincodeCommittedView,
  ChaincodeDefinitionView,
} from "../../provider/resources/ledger/chaincode/chaincode-shapes";
export { getChaincodeDefinition, getChaincodeDefinitionOutput } from "./get-chaincode-definition";
export type { GetChaincodeDefinitionArgs, GetChaincodeDefinitionResult } from "./get-chaincode-definition";
export { getTransaction, getTransactionOutput } from "./get-transaction";
export type { GetTransactionArgs, GetTransactionResult } from "./get-transaction";
export { evaluate, evaluateOutput } from "./evaluate";
export type { EvaluateArgs, EvaluateResult } from "./evaluate";
export { getChainInfo, getChainInfoOutput } from "./get-chain-info";
export type { GetChainInfoArgs, GetChainInfoResult } from "./get-chain-info";
export type {
  DeepInput,
  LedgerReadArgs,
  LedgerReadGateway,
  LedgerReadIdentity,
  LedgerReadPkcs11,
} from "./ledger-read-args";
