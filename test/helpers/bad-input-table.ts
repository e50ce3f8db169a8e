/**
 * The bad-input table: inputs each Google endpoint refuses before any request, with the exact field-and-fix failures.
 * test/integration/google/bad-input.test.ts runs every row through the Google client; test/integration/plugin/
 * check-bad-input.test.ts runs the rows a resource or function of the plugin takes through its Check or Invoke.
 */
import type { EndpointId } from "../../provider/google/endpoint-types";

const UUID = "3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f";
const FP = "a numeric firewall policy id, 'firewallPolicies/<id>' or 'locations/global/firewallPolicies/<id>'";
const PARENT = "'folders/<digits>' or 'organizations/<digits>'";
const UUID_EXPECTED = "a UUID such as '3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f' (crypto.randomUUID())";
const INT64 = "an int64 decimal string (digits only, no sign or leading zeros, at most 9223372036854775807)";
const POOL = "'locations/<location>/workforcePools/<pool>'";
const IAM_OP = "'folders/<folder>/locations/<location>/operations/<operation>'";
const SUB = "'subscriptions/<subscription>'";
const OP =
  "an operation name (a lowercase letter, then up to 62 lowercase letters, digits or hyphens) or a numeric operation id";
const PROJECT = "a project id like 'my-project', a project number, or a domain-scoped id like 'example.com:my-project'";
const DEPLOYMENT =
  "a deployment name: a lowercase letter, then up to 62 lowercase letters, digits or hyphens, not ending in a hyphen";
const OWNER = "exactly one of partnerId or advertiserId must be set (the owner of the group)";

/** One row: an endpoint, its parameters, and the failures the client refuses them with. */
export interface BadInput {
  readonly id: EndpointId;
  readonly params: unknown;
  /** The failures after "<id>: invalid input: ". */
  readonly failures: string;
}

const MOVE_OK = { firewallPolicy: "700000000001", parentId: "folders/200000000002", requestId: UUID };
const ISG = "displayvideo.inventorySourceGroups.delete";
const SIGN = "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.asymmetricSign";
const KEY_VERSION =
  "'projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>/cryptoKeyVersions/<number>'";
const SIGN_OK = {
  name: "projects/p/locations/global/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1",
  digest: { sha256: Buffer.alloc(32).toString("base64") },
  digestCrc32c: "0",
};

/** Every row. */
export const CASES: readonly BadInput[] = [
  // iam.workforcePools.getIamPolicy
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "workforcePools/p" },
    failures: `resource: 'workforcePools/p' must be ${POOL}`,
  },
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "projects/p/locations/global/workforcePools/x" },
    failures: `resource: 'projects/p/locations/global/workforcePools/x' must be ${POOL}`,
  },
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "locations/global/workforcePools/" },
    failures: `resource: 'locations/global/workforcePools/' must be ${POOL}`,
  },
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "locations/global/workforcePools/p", options: { requestedPolicyVersion: 2 } },
    failures: "options.requestedPolicyVersion: 2 must be 0, 1 or 3",
  },
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "locations/global/workforcePools/p", options: { requestedPolicyVersion: "3" } },
    failures: "options.requestedPolicyVersion: must be 0, 1 or 3, got string",
  },
  {
    id: "iam.workforcePools.getIamPolicy",
    params: { resource: "locations/global/workforcePools/p", options: { version: 3 } },
    failures: "options: has unknown field 'version'; GetPolicyOptions has only requestedPolicyVersion",
  },
  { id: "iam.workforcePools.getIamPolicy", params: {}, failures: `resource: is required: ${POOL}` },
  // iam.operations.get
  {
    id: "iam.operations.get",
    params: { name: "projects/p/locations/global/operations/o" },
    failures: `name: 'projects/p/locations/global/operations/o' must be ${IAM_OP}`,
  },
  {
    id: "iam.operations.get",
    params: { name: "folders/1/locations/global/operations" },
    failures: `name: 'folders/1/locations/global/operations' must be ${IAM_OP}`,
  },
  {
    id: "iam.operations.get",
    params: { name: "folders/1/locations/global/operations/a/b" },
    failures: `name: 'folders/1/locations/global/operations/a/b' must be ${IAM_OP}`,
  },
  { id: "iam.operations.get", params: { name: 42 }, failures: `name: must be a string ${IAM_OP}, got number` },
  // compute.firewallPolicies.move
  {
    id: "compute.firewallPolicies.move",
    params: { ...MOVE_OK, firewallPolicy: "abc" },
    failures: `firewallPolicy: 'abc' must be ${FP}`,
  },
  {
    id: "compute.firewallPolicies.move",
    params: { ...MOVE_OK, firewallPolicy: "projects/p/global/firewallPolicies/1" },
    failures: `firewallPolicy: 'projects/p/global/firewallPolicies/1' must be ${FP}`,
  },
  {
    id: "compute.firewallPolicies.move",
    params: { ...MOVE_OK, parentId: "folder/9" },
    failures: `parentId: 'folder/9' must be ${PARENT}`,
  },
  {
    id: "compute.firewallPolicies.move",
    params: { ...MOVE_OK, parentId: "organizations/abc" },
    failures: `parentId: 'organizations/abc' must be ${PARENT}`,
  },
  {
    id: "compute.firewallPolicies.move",
    params: { ...MOVE_OK, parentId: "folders/" },
    failures: `parentId: 'folders/' must be ${PARENT}`,
  },
  {
    id: "compute.firewallPolicies.move",
    params: { ...MOVE_OK, requestId: "not-a-uuid" },
    failures: `requestId: 'not-a-uuid' must be ${UUID_EXPECTED}`,
  },
  {
    id: "compute.firewallPolicies.move",
    params: { ...MOVE_OK, requestId: "00000000-0000-0000-0000-000000000000" },
    failures:
      "requestId: '00000000-0000-0000-0000-000000000000' is the zero UUID, which Google rejects: use a random UUID",
  },
  {
    id: "compute.firewallPolicies.move",
    params: { firewallPolicy: "700000000001", parentId: "folders/200000000002" },
    failures: "requestId: is required: a UUID, e.g. from crypto.randomUUID()",
  },
  {
    id: "compute.firewallPolicies.move",
    params: { firewallPolicy: "x", parentId: "y", requestId: "z" },
    failures: `firewallPolicy: 'x' must be ${FP}; parentId: 'y' must be ${PARENT}; requestId: 'z' must be ${UUID_EXPECTED}`,
  },
  {
    id: "compute.firewallPolicies.move",
    params: { firewallPolicy: "700000000001", parentID: "folders/1", requestId: UUID },
    failures:
      "parentID: is not a parameter of compute.firewallPolicies.move (expected: firewallPolicy, parentId, requestId); " +
      `parentId: is required: ${PARENT}`,
  },
  // compute.firewallPolicies.get
  { id: "compute.firewallPolicies.get", params: { firewallPolicy: "" }, failures: `firewallPolicy: '' must be ${FP}` },
  {
    id: "compute.firewallPolicies.get",
    params: { firewallPolicy: 123 },
    failures: `firewallPolicy: must be a string: ${FP}, got number`,
  },
  {
    id: "compute.firewallPolicies.get",
    params: { firewallPolicy: "123456789012345678901" },
    failures: `firewallPolicy: '123456789012345678901' must be ${FP}`,
  },
  // compute.globalOrganizationOperations.get
  {
    id: "compute.globalOrganizationOperations.get",
    params: { operation: "Operation_1" },
    failures: `operation: 'Operation_1' must be ${OP}`,
  },
  {
    id: "compute.globalOrganizationOperations.get",
    params: { operation: "op-" },
    failures: `operation: 'op-' must be ${OP}`,
  },
  {
    id: "compute.globalOrganizationOperations.get",
    params: { operation: "https://compute.googleapis.com/compute/v1/locations/global/operations/op-1" },
    failures: `operation: 'https://compute.googleapis.com/compute/v1/locations/global/operations/op-1' must be ${OP}`,
  },
  {
    id: "compute.globalOrganizationOperations.get",
    params: { operation: "op-1", parentId: "folder/1" },
    failures: `parentId: 'folder/1' must be ${PARENT}`,
  },
  // deploymentmanager.deployments.get
  {
    id: "deploymentmanager.deployments.get",
    params: { project: "My_Project", deployment: "web-stack" },
    failures: `project: 'My_Project' must be ${PROJECT}`,
  },
  {
    id: "deploymentmanager.deployments.get",
    params: { project: "", deployment: "web-stack" },
    failures: `project: '' must be ${PROJECT}`,
  },
  {
    id: "deploymentmanager.deployments.get",
    params: { project: "sandbox-project", deployment: "Web-Stack" },
    failures: `deployment: 'Web-Stack' must be ${DEPLOYMENT}`,
  },
  {
    id: "deploymentmanager.deployments.get",
    params: { project: "sandbox-project", deployment: "web-stack-" },
    failures: `deployment: 'web-stack-' must be ${DEPLOYMENT}`,
  },
  // workspaceevents.subscriptions.get
  {
    id: "workspaceevents.subscriptions.get",
    params: { name: "chat-spaces-sandbox" },
    failures: `name: 'chat-spaces-sandbox' must be ${SUB}`,
  },
  {
    id: "workspaceevents.subscriptions.get",
    params: { name: "subscriptions/a/b" },
    failures: `name: 'subscriptions/a/b' must be ${SUB}`,
  },
  {
    id: "workspaceevents.subscriptions.get",
    params: { name: "subscriptions/.." },
    failures: `name: 'subscriptions/..' must be ${SUB}`,
  },
  // displayvideo.inventorySourceGroups.delete
  {
    id: ISG,
    params: { inventorySourceGroupId: "5001", partnerId: "1001", advertiserId: "2001" },
    failures: `partnerId: ${OWNER}, got both`,
  },
  { id: ISG, params: { inventorySourceGroupId: "5001" }, failures: `partnerId: ${OWNER}, got neither` },
  {
    id: ISG,
    params: { inventorySourceGroupId: "-5", partnerId: "1001" },
    failures: `inventorySourceGroupId: '-5' must be ${INT64}`,
  },
  {
    id: ISG,
    params: { inventorySourceGroupId: "05001", partnerId: "1001" },
    failures: `inventorySourceGroupId: '05001' must be ${INT64}`,
  },
  {
    id: ISG,
    params: { inventorySourceGroupId: "5001", partnerId: "9223372036854775808" },
    failures: `partnerId: '9223372036854775808' must be ${INT64}`,
  },
  {
    id: ISG,
    params: { inventorySourceGroupId: "5001", partnerId: "1001", apiVersion: "v5" },
    failures: "apiVersion: 'v5' must be one of v1, v2, v3, v4",
  },
  {
    id: ISG,
    params: { inventorySourceGroupId: "5001", partnerId: 1001 },
    failures: `partnerId: must be a string: ${INT64}; got number (numbers lose precision above 2^53)`,
  },
  // displayvideo.inventorySourceGroups.get
  {
    id: "displayvideo.inventorySourceGroups.get",
    params: { inventorySourceGroupId: "5001", advertiserId: "2001.0" },
    failures: `advertiserId: '2001.0' must be ${INT64}`,
  },
  {
    id: "displayvideo.inventorySourceGroups.get",
    params: { partnerId: "1001" },
    failures: "inventorySourceGroupId: is required: an int64 decimal string",
  },
  // displayvideo.advertisers.creatives.get
  {
    id: "displayvideo.advertisers.creatives.get",
    params: { advertiserId: "abc", creativeId: "7001" },
    failures: `advertiserId: 'abc' must be ${INT64}`,
  },
  {
    id: "displayvideo.advertisers.creatives.get",
    params: { advertiserId: "2001", creativeId: "+7001" },
    failures: `creativeId: '+7001' must be ${INT64}`,
  },
  {
    id: "displayvideo.advertisers.creatives.get",
    params: { advertiserId: "2001", creativeId: "7001", apiVersion: "V4" },
    failures: "apiVersion: 'V4' must be one of v1, v2, v3, v4",
  },
  // cloudkms ... cryptoKeyVersions.asymmetricSign
  {
    id: SIGN,
    params: { ...SIGN_OK, name: "projects/p/locations/global/keyRings/r/cryptoKeys/k" },
    failures: `name: 'projects/p/locations/global/keyRings/r/cryptoKeys/k' must be ${KEY_VERSION}`,
  },
  {
    id: SIGN,
    params: { ...SIGN_OK, name: "projects/p/locations/global/keyRings/r/cryptoKeys/k/cryptoKeyVersions/0" },
    failures: `name: 'projects/p/locations/global/keyRings/r/cryptoKeys/k/cryptoKeyVersions/0' must be ${KEY_VERSION}`,
  },
  {
    id: SIGN,
    params: { ...SIGN_OK, digest: { sha256: Buffer.alloc(20).toString("base64") } },
    failures: "digest.sha256: must be the base64 text of a 32-byte SHA-256 digest",
  },
  {
    id: SIGN,
    params: { ...SIGN_OK, digest: { sha512: Buffer.alloc(64).toString("base64") } },
    failures:
      "digest: has 'sha512': only sha256 (EC_SIGN_P256_SHA256 keys) and sha384 (EC_SIGN_P384_SHA384 keys) are supported",
  },
  {
    id: SIGN,
    params: { ...SIGN_OK, digest: { sha384: Buffer.alloc(32).toString("base64") } },
    failures: "digest.sha384: must be the base64 text of a 48-byte SHA-384 digest",
  },
  {
    id: SIGN,
    params: { ...SIGN_OK, data: "aGVsbG8=", dataCrc32c: "0" },
    failures: "digest: exactly one of digest (ECDSA keys) or data (EC_SIGN_ED25519 keys) must be set, got both",
  },
  {
    id: SIGN,
    params: { ...SIGN_OK, digestCrc32c: "4294967296" },
    failures: "digestCrc32c: '4294967296' must be a CRC32C checksum as a decimal string from 0 to 4294967295",
  },
  {
    id: SIGN,
    params: { name: SIGN_OK.name, digest: SIGN_OK.digest },
    failures: "digestCrc32c: is required with digest: the CRC32C of its bytes",
  },
  // cloudkms ... cryptoKeyVersions.getPublicKey
  {
    id: "cloudkms.projects.locations.keyRings.cryptoKeys.cryptoKeyVersions.getPublicKey",
    params: { name: "projects/p/locations/global/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1/publicKey" },
    failures: `name: 'projects/p/locations/global/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1/publi...' must be ${KEY_VERSION}`,
  },
];
