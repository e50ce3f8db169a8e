/**
 * The seed of the Google sandbox: everything its world holds when it starts (organizations, folders, firewall
 * policies, IAM, Deployment Manager, Display & Video 360, service accounts, OAuth clients, federation, KMS keys).
 */
import type { AuditConfig, Creative, DeploymentLabelEntry, Expr, PolicyBinding, SubscriptionV1Beta } from "./wire";
import type { SeedKmsKeyVersion } from "./kms-types";

/** An organization (the root of the folder tree). Ids are int64 as strings. */
export interface SeedOrganization {
  readonly id: string;
  readonly displayName: string;
}

export interface SeedFolder {
  readonly id: string;
  readonly displayName: string;
  /** "organizations/<id>" or "folders/<id>". */
  readonly parent: string;
}

/** An organization-level firewall policy. `parent` changes only through a move. */
export interface SeedFirewallPolicy {
  /** Numeric id (uint64 as a string); also the policy's `name`. */
  readonly id: string;
  readonly shortName: string;
  readonly description?: string;
  /** "organizations/<id>" or "folders/<id>". */
  readonly parent: string;
  /** RFC 3339. */
  readonly creationTimestamp: string;
}

export interface SeedPolicyBinding {
  readonly role: string;
  readonly members: readonly string[];
  readonly condition?: Expr;
}

export interface SeedWorkforcePool {
  /** "locations/global/workforcePools/<id>". */
  readonly name: string;
  /** "organizations/<id>": the pool's organization (its reads are checked there). @default none */
  readonly parent?: string;
  /** The stored policy; version 3 when any binding has a condition. */
  readonly policy: {
    readonly version: number;
    readonly bindings: readonly SeedPolicyBinding[];
    readonly auditConfigs?: readonly AuditConfig[];
    /** base64. */
    readonly etag: string;
  };
}

/** A google.iam.v3beta long-running operation under a folder. Times are relative to when the seed is loaded. */
export interface SeedIamOperation {
  /** "folders/<id>/locations/<location>/operations/<id>". */
  readonly name: string;
  /** OperationMetadata.verb, for example "create". */
  readonly verb: string;
  /** OperationMetadata.target, the resource the operation works on. */
  readonly target: string;
  /** How long before the seed was loaded the operation started. @default 0 */
  readonly startedAgoMs?: number;
  /** How long it runs from its start. 0 = already done when it starts. */
  readonly durationMs: number;
  readonly outcome:
    | { readonly kind: "response"; readonly response: PolicyBinding }
    | { readonly kind: "error"; readonly error: { readonly code: number; readonly message: string } };
}

export interface SeedDeployment {
  readonly project: string;
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly fingerprint: string;
  readonly manifest?: string;
  readonly insertTime: string;
  readonly updateTime?: string;
  readonly labels: readonly DeploymentLabelEntry[];
  /** The most recent operation, already finished. */
  readonly lastOperation: {
    readonly id: string;
    readonly name: string;
    readonly operationType: string;
    readonly user: string;
    readonly insertTime: string;
    readonly startTime: string;
    readonly endTime: string;
  };
}

export interface SeedPartner {
  readonly partnerId: string;
  readonly displayName: string;
}

export interface SeedAdvertiser {
  readonly advertiserId: string;
  readonly partnerId: string;
  readonly displayName: string;
}

/** Who owns an inventory source group: a partner or one advertiser (never both). */
export type InventorySourceGroupOwner = { readonly partnerId: string } | { readonly advertiserId: string };

export interface SeedInventorySourceGroup {
  readonly inventorySourceGroupId: string;
  readonly displayName: string;
  readonly owner: InventorySourceGroupOwner;
  /** Advertisers a partner-owned group was explicitly shared with: they may read it (never write). */
  readonly sharedWithAdvertiserIds?: readonly string[];
}

export interface SeedServiceAccount {
  readonly email: string;
  readonly projectId: string;
  /** The numeric unique id (also the key file's client_id). */
  readonly uniqueId: string;
}

/**
 * An IAM permission granted to a principal. `resource` narrows it (for example "firewallPolicies/1001" or
 * "projects/-/serviceAccounts/<email>"); leave it out (or "*") to grant it on every resource. A grant on
 * "organizations/<id>" or "folders/<id>" covers what is under it, and binds the principal to the hierarchy: its reads
 * of organization objects are then checked too (hierarchy.ts).
 */
export interface SeedGrant {
  readonly principal: string;
  readonly permission: string;
  readonly resource?: string;
}

/** An OAuth client and the refresh tokens issued to it (the `authorized_user` flow). */
export interface SeedOAuthClient {
  readonly clientId: string;
  readonly clientSecret: string;
  readonly refreshTokens: readonly {
    readonly refreshToken: string;
    readonly principal: string;
    readonly scopes: readonly string[];
  }[];
}

/** The workload identity provider whose subject tokens the STS route accepts (signed by the sandbox's own key). */
export interface SeedFederation {
  readonly projectNumber: string;
  readonly poolId: string;
  readonly providerId: string;
}

/** Everything the sandbox knows. Ids are int64/uint64 values written as decimal strings. */
export interface SandboxSeed {
  readonly organizations: readonly SeedOrganization[];
  readonly folders: readonly SeedFolder[];
  readonly firewallPolicies: readonly SeedFirewallPolicy[];
  readonly workforcePools: readonly SeedWorkforcePool[];
  readonly iamOperations: readonly SeedIamOperation[];
  readonly deployments: readonly SeedDeployment[];
  readonly subscriptions: readonly SubscriptionV1Beta[];
  readonly partners: readonly SeedPartner[];
  readonly advertisers: readonly SeedAdvertiser[];
  readonly inventorySourceGroups: readonly SeedInventorySourceGroup[];
  readonly creatives: readonly Creative[];
  readonly serviceAccounts: readonly SeedServiceAccount[];
  readonly grants: readonly SeedGrant[];
  readonly oauthClients: readonly SeedOAuthClient[];
  readonly federation: SeedFederation;
  /** Cloud KMS key versions. @default none */
  readonly kmsKeyVersions?: readonly SeedKmsKeyVersion[];
}
