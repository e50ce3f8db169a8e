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
export { CHANNEL_TYPE, Channel } from "./channel-creation";
export type { ChannelArgs } from "./channel-creation";
export { CHANNEL_PEER_TYPE, ChannelPeer } from "./channel-peer";
export type { ChannelPeerArgs } from "./channel-peer";
export { CHANNEL_ORGANIZATION_TYPE, ChannelOrganization } from "./channel-organization";
export type { ChannelOrganizationArgs } from "./channel-organization";
export { CHANNEL_ANCHOR_PEERS_TYPE, ChannelAnchorPeers } from "./channel-anchor-peers";
export type { ChannelAnchorPeersArgs } from "./channel-anchor-peers";
export { CHANNEL_CAPABILITIES_TYPE, ChannelCapabilities } from "./channel-capabilities";
export type { ChannelCapabilitiesArgs } from "./channel-capabilities";
export { CHANNEL_BATCH_SETTINGS_TYPE, ChannelBatchSettings } from "./channel-batch-settings";
export type { ChannelBatchSettingsArgs } from "./channel-batch-settings";
export type { ChannelNodeArgs, ChannelPartCredentials } from "./channel-args";
export { getChannelConfig, getChannelConfigOutput } from "./get-channel-config";
export type { GetChannelConfigArgs, GetChannelConfigResult } from "./get-channel-config";
