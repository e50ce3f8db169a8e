/** The Fabric sandbox: a fake Fabric Gateway over gRPC with a committer that validates like a peer. */
export { startFabricSandbox } from "./fabric-sandbox";
export { FabricSandboxError } from "./fabric-sandbox-error";
export {
  DEFAULT_COMMIT_DELAY_MS,
  DEFAULT_ENDORSEMENT_POLICY,
  DEFAULT_FABRIC_CHAINCODE,
  DEFAULT_FABRIC_CHANNEL,
  DEFAULT_FABRIC_ORGANIZATIONS,
  DEFAULT_SUPPORTED_VISIBILITY,
} from "./types";
export type {
  CommitRawResult,
  EndorsementRule,
  FabricSandbox,
  FabricSandboxFaults,
  FabricSandboxOptions,
  FabricSandboxSnapshot,
  SandboxBlock,
  SandboxIdentity,
  SandboxStateEntry,
  SandboxTransaction,
  TamperMode,
  Visibility,
} from "./types";
export { FABRIC_SNAPSHOT_FORMAT } from "./snapshot";
export { ASSET_FUNCTIONS, DEFAULT_CHAINCODE_VERSION } from "./chaincode";
export { TxValidationCode, validationCodeName } from "../../provider/ledger/protos/tx-validation-code";
