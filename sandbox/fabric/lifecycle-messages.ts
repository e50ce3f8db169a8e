/**
 * The decoded shapes of the _lifecycle messages the sandbox reads and writes (provider/ledger/protos/peer/lifecycle/
 * lifecycle.proto, peer/collection.proto, peer/policy.proto, and the policy messages of common/policies.proto and
 * msp/msp_principal.proto), with messages.ts's conventions: scalars always present, bytes as Buffer, absent
 * sub-messages null, Fabric's maps as repeated {key, value} entries (as the shared .proto declares them).
 */

export interface MspPrincipal {
  readonly principalClassification: number;
  readonly principal: Buffer;
}
export interface MspRole {
  readonly mspIdentifier: string;
  readonly role: number;
}
export interface SignaturePolicy {
  readonly signedBy?: number | null;
  readonly nOutOf?: { readonly n: number; readonly rules: readonly SignaturePolicy[] } | null;
}
export interface SignaturePolicyEnvelope {
  readonly version: number;
  readonly rule: SignaturePolicy | null;
  readonly identities: readonly MspPrincipal[];
}
export interface ApplicationPolicy {
  readonly signaturePolicy?: SignaturePolicyEnvelope | null;
  readonly channelConfigPolicyReference?: string | null;
}
export interface StaticCollectionConfig {
  readonly name: string;
  readonly memberOrgsPolicy: { readonly signaturePolicy?: SignaturePolicyEnvelope | null } | null;
  readonly requiredPeerCount: number;
  readonly maximumPeerCount: number;
  readonly blockToLive: bigint;
  readonly memberOnlyRead: boolean;
  readonly memberOnlyWrite: boolean;
  readonly endorsementPolicy: ApplicationPolicy | null;
}
export interface CollectionConfigPackage {
  readonly config: readonly { readonly staticCollectionConfig?: StaticCollectionConfig | null }[];
}
export interface ChaincodeSource {
  readonly unavailable?: Record<string, never> | null;
  readonly localPackage?: { readonly packageId: string } | null;
}
/** The definition fields every _lifecycle definition message has (Commit, CheckCommitReadiness; Approve adds source). */
export interface DefinitionArgs {
  readonly sequence: bigint;
  readonly name: string;
  readonly version: string;
  readonly endorsementPlugin: string;
  readonly validationPlugin: string;
  readonly validationParameter: Buffer;
  readonly collections: CollectionConfigPackage | null;
  readonly initRequired: boolean;
}
export interface ApproveArgs extends DefinitionArgs {
  readonly source: ChaincodeSource | null;
}

export interface LifecycleMessages {
  "msp.MSPPrincipal": MspPrincipal;
  "msp.MSPRole": MspRole;
  "common.SignaturePolicyEnvelope": SignaturePolicyEnvelope;
  "protos.ApplicationPolicy": ApplicationPolicy;
  "protos.CollectionConfigPackage": CollectionConfigPackage;
  "lifecycle.InstallChaincodeArgs": { readonly chaincodeInstallPackage: Buffer };
  "lifecycle.InstallChaincodeResult": { readonly packageId: string; readonly label: string };
  "lifecycle.QueryInstalledChaincodeArgs": { readonly packageId: string };
  "lifecycle.QueryInstalledChaincodeResult": {
    readonly packageId: string;
    readonly label: string;
    readonly references: readonly InstalledReferences[];
  };
  "lifecycle.QueryInstalledChaincodesArgs": Record<string, never>;
  "lifecycle.QueryInstalledChaincodesResult": {
    readonly installedChaincodes: readonly {
      readonly packageId: string;
      readonly label: string;
      readonly references: readonly InstalledReferences[];
    }[];
  };
  "lifecycle.ApproveChaincodeDefinitionForMyOrgArgs": ApproveArgs;
  "lifecycle.ApproveChaincodeDefinitionForMyOrgResult": Record<string, never>;
  "lifecycle.CommitChaincodeDefinitionArgs": DefinitionArgs;
  "lifecycle.CommitChaincodeDefinitionResult": Record<string, never>;
  "lifecycle.CheckCommitReadinessArgs": DefinitionArgs;
  "lifecycle.CheckCommitReadinessResult": {
    readonly approvals: readonly { readonly key: string; readonly value: boolean }[];
  };
  "lifecycle.QueryApprovedChaincodeDefinitionArgs": { readonly name: string; readonly sequence: bigint };
  "lifecycle.QueryApprovedChaincodeDefinitionResult": Omit<ApproveArgs, "name">;
  "lifecycle.QueryChaincodeDefinitionArgs": { readonly name: string };
  "lifecycle.QueryChaincodeDefinitionResult": Omit<DefinitionArgs, "name"> & {
    readonly approvals: readonly { readonly key: string; readonly value: boolean }[];
  };
  "lifecycle.QueryChaincodeDefinitionsArgs": Record<string, never>;
  "lifecycle.QueryChaincodeDefinitionsResult": { readonly chaincodeDefinitions: readonly DefinitionArgs[] };
}

/** One map entry of QueryInstalledChaincode(s)Result.references: by channel, the definitions using the package. */
export interface InstalledReferences {
  readonly key: string;
  readonly value: { readonly chaincodes: readonly { readonly name: string; readonly version: string }[] } | null;
}
