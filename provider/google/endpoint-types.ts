/**
 * Types of the endpoint table: the per-endpoint parameter and result maps that make `client.call(id, params)` fully
 * typed, and the shape of one table entry. The table itself is in endpoints.ts.
 */
import type { ComputeOperation, LongRunningOperation } from "../operations/operation-types";
import type { FieldFailure } from "../errors";
import type {
  AsymmetricSignResponse,
  Creative,
  Deployment,
  Empty,
  FirewallPolicy,
  InventorySourceGroup,
  KmsPublicKey,
  Policy,
  Subscription,
} from "./google-types";

/** The Display & Video 360 API versions the client can address. v1–v3 are sunset by Google; v4 is current. */
export type DisplayVideoApiVersion = "v1" | "v2" | "v3" | "v4";

/** The owner union of the DV360 inventory source group methods: exactly one must be set (checked at run time). */
export interface DisplayVideoOwner {
  /** The owning (delete) or accessing (get) partner, an int64 decimal string. */
  partnerId?: string;
  /** The owning (delete) or accessing (get) advertiser, an int64 decimal string. */
  advertiserId?: string;
}

export interface EndpointParamsMap {
  "iam.workforcePools.getIamPolicy": {
    /** `locations/<location>/workforcePools/<pool>`. */
    resource: string;
    options?: { requestedPolicyVersion?: number };
  };
  "iam.operations.get": {
    /** `folders/<folder>/locations/<location>/operations/<operation>`. */
    name: string;
  };
  "compute.firewallPolicies.move": {
    /** The numeric id, `firewallPolicies/<id>` or `locations/global/firewallPolicies/<id>`. */
    firewallPolicy: string;
    /** `folders/<digits>` or `organizations/<digits>`. */
    parentId: string;
    /** A UUID (not the zero UUID). Required by this client so that every move can be retried safely. */
    requestId: string;
  };
  "compute.firewallPolicies.get": { firewallPolicy: string };
  "compute.globalOrganizationOperations.get": {
    /** The operation name (use parseComputeOperationRef for a selfLink). */
    operation: string;
    /** Documented by Google as "not used"; sent when given. */
    parentId?: string;
  };
  "deploymentmanager.deployments.get": { project: string; deployment: string };
  "workspaceevents.subscriptions.get": {
    /** `subscriptions/<subscription>`. */
    name: string;
  };
  "displayvideo.inventorySourceGroups.delete": DisplayVideoOwner & {
    inventorySourceGroupId: string;
    /**
     * Overrides the `displayVideoApiVersion` setting for this call: a DisplayVideoApiVersion ("v1".."v4"). Typed as a
     * string so unchecked user input can be passed straight through: it is validated before anything is sent.
     */
    apiVersion?: string;
  };
  "displayvideo.inventorySourceGroups.get": DisplayVideoOwner & {
    inventorySourceGroupId: string;
    /** See inventorySourceGroups.delete. */
    apiVersion?: string;
  };
  "displayvideo.advertisers.creatives.get": {
    advertiserId: string;
    creativeId: string;
    /** See inventorySourceGroups.delete. */
    apiVersion?: string;
  };
  "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign": {
    /** `projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>/cryptoKeyVersions/<n>`. */
    name: string;
    /** The digest to sign, base64 (32 bytes for SHA-256, 48 for SHA-384); exactly one of digest or data. */
    digest?: { sha256: string } | { sha384: string };
    /** CRC32C of the digest bytes, a decimal string (0..4294967295). Required with digest (integrity). */
    digestCrc32c?: string;
    /** The data to sign, base64: what EC_SIGN_ED25519 keys sign (pure Ed25519). */
    data?: string;
    /** CRC32C of the data bytes, a decimal string. Required with data (integrity). */
    dataCrc32c?: string;
  };
  "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey": {
    /** `projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>/cryptoKeyVersions/<n>`. */
    name: string;
  };
}

export interface EndpointResultMap {
  "iam.workforcePools.getIamPolicy": Policy;
  "iam.operations.get": LongRunningOperation;
  "compute.firewallPolicies.move": ComputeOperation;
  "compute.firewallPolicies.get": FirewallPolicy;
  "compute.globalOrganizationOperations.get": ComputeOperation;
  "deploymentmanager.deployments.get": Deployment;
  "workspaceevents.subscriptions.get": Subscription;
  "displayvideo.inventorySourceGroups.delete": Empty;
  "displayvideo.inventorySourceGroups.get": InventorySourceGroup;
  "displayvideo.advertisers.creatives.get": Creative;
  "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign": AsymmetricSignResponse;
  "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey": KmsPublicKey;
}

export type EndpointId = keyof EndpointParamsMap & keyof EndpointResultMap;
export type EndpointParams<E extends EndpointId> = EndpointParamsMap[E];
export type EndpointResult<E extends EndpointId> = EndpointResultMap[E];

/** The services whose roots are configurable; a root is the URL the endpoint's path template is appended to. */
export type ServiceName = "iam" | "compute" | "deploymentManager" | "workspaceEvents" | "displayVideo" | "kms";

export type HttpMethod = "GET" | "POST" | "DELETE";

/**
 * Whether a failed attempt may be repeated:
 * - "idempotent": repeating has no extra effect (GET, DELETE, and read-only POSTs such as getIamPolicy);
 * - "requestId": a mutation that the server de-duplicates by its `requestId` query parameter; retried only when a
 *   requestId is actually on the request;
 * - "none": never retried.
 */
export type Idempotency = "idempotent" | "requestId" | "none";

/** A parameter check: the normalized value, or the reason it is rejected (phrased with the fix, without the name). */
export type CheckResult =
  | { readonly value: unknown }
  | {
      readonly reason: string;
      /** The failing property when it is nested below the parameter, e.g. "options.requestedPolicyVersion". */
      readonly property?: string;
    };

export interface ParamSpec {
  readonly name: string;
  /** Where the (normalized) value goes: a path template variable, a query parameter, or the JSON body. */
  readonly location: "path" | "query" | "body";
  readonly required: boolean;
  /** A human description of a valid value, used when a required value is missing. */
  readonly expected: string;
  readonly check: (value: unknown) => CheckResult;
}

/** Normalized, validated parameters, keyed by parameter name. */
export type NormalizedParams = Readonly<Record<string, unknown>>;

export interface EndpointDefinition {
  readonly id: EndpointId;
  readonly service: ServiceName;
  readonly method: HttpMethod;
  /**
   * Relative to the service root. `{name}` is one percent-encoded segment; `{+name}` is a resource name whose slashes
   * stay literal (RFC 6570 reserved expansion, as in Google's discovery documents); `{version}` is the DV360 version.
   */
  readonly pathTemplate: string;
  readonly params: readonly ParamSpec[];
  /** Checks across parameters (e.g. exactly one of partnerId/advertiserId), run after the per-parameter checks. */
  readonly crossChecks: readonly ((params: NormalizedParams) => FieldFailure | undefined)[];
  /** "empty": no body is ever sent; "optionalObject": a JSON object is always sent (`{}` when nothing is given). */
  readonly body: "empty" | "optionalObject";
  /** The response type's name in types.ts (documentation and messages). */
  readonly responseType: string;
  /** Any one of these scopes authorizes the call (full URIs). */
  readonly acceptedScopes: readonly string[];
  /** The scopes the client asks its credential for (the narrowest accepted one that works for the endpoint). */
  readonly requestedScopes: readonly string[];
  /** An IAM permission the caller needs besides the scope, if the API documents one. */
  readonly extraPermission?: string;
  readonly idempotency: Idempotency;
  /** The DV360 version used when neither the call nor the settings name one. */
  readonly defaultApiVersion?: DisplayVideoApiVersion;
  /** Names the resource for messages, from normalized parameters: "firewall policy 123". */
  readonly describe: (params: NormalizedParams) => string;
}
