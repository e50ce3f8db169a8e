/**
 * The sandbox world of the explicit-provider e2e tests: the default fixture plus a second organization (its own
 * folder, firewall policy and workforce pool), and two service accounts each granted its permissions on its own
 * organization only, so the sandbox answers each in its organization and refuses it the other's objects
 * (sandbox/README.md, "Organizations").
 */
import { DEFAULT_SEED, fixture } from "../../sandbox/google";
import type { GoogleSandbox, SandboxSeed } from "../../sandbox/google";

export const ORG_A = fixture.FIXTURE_ORGANIZATION_ID;
export const ORG_B = "100000000002";
export const ORG_B_FOLDER = "folders/200000000020";
export const ORG_B_POLICY = "700000000020";
export const ORG_A_POOL = "sandbox-contractors";
export const ORG_B_POOL = "b-contractors";
/** The etags of the two pools' policies (what a read returns). */
export const POOL_ETAGS = { a: "BwYYWYVgLmo=", b: "BwB=" } as const;
export const SA_A = "org-a-deployer@sandbox-project.iam.gserviceaccount.com";
export const SA_B = "org-b-deployer@sandbox-project.iam.gserviceaccount.com";
export const SCOPES = ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`);

/** What each service account may do in its own organization (grants on `organizations/<id>`, inherited). */
const PERMISSIONS = [
  "compute.firewallPolicies.get",
  "compute.firewallPolicies.move",
  "iam.workforcePools.getIamPolicy",
];

export const TWO_ORGANIZATIONS_SEED: SandboxSeed = {
  ...DEFAULT_SEED,
  organizations: [...DEFAULT_SEED.organizations, { id: ORG_B, displayName: "b.example.com" }],
  folders: [
    ...DEFAULT_SEED.folders,
    { id: ORG_B_FOLDER.slice("folders/".length), displayName: "B Security", parent: `organizations/${ORG_B}` },
  ],
  firewallPolicies: [
    ...DEFAULT_SEED.firewallPolicies,
    {
      id: ORG_B_POLICY,
      shortName: "b-ingress",
      parent: `organizations/${ORG_B}`,
      creationTimestamp: "2025-06-05T09:00:00.000-07:00",
    },
  ],
  workforcePools: [
    ...DEFAULT_SEED.workforcePools,
    {
      name: `locations/global/workforcePools/${ORG_B_POOL}`,
      parent: `organizations/${ORG_B}`,
      policy: { version: 1, bindings: [], etag: POOL_ETAGS.b },
    },
  ],
  serviceAccounts: [
    ...DEFAULT_SEED.serviceAccounts,
    { email: SA_A, projectId: "sandbox-project", uniqueId: "104000000000000000011" },
    { email: SA_B, projectId: "sandbox-project", uniqueId: "104000000000000000012" },
  ],
  grants: [
    ...DEFAULT_SEED.grants,
    ...PERMISSIONS.map((permission) => ({ principal: SA_A, permission, resource: `organizations/${ORG_A}` })),
    ...PERMISSIONS.map((permission) => ({ principal: SA_B, permission, resource: `organizations/${ORG_B}` })),
  ],
};

/** Each distinct [principal, pool, status] of the sandbox's workforce pool reads, sorted. */
export function poolReads(sandbox: GoogleSandbox): string[][] {
  const reads = sandbox
    .requests()
    .filter((r) => r.route === "iam.workforcePools.getIamPolicy")
    .map((r) => [
      r.principal ?? "none",
      (r.path.split("/").at(-1) ?? "").replace(/:getIamPolicy$/, ""),
      String(r.status),
    ]);
  return [...new Set(reads.map((r) => JSON.stringify(r)))].map((r) => JSON.parse(r) as string[]).sort();
}

/** The successful moves as [principal, policy, parent], sorted. */
export function moves(sandbox: GoogleSandbox): string[][] {
  return sandbox
    .requests()
    .filter((r) => r.route === "compute.firewallPolicies.move" && r.status === 200)
    .map((r) => [r.principal ?? "none", decodeURIComponent(r.path.split("/").at(-2) ?? ""), r.query["parentId"] ?? ""])
    .sort();
}
