/**
 * The shapes of the chaincode lifecycle's messages (protos/peer/lifecycle/lifecycle.proto, peer/collection.proto,
 * peer/policy.proto; msp.MSPRole and common.ImplicitMetaPolicy, which policies are made of, are config-messages.ts's),
 * with the conventions
 * of messages.ts: camelCase, bytes as Uint8Array, 64-bit integers as bigint, enums as numbers, Fabric's maps as
 * repeated entries in wire order. Codecs: lifecycle-codecs.ts.
 */
import type { SignaturePolicyEnvelope } from "../messages";

/** protos.ApplicationPolicy: oneof a signature policy or a channel policy reference. */
export interface ApplicationPolicy {
  readonly signaturePolicy?: SignaturePolicyEnvelope;
  readonly channelConfigPolicyReference?: string;
}

export interface CollectionConfigPackage {
  readonly config: readonly CollectionConfig[];
}

/** oneof payload: only static collections exist. */
export interface CollectionConfig {
  readonly staticCollectionConfig?: StaticCollectionConfig;
}

export interface StaticCollectionConfig {
  readonly name: string;
  readonly memberOrgsPolicy?: CollectionPolicyConfig;
  readonly requiredPeerCount: number;
  readonly maximumPeerCount: number;
  readonly blockToLive: bigint;
  readonly memberOnlyRead: boolean;
  readonly memberOnlyWrite: boolean;
  readonly endorsementPolicy?: ApplicationPolicy;
}

export interface CollectionPolicyConfig {
  readonly signaturePolicy?: SignaturePolicyEnvelope;
}

/** One entry of a Fabric map. */
export interface Entry<V> {
  readonly key: string;
  readonly value?: V;
}

/** One entry of a map<string, bool> (a scalar value is always present once decoded). */
export interface BoolEntry {
  readonly key: string;
  readonly value: boolean;
}

export interface InstallChaincodeArgs {
  readonly chaincodeInstallPackage: Uint8Array;
}

export interface InstallChaincodeResult {
  readonly packageId: string;
  readonly label: string;
}

export interface ChaincodeReference {
  readonly name: string;
  readonly version: string;
}

export interface ChaincodeReferences {
  readonly chaincodes: readonly ChaincodeReference[];
}

export type QueryInstalledChaincodesArgs = Readonly<Record<string, never>>;

export interface InstalledChaincode {
  readonly packageId: string;
  readonly label: string;
  /** By channel: the definitions that use this package. */
  readonly references: readonly Entry<ChaincodeReferences>[];
}

export interface QueryInstalledChaincodesResult {
  readonly installedChaincodes: readonly InstalledChaincode[];
}

/** oneof Type: the package id an organization approved, or none (the chaincode unavailable to its peers). */
export interface ChaincodeSource {
  readonly unavailable?: Readonly<Record<string, never>>;
  readonly localPackage?: { readonly packageId: string };
}

/** The fields of CommitChaincodeDefinitionArgs and CheckCommitReadinessArgs (Approve adds `source`). */
export interface ChaincodeDefinitionArgs extends DefinitionResult {
  readonly name: string;
}

export interface ApproveChaincodeDefinitionForMyOrgArgs extends ChaincodeDefinitionArgs {
  readonly source?: ChaincodeSource;
}

export interface CheckCommitReadinessResult {
  readonly approvals: readonly BoolEntry[];
  readonly mismatches: readonly Entry<{ readonly items: readonly string[] }>[];
}

export interface QueryApprovedChaincodeDefinitionArgs {
  readonly name: string;
  /** 0: the newest this organization approved. */
  readonly sequence: bigint;
}

/** A definition's fields without its name: what QueryApproved/QueryChaincodeDefinition answer. */
export interface DefinitionResult {
  readonly sequence: bigint;
  readonly version: string;
  readonly endorsementPlugin: string;
  readonly validationPlugin: string;
  /** A serialized protos.ApplicationPolicy; empty means the channel's default endorsement policy. */
  readonly validationParameter: Uint8Array;
  readonly collections?: CollectionConfigPackage;
  readonly initRequired: boolean;
}

export interface QueryApprovedChaincodeDefinitionResult extends DefinitionResult {
  readonly source?: ChaincodeSource;
}

export interface QueryChaincodeDefinitionArgs {
  readonly name: string;
}

export interface QueryChaincodeDefinitionResult extends DefinitionResult {
  readonly approvals: readonly BoolEntry[];
}

export type QueryChaincodeDefinitionsArgs = Readonly<Record<string, never>>;

export interface QueryChaincodeDefinitionsResult {
  readonly chaincodeDefinitions: readonly ChaincodeDefinitionArgs[];
}
