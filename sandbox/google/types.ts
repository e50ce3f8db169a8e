/**
 * Public types of the Google sandbox: its options, the logs it keeps, the fault knobs and the handle
 * `startGoogleSandbox` returns. The seed that describes its world is in `seed-types.ts`, wire shapes (what the routes
 * return) in `wire.ts`.
 */
import type { WarningItem } from "./wire";
import type { KmsAlgorithm } from "./kms-types";
import type { InventorySourceGroupOwner, SandboxSeed } from "./seed-types";

export { KMS_ALGORITHMS } from "./kms-types";
export type { KmsAlgorithm, SeedKmsKeyVersion } from "./kms-types";

/** The sandbox's notion of time. Every timestamp and every operation's progress is computed from it. */
export interface SandboxClock {
  /** Milliseconds since the Unix epoch. */
  now(): number;
}

/** A clock that only moves when told to. */
export interface ManualClock extends SandboxClock {
  advance(ms: number): void;
  set(ms: number): void;
}

/** Options of `startGoogleSandbox`. Defaults are applied in one place (`resolveOptions` in sandbox.ts). */
export interface GoogleSandboxOptions {
  /** TCP port on 127.0.0.1. @default 0 (any free port) */
  port?: number;
  /** The world the sandbox starts with and returns to on `reset()`. @default the built-in fixture (fixture.ts) */
  seed?: SandboxSeed;
  /** How long a firewall policy move runs before its operation is DONE. @default 3000 */
  moveDurationMs?: number;
  /** Completed compute and IAM operations are kept this long after they end; then GET is 404. @default 900000 */
  operationRetentionMs?: number;
  /** Time source. @default real time (`Date.now`) */
  clock?: SandboxClock;
  /** Seed of the deterministic PRNG that decides whether a fault rule with `rate` < 1 fires. @default 1 */
  faultSeed?: number;
  /** Rate quotas enforced from the start (and again after `reset()`). @default none */
  rateQuotas?: readonly RateQuota[];
  /**
   * The universe the sandbox serves: a request whose Host is `<service>.<universeDomain>` (`compute`, `iam`,
   * `cloudkms`, `oauth2`, `sts`, ...) reaches that service's routes, a host of another universe gets 404, and the
   * credential files it writes carry this `universe_domain`. Requests to 127.0.0.1 use the path prefixes as before.
   * @default "googleapis.com"
   */
  universeDomain?: string;
}

/**
 * A per-minute rate quota on a group of requests, enforced as Google's front end enforces Compute's (rate-quotas.ts):
 * counted in windows aligned to the sandbox clock, the rest rejected with RATE_LIMIT_EXCEEDED naming the quota.
 */
export interface RateQuota {
  /** Which requests count. "computeWrites": every compute request that is not a GET (the move). */
  readonly group: "computeWrites";
  /** Requests accepted per window; 0 rejects all of them. */
  readonly limit: number;
  /** The window, from multiples of it on the sandbox clock. @default 60000 */
  readonly windowMs?: number;
  /** 429 RESOURCE_EXHAUSTED (the issue's and most APIs' answer) or 403, as Compute documents its rate quotas. @default 429 */
  readonly httpStatus?: 429 | 403;
}

/** Requests in flight at the sandbox per service root (`endpoints` key), now and at most since the last reset. */
export interface SandboxConcurrency {
  readonly inFlight: Readonly<Record<string, number>>;
  readonly maxInFlight: Readonly<Record<string, number>>;
}

export type AuditKind =
  | "firewallPolicies.move"
  | "firewallPolicies.setParent"
  | "inventorySourceGroups.delete"
  | "inventorySourceGroups.put"
  | "iamOperations.create";

/** One effective mutation of the sandbox's state. */
export interface AuditEntry {
  /** 1, 2, 3, ... in the order the mutations took effect. */
  readonly seq: number;
  /** Sandbox clock time at which the mutation took effect. */
  readonly timeMs: number;
  /** "api" for a Google route, "control-plane" for the /_sandbox routes and the handle's methods. */
  readonly source: "api" | "control-plane";
  readonly kind: AuditKind;
  /** The resource, for example "firewallPolicies/1001" or "inventorySourceGroups/5001". */
  readonly target: string;
  readonly details: {
    readonly from?: string;
    readonly to?: string;
    readonly requestId?: string;
    readonly principal?: string;
    readonly operation?: string;
  };
}

/** One request to an API route (everything outside /_sandbox/), in arrival order. */
export interface RequestLogEntry {
  readonly method: string;
  /** The URL path as received (still percent-encoded), without the query. */
  readonly path: string;
  readonly query: Readonly<Record<string, string>>;
  /** The HTTP status sent; 0 when the connection was dropped. */
  readonly status: number;
  /** The route id, for example "compute.firewallPolicies.move"; absent when no route matched. */
  readonly route?: string;
  /** The principal of a valid bearer token, when one was presented. */
  readonly principal?: string;
  /** The injected fault, for example "status:503:before", "drop:after" or "latency:200". */
  readonly fault?: string;
  /** The Host header when it named a host rather than 127.0.0.1 (a universe host such as `compute.googleapis.com`). */
  readonly host?: string;
  /** The X-Goog-Request-Reason header, as the audit log would keep it. */
  readonly requestReason?: string;
  /** The x-goog-user-project header: the project the request's quota is charged to. */
  readonly userProject?: string;
}

/**
 * What `onRequest` listeners see of an API request: when it arrives (routed, before faults and handling), and when it
 * has been answered (its request-log entry and the response body sent; empty for a dropped connection).
 */
export type SandboxRequestEvent =
  | { readonly phase: "received"; readonly method: string; readonly path: string; readonly route?: string }
  | { readonly phase: "answered"; readonly entry: RequestLogEntry; readonly body: string };

/**
 * A fault injection rule. A request matches when `route` and `method` match (absent = any); the first matching
 * rule that fires decides. `rate` is the chance (drawn from the seeded PRNG) that a match fires; `times` caps how
 * often the rule fires in total.
 */
export interface FaultRule {
  readonly route?: string;
  readonly method?: string;
  /** 0..1. @default 1 */
  readonly rate?: number;
  /** @default unlimited */
  readonly times?: number;
  /** "before": fail instead of handling. "after": handle the request (its effects happen), then fail. @default "before" */
  readonly phase?: "before" | "after";
  /**
   * "status": a Google-shaped error; "drop": destroy the socket without a response; "latency": delay, then proceed;
   * "corruptChecksum": handle the request, then answer with its CRC32C field (Cloud KMS `signatureCrc32c`,
   * `pemCrc32c`) off by one, as data corrupted in transit would look.
   */
  readonly kind: "status" | "drop" | "latency" | "corruptChecksum";
  /** For "status". @default 503 */
  readonly status?: number;
  /** Adds a `Retry-After: <seconds>` header. */
  readonly retryAfterSeconds?: number;
  /** Adds a google.rpc.RetryInfo detail with this retryDelay, for example "2s". */
  readonly retryInfoDelay?: string;
  /** ErrorInfo reason. @default "RATE_LIMIT_EXCEEDED" for 429 */
  readonly reason?: string;
  /** For "latency". @default 1000 */
  readonly latencyMs?: number;
}

/** How the next firewall policy moves end. */
export type MoveOutcome =
  | { readonly kind: "success"; readonly warnings?: readonly WarningItem[] }
  | { readonly kind: "quotaExceeded" }
  | { readonly kind: "outOfSpec" };

/** A `service_account` key file whose `token_uri` is the sandbox's oauth2 route. */
export interface ServiceAccountKeyFile {
  readonly type: "service_account";
  readonly project_id: string;
  readonly private_key_id: string;
  readonly private_key: string;
  readonly client_email: string;
  readonly client_id: string;
  readonly auth_uri: string;
  readonly token_uri: string;
  readonly auth_provider_x509_cert_url: string;
  readonly client_x509_cert_url: string;
  readonly universe_domain: string;
}

export interface MintTokenRequest {
  readonly principal: string;
  /** Full scope URIs, or short names ("compute") that get the https://www.googleapis.com/auth/ prefix. */
  readonly scopes: readonly string[];
  /** @default 3600 */
  readonly lifetimeSeconds?: number;
}

export interface WriteCredentialsFileOptions {
  /** The service account the external account impersonates; null = use the federated token directly. @default deployer@ */
  readonly serviceAccount?: string | null;
  /** The `sub` of the subject token. @default "sandbox-ci" */
  readonly subject?: string;
}

export interface CreateIamOperationRequest {
  /** "folders/<id>/locations/<location>/operations/<id>". */
  readonly name: string;
  readonly durationMs: number;
  readonly outcome: "response" | "error";
  /** For outcome "error". @default {code: 13, message: "Internal error."} */
  readonly error?: { readonly code: number; readonly message: string };
}

/** `{partnerId | advertiserId, id, displayName}`: the owner's id next to the group's fields. */
export type PutInventorySourceGroupRequest = InventorySourceGroupOwner & {
  readonly id: string;
  readonly displayName: string;
};

/** Service root URLs (no trailing slash); a client appends the API path. */
export interface GoogleSandboxEndpoints {
  readonly iam: string;
  readonly compute: string;
  readonly deploymentManager: string;
  readonly workspaceEvents: string;
  readonly displayVideo: string;
  readonly kms: string;
  readonly sts: string;
  readonly iamCredentials: string;
  readonly oauth2: string;
}

/** A running sandbox. */
export interface GoogleSandbox {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly endpoints: GoogleSandboxEndpoints;
  /** The universe the sandbox serves (GoogleSandboxOptions.universeDomain). */
  readonly universeDomain: string;
  /** Issues an opaque bearer token for a principal. */
  mintToken(request: MintTokenRequest): string;
  /** Writes an `external_account` credentials file (and its subject-token file) into `dir`; returns its path. */
  writeCredentialsFile(dir: string, options?: WriteCredentialsFileOptions): Promise<string>;
  /** A key file for a seeded service account; its key pair is generated by the sandbox. */
  serviceAccountKey(email: string): ServiceAccountKeyFile;
  /** A signed subject token (JWT) of the sandbox's identity provider for `subject`. */
  issueSubjectToken(subject: string): string;
  /** Back to the seed: clears logs, faults, tokens and the move outcome; keeps the port and keys. */
  reset(): void;
  /** Replaces the state with `seed` (and makes it the seed `reset()` returns to). */
  seed(seed: SandboxSeed): void;
  audit(): readonly AuditEntry[];
  requests(): readonly RequestLogEntry[];
  /**
   * Calls `listener` synchronously as each API request arrives and as it is answered (tests act on the exact moment a
   * point is reached, e.g. a kill once an operation was served as DONE). Returns the function that removes it.
   */
  onRequest(listener: (event: SandboxRequestEvent) => void): () => void;
  setFaults(rules: readonly FaultRule[]): void;
  clearFaults(): void;
  /** Replaces the rate quotas in force (until `reset()` restores those of the options). */
  setRateQuotas(quotas: readonly RateQuota[]): void;
  /** API requests being served per service, and the most at once since the last reset. */
  concurrency(): SandboxConcurrency;
  setMoveOutcome(outcome: MoveOutcome): void;
  /** Moves a firewall policy out of band (audit source "control-plane"). */
  setParent(firewallPolicyId: string, parent: string): void;
  /** Creates or re-creates an inventory source group (drift tests). */
  putInventorySourceGroup(group: PutInventorySourceGroupRequest): void;
  createIamOperation(request: CreateIamOperationRequest): void;
  /**
   * Creates a Cloud KMS key version of `algorithm` (default EC_SIGN_P256_SHA256), or returns the existing one, and
   * returns its public key PEM.
   * Its key pair is generated once and kept across resets; grant `cloudkms.cryptoKeyVersions.useToSign` in the seed.
   */
  createKmsKeyVersion(name: string, algorithm?: KmsAlgorithm): string;
  close(): Promise<void>;
}
