/**
 * The one core both faces drive: state, tokens, keys, faults, logs and every control operation. The HTTP layer
 * (http-server.ts, control-plane.ts) and the library handle (sandbox.ts) only translate to and from it.
 */
import { KMS_ALGORITHMS } from "./types";
import type { KmsAlgorithm } from "./types";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { KeyRing } from "./auth/key-ring";
import { signRs256 } from "./auth/jwt";
import { DEFAULT_TOKEN_LIFETIME_SECONDS, MAX_TOKEN_LIFETIME_SECONDS, TokenStore } from "./auth/token-store";
import { FaultInjector } from "./faults";
import { protoTimestamp } from "./clock";
import { RateQuotaEnforcer } from "./rate-quotas";
import { SERVICE_PREFIXES, type SandboxEnv } from "./route-table";
import { SandboxInputError } from "./sandbox-input-error";
import { normalizeScope } from "./scopes";
import { MemoryState, type SandboxState } from "./state";
import type {
  AuditEntry,
  CreateIamOperationRequest,
  FaultRule,
  GoogleSandboxEndpoints,
  MintTokenRequest,
  MoveOutcome,
  PutInventorySourceGroupRequest,
  RateQuota,
  SandboxConcurrency,
  RequestLogEntry,
  SandboxRequestEvent,
  SandboxClock,
  ServiceAccountKeyFile,
  WriteCredentialsFileOptions,
} from "./types";
import type { SandboxSeed } from "./seed-types";

/** The service account an `external_account` file impersonates unless told otherwise. */
export const DEFAULT_IMPERSONATED_SERVICE_ACCOUNT = "deployer@sandbox-project.iam.gserviceaccount.com";
/** Subject of the subject token `writeCredentialsFile` writes unless told otherwise. */
export const DEFAULT_FEDERATED_SUBJECT = "sandbox-ci";
/** Lifetime of a subject token the sandbox's identity provider signs (long, so a CLI session can keep using it). */
export const DEFAULT_SUBJECT_TOKEN_LIFETIME_SECONDS = 86_400;

export interface SandboxCoreOptions {
  readonly url: string;
  readonly seed: SandboxSeed;
  readonly moveDurationMs: number;
  readonly operationRetentionMs: number;
  readonly clock: SandboxClock;
  readonly faultSeed: number;
  readonly keys: KeyRing;
  readonly rateQuotas: readonly RateQuota[];
  readonly universeDomain: string;
}

const IAM_OPERATION_NAME = /^folders\/[0-9]{1,19}\/locations\/[^/]+\/operations\/[^/]+$/;
const PARENT = /^(folders|organizations)\/([0-9]{1,19})$/;
const KMS_KEY_VERSION_NAME =
  /^projects\/[^/]+\/locations\/[^/]+\/keyRings\/[A-Za-z0-9_-]{1,63}\/cryptoKeys\/[A-Za-z0-9_-]{1,63}\/cryptoKeyVersions\/[1-9][0-9]{0,18}$/;

function fail(operation: string, message: string): never {
  throw new SandboxInputError({ operation, message });
}

export class SandboxCore {
  readonly url: string;
  readonly endpoints: GoogleSandboxEndpoints;
  readonly clock: SandboxClock;
  readonly tokens: TokenStore;
  readonly faults: FaultInjector;
  readonly rateQuotas = new RateQuotaEnforcer();
  readonly env: SandboxEnv;
  readonly operationRetentionMs: number;
  readonly universeDomain: string;
  private currentSeed: SandboxSeed;
  private stateValue: MemoryState;
  private requestLog: RequestLogEntry[] = [];
  private readonly listeners = new Set<(event: SandboxRequestEvent) => void>();
  private moveOutcomeValue: MoveOutcome = { kind: "success" };
  private inFlight: Record<string, number> = {};
  private maxInFlight: Record<string, number> = {};

  constructor(private readonly options: SandboxCoreOptions) {
    this.url = options.url;
    this.universeDomain = options.universeDomain;
    this.clock = options.clock;
    this.operationRetentionMs = options.operationRetentionMs;
    const root = (service: keyof GoogleSandboxEndpoints): string => options.url + SERVICE_PREFIXES[service];
    this.endpoints = Object.freeze({
      iam: root("iam"),
      compute: root("compute"),
      deploymentManager: root("deploymentManager"),
      workspaceEvents: root("workspaceEvents"),
      displayVideo: root("displayVideo"),
      kms: root("kms"),
      sts: root("sts"),
      iamCredentials: root("iamCredentials"),
      oauth2: root("oauth2"),
    });
    this.tokens = new TokenStore(options.clock);
    this.faults = new FaultInjector(options.faultSeed);
    this.rateQuotas.set(options.rateQuotas);
    this.currentSeed = structuredClone(options.seed);
    this.stateValue = new MemoryState(this.currentSeed, options.clock.now());
    this.env = {
      endpoints: this.endpoints,
      moveDurationMs: options.moveDurationMs,
      tokens: this.tokens,
      keys: options.keys,
      idpIssuer: `${options.url}/idp`,
      moveOutcome: () => this.moveOutcomeValue,
    };
  }

  /** The state, settled to the clock's now (finished moves applied, expired operations forgotten). */
  state(): SandboxState {
    const now = this.clock.now();
    this.stateValue.settle(now);
    this.stateValue.expireOperations(now, this.operationRetentionMs);
    return this.stateValue;
  }

  logRequest(entry: RequestLogEntry, body = ""): void {
    this.requestLog.push(entry);
    this.notify({ phase: "answered", entry, body });
  }

  onRequest(listener: (event: SandboxRequestEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(event: SandboxRequestEvent): void {
    for (const listener of [...this.listeners]) listener(event);
  }

  requests(): readonly RequestLogEntry[] {
    return [...this.requestLog];
  }

  /** An API request of `service` starts being served. */
  enter(service: string): void {
    const now = (this.inFlight[service] ?? 0) + 1;
    this.inFlight[service] = now;
    if (now > (this.maxInFlight[service] ?? 0)) this.maxInFlight[service] = now;
  }

  /** An API request of `service` has been answered (or dropped). */
  leave(service: string): void {
    this.inFlight[service] = Math.max(0, (this.inFlight[service] ?? 0) - 1);
  }

  concurrency(): SandboxConcurrency {
    return { inFlight: { ...this.inFlight }, maxInFlight: { ...this.maxInFlight } };
  }

  setRateQuotas(quotas: readonly RateQuota[]): void {
    this.rateQuotas.set(quotas);
  }

  audit(): readonly AuditEntry[] {
    return this.state().audit();
  }

  reset(): void {
    this.stateValue = new MemoryState(this.currentSeed, this.clock.now());
    this.requestLog = [];
    this.tokens.clear();
    this.faults.reset();
    this.rateQuotas.set(this.options.rateQuotas);
    this.maxInFlight = { ...this.inFlight };
    this.moveOutcomeValue = { kind: "success" };
  }

  seed(seed: SandboxSeed): void {
    this.currentSeed = structuredClone(seed);
    this.reset();
  }

  setFaults(rules: readonly FaultRule[]): void {
    this.faults.set(rules);
  }

  clearFaults(): void {
    this.faults.clear();
  }

  setMoveOutcome(outcome: MoveOutcome): void {
    if (!["success", "quotaExceeded", "outOfSpec"].includes(outcome.kind)) {
      fail("setMoveOutcome", `kind must be "success", "quotaExceeded" or "outOfSpec"`);
    }
    this.moveOutcomeValue = structuredClone(outcome);
  }

  mintToken(request: MintTokenRequest): string {
    const lifetime = request.lifetimeSeconds ?? DEFAULT_TOKEN_LIFETIME_SECONDS;
    if (typeof request.principal !== "string" || request.principal === "") fail("mintToken", "principal is required");
    if (!Array.isArray(request.scopes) || !request.scopes.every((s) => typeof s === "string")) {
      fail("mintToken", "scopes must be a list of strings");
    }
    if (!Number.isInteger(lifetime) || lifetime < 1 || lifetime > MAX_TOKEN_LIFETIME_SECONDS) {
      fail("mintToken", `lifetimeSeconds must be an integer between 1 and ${MAX_TOKEN_LIFETIME_SECONDS}`);
    }
    return this.tokens.issue(request.principal, request.scopes.map(normalizeScope), lifetime).token;
  }

  /** A subject token of the sandbox's identity provider, audience = the seeded workload identity provider. */
  issueSubjectToken(subject: string): string {
    if (subject === "") fail("issueSubjectToken", "subject is required");
    const f = this.currentSeed.federation;
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    const claims = {
      iss: this.env.idpIssuer,
      sub: subject,
      aud: `https://iam.googleapis.com/projects/${f.projectNumber}/locations/global/workloadIdentityPools/${f.poolId}/providers/${f.providerId}`,
      iat: nowSeconds,
      exp: nowSeconds + DEFAULT_SUBJECT_TOKEN_LIFETIME_SECONDS,
    };
    const idp = this.options.keys.identityProvider;
    return signRs256(claims, idp.privateKey, idp.keyId);
  }

  serviceAccountKey(email: string): ServiceAccountKeyFile {
    const account = this.currentSeed.serviceAccounts.find((sa) => sa.email === email);
    if (account === undefined) fail("serviceAccountKey", `no service account '${email}' in the seed`);
    const key = this.options.keys.serviceAccountKey(email);
    return {
      type: "service_account",
      project_id: account.projectId,
      private_key_id: key.keyId,
      private_key: key.privateKey.export({ type: "pkcs8", format: "pem" }).toString(),
      client_email: email,
      client_id: account.uniqueId,
      auth_uri: "https://accounts.google.com/o/oauth2/auth",
      token_uri: `${this.endpoints.oauth2}/token`,
      auth_provider_x509_cert_url: "https://www.googleapis.com/oauth2/v1/certs",
      client_x509_cert_url: `https://www.googleapis.com/robot/v1/metadata/x509/${encodeURIComponent(email)}`,
      universe_domain: this.universeDomain,
    };
  }

  async writeCredentialsFile(dir: string, options: WriteCredentialsFileOptions = {}): Promise<string> {
    const serviceAccount =
      options.serviceAccount === undefined ? DEFAULT_IMPERSONATED_SERVICE_ACCOUNT : options.serviceAccount;
    if (serviceAccount !== null && !this.currentSeed.serviceAccounts.some((sa) => sa.email === serviceAccount)) {
      fail("writeCredentialsFile", `no service account '${serviceAccount}' in the seed`);
    }
    const f = this.currentSeed.federation;
    await mkdir(dir, { recursive: true });
    const subjectTokenPath = join(dir, "sandbox-subject-token.jwt");
    await writeFile(subjectTokenPath, this.issueSubjectToken(options.subject ?? DEFAULT_FEDERATED_SUBJECT), {
      mode: 0o600,
    });
    const file: Record<string, unknown> = {
      type: "external_account",
      audience: `//iam.googleapis.com/projects/${f.projectNumber}/locations/global/workloadIdentityPools/${f.poolId}/providers/${f.providerId}`,
      subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
      token_url: `${this.endpoints.sts}/v1/token`,
      credential_source: { file: subjectTokenPath, format: { type: "text" } },
      universe_domain: this.universeDomain,
    };
    if (serviceAccount !== null) {
      file["service_account_impersonation_url"] =
        `${this.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/${serviceAccount}:generateAccessToken`;
    }
    const path = join(dir, "sandbox-external-account.json");
    await writeFile(path, JSON.stringify(file, null, 2) + "\n", { mode: 0o600 });
    return path;
  }

  createKmsKeyVersion(name: string, algorithm: KmsAlgorithm = "EC_SIGN_P256_SHA256"): string {
    if (!KMS_KEY_VERSION_NAME.test(name)) {
      fail(
        "createKmsKeyVersion",
        `name '${name}' must be 'projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>/cryptoKeyVersions/<n>'`,
      );
    }
    if (!KMS_ALGORITHMS.includes(algorithm)) {
      fail("createKmsKeyVersion", `algorithm '${algorithm}' must be one of ${KMS_ALGORITHMS.join(", ")}`);
    }
    this.state().putKmsKeyVersion({ name, algorithm });
    return this.options.keys.kmsKey(name, algorithm).publicKey.export({ type: "spki", format: "pem" }).toString();
  }

  setParent(firewallPolicyId: string, parent: string, source: AuditEntry["source"] = "control-plane"): void {
    const state = this.state();
    const policy = state.firewallPolicy(firewallPolicyId);
    if (policy === undefined) fail("setParent", `no firewall policy '${firewallPolicyId}'`);
    const m = PARENT.exec(parent);
    if (m === null) fail("setParent", `parent '${parent}' must be 'folders/<digits>' or 'organizations/<digits>'`);
    const exists = m[1] === "folders" ? state.folderExists(m[2] ?? "") : state.organizationExists(m[2] ?? "");
    if (!exists) fail("setParent", `parent '${parent}' does not exist`);
    const from = policy.parent;
    state.setPolicyParent(firewallPolicyId, parent);
    state.record({
      timeMs: this.clock.now(),
      source,
      kind: "firewallPolicies.setParent",
      target: `firewallPolicies/${firewallPolicyId}`,
      details: { from, to: parent },
    });
  }

  putInventorySourceGroup(group: PutInventorySourceGroupRequest): void {
    const state = this.state();
    if (!/^[1-9][0-9]{0,18}$/.test(group.id)) fail("putInventorySourceGroup", `id '${group.id}' must be an int64`);
    if (typeof group.displayName !== "string" || group.displayName === "") {
      fail("putInventorySourceGroup", "displayName is required");
    }
    // Also reached from JSON on the control plane: check the owner union at run time.
    const owner = group as Partial<Record<"partnerId" | "advertiserId", unknown>>;
    const hasPartner = typeof owner.partnerId === "string";
    const hasAdvertiser = typeof owner.advertiserId === "string";
    if (hasPartner === hasAdvertiser) {
      fail("putInventorySourceGroup", "set exactly one of partnerId and advertiserId (the owner)");
    }
    if (hasPartner && !state.partnerExists(String(owner.partnerId))) {
      fail("putInventorySourceGroup", `partner '${String(owner.partnerId)}' does not exist`);
    }
    if (hasAdvertiser && state.advertiserPartner(String(owner.advertiserId)) === undefined) {
      fail("putInventorySourceGroup", `advertiser '${String(owner.advertiserId)}' does not exist`);
    }
    state.putInventorySourceGroup({
      inventorySourceGroupId: group.id,
      displayName: group.displayName,
      owner: hasPartner ? { partnerId: String(owner.partnerId) } : { advertiserId: String(owner.advertiserId) },
      sharedWithAdvertiserIds: [],
    });
    state.record({
      timeMs: this.clock.now(),
      source: "control-plane",
      kind: "inventorySourceGroups.put",
      target: `inventorySourceGroups/${group.id}`,
      details: {},
    });
  }

  createIamOperation(request: CreateIamOperationRequest): void {
    const state = this.state();
    if (!IAM_OPERATION_NAME.test(request.name)) {
      fail("createIamOperation", `name '${request.name}' must be 'folders/<id>/locations/<location>/operations/<id>'`);
    }
    if (state.iamOperation(request.name) !== undefined) fail("createIamOperation", `'${request.name}' already exists`);
    if (!Number.isFinite(request.durationMs) || request.durationMs < 0) {
      fail("createIamOperation", "durationMs must be >= 0");
    }
    const outcome: string = request.outcome; // from JSON on the control plane: not trusted to be the union
    if (outcome !== "response" && outcome !== "error") {
      fail("createIamOperation", `outcome must be "response" or "error"`);
    }
    const now = this.clock.now();
    const folder = request.name.split("/")[1] ?? "";
    const id = request.name.split("/").pop() ?? "";
    const error = request.error ?? { code: 13, message: "Internal error." };
    if (!Number.isInteger(error.code) || error.code < 1 || error.code > 16) {
      fail("createIamOperation", "error.code must be a google.rpc.Code number (1..16)");
    }
    state.addIamOperation({
      name: request.name,
      verb: "create",
      target: `folders/${folder}/locations/global/policyBindings/binding-${id}`,
      startMs: now,
      durationMs: request.durationMs,
      outcome:
        request.outcome === "error"
          ? { kind: "error", error }
          : {
              kind: "response",
              response: {
                name: `folders/${folder}/locations/global/policyBindings/binding-${id}`,
                uid: `${id}-uid`,
                etag: 'W/"sandbox"',
                target: { resource: `//cloudresourcemanager.googleapis.com/folders/${folder}` },
                policyKind: "ACCESS",
                policy: `folders/${folder}/locations/global/accessPolicies/sandbox-access-policy`,
                createTime: protoTimestamp(now),
                updateTime: protoTimestamp(now + request.durationMs),
              },
            },
    });
    state.record({
      timeMs: now,
      source: "control-plane",
      kind: "iamOperations.create",
      target: request.name,
      details: {},
    });
  }
}
