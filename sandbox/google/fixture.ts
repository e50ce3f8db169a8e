/**
 * The built-in world of the sandbox. Ids are int64/uint64 written as decimal strings. Tests and the client's
 * integration tests may rely on every id and name below; change them only together with those tests.
 */
import { FIXTURE_CREATIVES } from "./fixture-creatives";
import type { SandboxSeed } from "./seed-types";

export const FIXTURE_PROJECT = "sandbox-project";
export const FIXTURE_ORGANIZATION_ID = "100000000001";
/** Folders: Engineering (under the organization), Security (under the organization), Platform (under Engineering). */
export const FIXTURE_FOLDER_IDS = {
  engineering: "200000000001",
  security: "200000000002",
  platform: "200000000003",
} as const;
/** Firewall policy ids by shortName. */
export const FIXTURE_FIREWALL_POLICY_IDS = {
  baselineEgress: "700000000001",
  engineeringIngress: "700000000002",
  securityLockdown: "700000000003",
  platformDefault: "700000000004",
} as const;
export const DEPLOYER = "deployer@sandbox-project.iam.gserviceaccount.com";
export const READER = "reader@sandbox-project.iam.gserviceaccount.com";
export const FIXTURE_USER = "alice@sandbox.example.com";
export const FIXTURE_OAUTH_CLIENT = {
  clientId: "764086051850-sandbox.apps.googleusercontent.com",
  clientSecret: "sandbox-client-secret",
  refreshToken: "1//sandbox-refresh-token-alice",
} as const;
export const FIXTURE_FEDERATION = {
  projectNumber: "123456789012",
  poolId: "sandbox-pool",
  providerId: "sandbox-idp",
} as const;
export const FIXTURE_PARTNERS = { primary: "1001", other: "1002" } as const;
/** 2001 and 2002 belong to partner 1001; 2003 belongs to partner 1002. */
export const FIXTURE_ADVERTISERS = { a: "2001", b: "2002", c: "2003" } as const;
/**
 * 5001: owned by partner 1001, shared with advertiser 2001. 5002: owned by advertiser 2001. 5003: owned by
 * partner 1002. 5004: owned by advertiser 2003. 5005: owned by partner 1001 (free to delete in tests).
 */
export const FIXTURE_INVENTORY_SOURCE_GROUPS = {
  partnerOwned: "5001",
  advertiserOwned: "5002",
  otherPartnerOwned: "5003",
  otherAdvertiserOwned: "5004",
  spare: "5005",
} as const;
const IAM_OPERATIONS_PREFIX = `folders/${FIXTURE_FOLDER_IDS.engineering}/locations/global/operations`;
export const FIXTURE_IAM_OPERATIONS = {
  done: `${IAM_OPERATIONS_PREFIX}/op-binding-created`,
  failed: `${IAM_OPERATIONS_PREFIX}/op-binding-failed`,
  /** Finishes 30 s after the seed is loaded. */
  running: `${IAM_OPERATIONS_PREFIX}/op-binding-pending`,
} as const;
export const FIXTURE_RUNNING_IAM_OPERATION_DURATION_MS = 30_000;
/** Cloud KMS: one EC_SIGN_P256_SHA256 key for a Fabric identity. The deployer may sign with it; the reader may only
 * read its public key. The key pair is generated when the sandbox starts. */
export const FIXTURE_KMS_CRYPTO_KEY = `projects/${FIXTURE_PROJECT}/locations/global/keyRings/fabric/cryptoKeys/org1-deployer`;
export const FIXTURE_KMS_KEY_VERSION = `${FIXTURE_KMS_CRYPTO_KEY}/cryptoKeyVersions/1`;

const federatedPool = `iam.googleapis.com/projects/${FIXTURE_FEDERATION.projectNumber}/locations/global/workloadIdentityPools/${FIXTURE_FEDERATION.poolId}/`;

function binding(id: string, folder: string) {
  return {
    name: `folders/${folder}/locations/global/policyBindings/${id}`,
    uid: `b1f0c2d4-5e6f-4a7b-8c9d-${id.length.toString().padStart(12, "0")}`,
    etag: 'W/"a1b2c3"',
    displayName: `Binding ${id}`,
    target: { resource: `//cloudresourcemanager.googleapis.com/folders/${folder}` },
    policyKind: "ACCESS" as const,
    policy: `folders/${folder}/locations/global/accessPolicies/deny-external-sharing`,
    policyUid: "5c0ffee0-0000-4000-8000-000000000001",
    createTime: "2026-01-01T00:00:05Z",
    updateTime: "2026-01-01T00:00:05Z",
  };
}

/** Freezes a value and everything it holds, so no test can change the built-in fixture by accident. */
function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

export const DEFAULT_SEED: SandboxSeed = deepFreeze({
  organizations: [{ id: FIXTURE_ORGANIZATION_ID, displayName: "sandbox.example.com" }],
  folders: [
    {
      id: FIXTURE_FOLDER_IDS.engineering,
      displayName: "Engineering",
      parent: `organizations/${FIXTURE_ORGANIZATION_ID}`,
    },
    { id: FIXTURE_FOLDER_IDS.security, displayName: "Security", parent: `organizations/${FIXTURE_ORGANIZATION_ID}` },
    { id: FIXTURE_FOLDER_IDS.platform, displayName: "Platform", parent: `folders/${FIXTURE_FOLDER_IDS.engineering}` },
  ],
  firewallPolicies: [
    {
      id: FIXTURE_FIREWALL_POLICY_IDS.baselineEgress,
      shortName: "baseline-egress",
      description: "Organization-wide egress baseline",
      parent: `organizations/${FIXTURE_ORGANIZATION_ID}`,
      creationTimestamp: "2025-06-01T09:00:00.000-07:00",
    },
    {
      id: FIXTURE_FIREWALL_POLICY_IDS.engineeringIngress,
      shortName: "engineering-ingress",
      description: "Ingress rules for engineering workloads",
      parent: `folders/${FIXTURE_FOLDER_IDS.engineering}`,
      creationTimestamp: "2025-06-02T09:00:00.000-07:00",
    },
    {
      id: FIXTURE_FIREWALL_POLICY_IDS.securityLockdown,
      shortName: "security-lockdown",
      parent: `folders/${FIXTURE_FOLDER_IDS.security}`,
      creationTimestamp: "2025-06-03T09:00:00.000-07:00",
    },
    {
      id: FIXTURE_FIREWALL_POLICY_IDS.platformDefault,
      shortName: "platform-default",
      description: "Defaults for the platform folder",
      parent: `folders/${FIXTURE_FOLDER_IDS.platform}`,
      creationTimestamp: "2025-06-04T09:00:00.000-07:00",
    },
  ],
  workforcePools: [
    {
      name: "locations/global/workforcePools/sandbox-contractors",
      parent: `organizations/${FIXTURE_ORGANIZATION_ID}`,
      policy: {
        version: 1,
        bindings: [
          { role: "roles/iam.workforcePoolAdmin", members: [`user:${FIXTURE_USER}`] },
          {
            role: "roles/iam.workforcePoolViewer",
            members: [`serviceAccount:${READER}`, "group:auditors@sandbox.example.com"],
          },
        ],
        etag: "BwYYWYVgLmo=",
      },
    },
    {
      name: "locations/global/workforcePools/sandbox-partners",
      parent: `organizations/${FIXTURE_ORGANIZATION_ID}`,
      policy: {
        version: 3,
        bindings: [
          { role: "roles/iam.workforcePoolAdmin", members: [`serviceAccount:${DEPLOYER}`] },
          {
            role: "roles/iam.workforcePoolViewer",
            members: ["principalSet://iam.googleapis.com/locations/global/workforcePools/sandbox-partners/*"],
            condition: {
              title: "until-2027",
              description: "Partner access expires at the start of 2027",
              expression: 'request.time < timestamp("2027-01-01T00:00:00Z")',
            },
          },
        ],
        auditConfigs: [
          { service: "allServices", auditLogConfigs: [{ logType: "ADMIN_READ" }, { logType: "DATA_WRITE" }] },
        ],
        etag: "BwYYWZ3p8Xk=",
      },
    },
    {
      name: "locations/global/workforcePools/sandbox-empty",
      parent: `organizations/${FIXTURE_ORGANIZATION_ID}`,
      policy: { version: 1, bindings: [], etag: "ACAB" },
    },
  ],
  iamOperations: [
    {
      name: FIXTURE_IAM_OPERATIONS.done,
      verb: "create",
      target: `folders/${FIXTURE_FOLDER_IDS.engineering}/locations/global/policyBindings/deny-external-sharing`,
      startedAgoMs: 60_000,
      durationMs: 5_000,
      outcome: { kind: "response", response: binding("deny-external-sharing", FIXTURE_FOLDER_IDS.engineering) },
    },
    {
      name: FIXTURE_IAM_OPERATIONS.failed,
      verb: "create",
      target: `folders/${FIXTURE_FOLDER_IDS.engineering}/locations/global/policyBindings/too-many`,
      startedAgoMs: 120_000,
      durationMs: 10_000,
      outcome: {
        kind: "error",
        error: { code: 9, message: "The folder already has the maximum number of policy bindings (500)." },
      },
    },
    {
      name: FIXTURE_IAM_OPERATIONS.running,
      verb: "create",
      target: `folders/${FIXTURE_FOLDER_IDS.engineering}/locations/global/policyBindings/restrict-regions`,
      durationMs: FIXTURE_RUNNING_IAM_OPERATION_DURATION_MS,
      outcome: { kind: "response", response: binding("restrict-regions", FIXTURE_FOLDER_IDS.engineering) },
    },
  ],
  deployments: [
    {
      project: FIXTURE_PROJECT,
      id: "4811234567890123456",
      name: "web-stack",
      description: "Frontend and load balancer",
      fingerprint: "Xc2x7ZqPmkk=",
      manifest: "manifest-1767225600000",
      insertTime: "2025-12-31T16:00:00.000-08:00",
      updateTime: "2025-12-31T16:05:00.000-08:00",
      labels: [
        { key: "env", value: "sandbox" },
        { key: "team", value: "web" },
      ],
      lastOperation: {
        id: "7712345678901234567",
        name: "operation-1767225600000-5f2a1b3c4d5e6-7a8b9c0d-1e2f3a4b",
        operationType: "insert",
        user: DEPLOYER,
        insertTime: "2025-12-31T16:00:00.000-08:00",
        startTime: "2025-12-31T16:00:01.000-08:00",
        endTime: "2025-12-31T16:05:00.000-08:00",
      },
    },
    {
      project: FIXTURE_PROJECT,
      id: "4811234567890123999",
      name: "data-pipeline",
      fingerprint: "pQ1f8Yx2b0c=",
      insertTime: "2025-11-15T08:30:00.000-08:00",
      labels: [],
      lastOperation: {
        id: "7712345678901239999",
        name: "operation-1763224200000-6a7b8c9d0e1f2-3a4b5c6d-7e8f9a0b",
        operationType: "insert",
        user: FIXTURE_USER,
        insertTime: "2025-11-15T08:30:00.000-08:00",
        startTime: "2025-11-15T08:30:02.000-08:00",
        endTime: "2025-11-15T08:34:10.000-08:00",
      },
    },
  ],
  subscriptions: [
    {
      name: "subscriptions/chat-spaces-sandbox",
      uid: "0f5f7a52-3c1e-4b8a-9d2e-6f1a2b3c4d5e",
      targetResource: "//chat.googleapis.com/spaces/AAAAsandbox",
      eventTypes: ["google.workspace.chat.message.v1.created", "google.workspace.chat.message.v1.updated"],
      payloadOptions: { includeResource: true, fieldMask: "message.text,message.sender" },
      notificationEndpoint: { pubsubTopic: "projects/sandbox-project/topics/chat-events" },
      state: "ACTIVE",
      authority: "users/112233445566778899001",
      createTime: "2026-01-01T00:00:00Z",
      updateTime: "2026-01-01T00:00:00Z",
      expireTime: "2026-01-01T04:00:00Z",
      etag: '"sandbox-etag-1"',
    },
    {
      name: "subscriptions/meet-sandbox-suspended",
      uid: "7c9e6679-7425-40de-944b-e07fc1f90ae7",
      targetResource: "//meet.googleapis.com/spaces/sandbox-meet",
      eventTypes: ["google.workspace.meet.conference.v2.started"],
      notificationEndpoint: { pubsubTopic: "projects/sandbox-project/topics/meet-events" },
      state: "SUSPENDED",
      suspensionReason: "USER_AUTHORIZATION_FAILURE",
      authority: "users/112233445566778899002",
      createTime: "2025-12-30T10:00:00Z",
      updateTime: "2025-12-31T10:00:00Z",
      expireTime: "2026-01-06T10:00:00Z",
      etag: '"sandbox-etag-2"',
    },
  ],
  partners: [
    { partnerId: FIXTURE_PARTNERS.primary, displayName: "Sandbox Media Partner" },
    { partnerId: FIXTURE_PARTNERS.other, displayName: "Other Partner" },
  ],
  advertisers: [
    { advertiserId: FIXTURE_ADVERTISERS.a, partnerId: FIXTURE_PARTNERS.primary, displayName: "Advertiser A" },
    { advertiserId: FIXTURE_ADVERTISERS.b, partnerId: FIXTURE_PARTNERS.primary, displayName: "Advertiser B" },
    { advertiserId: FIXTURE_ADVERTISERS.c, partnerId: FIXTURE_PARTNERS.other, displayName: "Advertiser C" },
  ],
  inventorySourceGroups: [
    {
      inventorySourceGroupId: FIXTURE_INVENTORY_SOURCE_GROUPS.partnerOwned,
      displayName: "Premium video supply",
      owner: { partnerId: FIXTURE_PARTNERS.primary },
      sharedWithAdvertiserIds: [FIXTURE_ADVERTISERS.a],
    },
    {
      inventorySourceGroupId: FIXTURE_INVENTORY_SOURCE_GROUPS.advertiserOwned,
      displayName: "Advertiser A deals",
      owner: { advertiserId: FIXTURE_ADVERTISERS.a },
    },
    {
      inventorySourceGroupId: FIXTURE_INVENTORY_SOURCE_GROUPS.otherPartnerOwned,
      displayName: "Other partner supply",
      owner: { partnerId: FIXTURE_PARTNERS.other },
    },
    {
      inventorySourceGroupId: FIXTURE_INVENTORY_SOURCE_GROUPS.otherAdvertiserOwned,
      displayName: "Advertiser C deals",
      owner: { advertiserId: FIXTURE_ADVERTISERS.c },
    },
    {
      inventorySourceGroupId: FIXTURE_INVENTORY_SOURCE_GROUPS.spare,
      displayName: "Retired display supply",
      owner: { partnerId: FIXTURE_PARTNERS.primary },
    },
  ],
  creatives: FIXTURE_CREATIVES,
  serviceAccounts: [
    { email: DEPLOYER, projectId: FIXTURE_PROJECT, uniqueId: "104000000000000000001" },
    { email: READER, projectId: FIXTURE_PROJECT, uniqueId: "104000000000000000002" },
  ],
  grants: [
    { principal: DEPLOYER, permission: "compute.firewallPolicies.move" },
    { principal: DEPLOYER, permission: "compute.firewallPolicies.get" },
    { principal: READER, permission: "compute.firewallPolicies.get" },
    // Both may bill the sandbox project's quota (x-goog-user-project); any other project is USER_PROJECT_DENIED.
    { principal: DEPLOYER, permission: "serviceusage.services.use", resource: `projects/${FIXTURE_PROJECT}` },
    { principal: READER, permission: "serviceusage.services.use", resource: `projects/${FIXTURE_PROJECT}` },
    { principal: DEPLOYER, permission: "cloudkms.cryptoKeyVersions.useToSign", resource: FIXTURE_KMS_CRYPTO_KEY },
    { principal: DEPLOYER, permission: "cloudkms.cryptoKeyVersions.viewPublicKey", resource: FIXTURE_KMS_CRYPTO_KEY },
    { principal: READER, permission: "cloudkms.cryptoKeyVersions.viewPublicKey", resource: FIXTURE_KMS_CRYPTO_KEY },
    {
      principal: FIXTURE_USER,
      permission: "iam.serviceAccounts.getAccessToken",
      resource: `projects/-/serviceAccounts/${READER}`,
    },
    { principal: `principalSet://${federatedPool}*`, permission: "iam.serviceAccounts.getAccessToken" },
  ],
  oauthClients: [
    {
      clientId: FIXTURE_OAUTH_CLIENT.clientId,
      clientSecret: FIXTURE_OAUTH_CLIENT.clientSecret,
      refreshTokens: [
        {
          refreshToken: FIXTURE_OAUTH_CLIENT.refreshToken,
          principal: FIXTURE_USER,
          scopes: [
            "https://www.googleapis.com/auth/cloud-platform",
            "https://www.googleapis.com/auth/compute.readonly",
          ],
        },
      ],
    },
  ],
  federation: FIXTURE_FEDERATION,
  kmsKeyVersions: [{ name: FIXTURE_KMS_KEY_VERSION, algorithm: "EC_SIGN_P256_SHA256" }],
});
