/** One codec per chaincode lifecycle message (shapes in lifecycle-messages.ts), as codec.ts's table for the rest. */
import { codec } from "../codec";
import type * as l from "./lifecycle-messages";

export const lifecycleCodecs = {
  Policy: codec<{ readonly type: number; readonly value: Uint8Array }>("common.Policy"),
  ApplicationPolicy: codec<l.ApplicationPolicy>("protos.ApplicationPolicy"),
  CollectionConfigPackage: codec<l.CollectionConfigPackage>("protos.CollectionConfigPackage"),
  InstallChaincodeArgs: codec<l.InstallChaincodeArgs>("lifecycle.InstallChaincodeArgs"),
  InstallChaincodeResult: codec<l.InstallChaincodeResult>("lifecycle.InstallChaincodeResult"),
  QueryInstalledChaincodesArgs: codec<l.QueryInstalledChaincodesArgs>("lifecycle.QueryInstalledChaincodesArgs"),
  QueryInstalledChaincodesResult: codec<l.QueryInstalledChaincodesResult>("lifecycle.QueryInstalledChaincodesResult"),
  ApproveChaincodeDefinitionForMyOrgArgs: codec<l.ApproveChaincodeDefinitionForMyOrgArgs>(
    "lifecycle.ApproveChaincodeDefinitionForMyOrgArgs",
  ),
  CommitChaincodeDefinitionArgs: codec<l.ChaincodeDefinitionArgs>("lifecycle.CommitChaincodeDefinitionArgs"),
  CheckCommitReadinessArgs: codec<l.ChaincodeDefinitionArgs>("lifecycle.CheckCommitReadinessArgs"),
  CheckCommitReadinessResult: codec<l.CheckCommitReadinessResult>("lifecycle.CheckCommitReadinessResult"),
  QueryApprovedChaincodeDefinitionArgs: codec<l.QueryApprovedChaincodeDefinitionArgs>(
    "lifecycle.QueryApprovedChaincodeDefinitionArgs",
  ),
  QueryApprovedChaincodeDefinitionResult: codec<l.QueryApprovedChaincodeDefinitionResult>(
    "lifecycle.QueryApprovedChaincodeDefinitionResult",
  ),
  QueryChaincodeDefinitionArgs: codec<l.QueryChaincodeDefinitionArgs>("lifecycle.QueryChaincodeDefinitionArgs"),
  QueryChaincodeDefinitionResult: codec<l.QueryChaincodeDefinitionResult>("lifecycle.QueryChaincodeDefinitionResult"),
  QueryChaincodeDefinitionsArgs: codec<l.QueryChaincodeDefinitionsArgs>("lifecycle.QueryChaincodeDefinitionsArgs"),
  QueryChaincodeDefinitionsResult: codec<l.QueryChaincodeDefinitionsResult>(
    "lifecycle.QueryChaincodeDefinitionsResult",
  ),
} as const;
