/**
 * Reads scoped by organization: two service accounts bound each to its own organization (grants on
 * `organizations/<id>`) read their own organization's firewall policies, workforce pools and IAM folder operations,
 * move its policies through the inherited grant, and get Google's refusal, word for word, for the other's objects.
 * The fixture's principals (unscoped grants) still read everything.
 */
import assert from "node:assert/strict";
import {
  DEFAULT_SEED,
  fixture,
  startGoogleSandbox,
  type GoogleSandbox,
  type SandboxSeed,
} from "../../../sandbox/google";
import { parseSeed } from "../../../sandbox/google/seed-parse";
import { call, DEPLOYER, forbiddenBody, moveUrl, str, token } from "./helpers";

const ORG_A = fixture.FIXTURE_ORGANIZATION_ID;
const ORG_B = "100000000002";
const B_FOLDER = "200000000020";
const A_POLICY = fixture.FIXTURE_FIREWALL_POLICY_IDS.securityLockdown;
const B_POLICY = "700000000020";
const A_POOL = "sandbox-contractors";
const B_POOL = "b-contractors";
const A_OPERATION = fixture.FIXTURE_IAM_OPERATIONS.done;
const B_OPERATION = `folders/${B_FOLDER}/locations/global/operations/op-b-binding`;
const SA_A = "org-a-deployer@sandbox-project.iam.gserviceaccount.com";
const SA_B = "org-b-deployer@sandbox-project.iam.gserviceaccount.com";
const PERMISSIONS = [
  "compute.firewallPolicies.get",
  "compute.firewallPolicies.move",
  "iam.workforcePools.getIamPolicy",
  "iam.operations.get",
];
const done = DEFAULT_SEED.iamOperations.find((op) => op.name === A_OPERATION);
assert.ok(done !== undefined, "the fixture's finished IAM operation");

const SEED: SandboxSeed = {
  ...DEFAULT_SEED,
  organizations: [...DEFAULT_SEED.organizations, { id: ORG_B, displayName: "b.example.com" }],
  folders: [...DEFAULT_SEED.folders, { id: B_FOLDER, displayName: "B Security", parent: `organizations/${ORG_B}` }],
  firewallPolicies: [
    ...DEFAULT_SEED.firewallPolicies,
    {
      id: B_POLICY,
      shortName: "b-ingress",
      parent: `organizations/${ORG_B}`,
      creationTimestamp: "2025-06-05T09:00:00Z",
    },
  ],
  workforcePools: [
    ...DEFAULT_SEED.workforcePools,
    {
      name: `locations/global/workforcePools/${B_POOL}`,
      parent: `organizations/${ORG_B}`,
      policy: {
        version: 1,
        bindings: [{ role: "roles/iam.workforcePoolViewer", members: [`serviceAccount:${SA_B}`] }],
        etag: "BwB=",
      },
    },
  ],
  iamOperations: [...DEFAULT_SEED.iamOperations, { ...done, name: B_OPERATION }],
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

/** The IAM 403 body for a permission denied on a resource (full resource name). */
function iamForbidden(permission: string, resource: string): unknown {
  const message = `Permission '${permission}' denied on resource '${resource}' (or it may not exist).`;
  return {
    error: {
      code: 403,
      message,
      errors: [{ message, domain: "global", reason: "forbidden" }],
      status: "PERMISSION_DENIED",
      details: [
        {
          "@type": "type.googleapis.com/google.rpc.ErrorInfo",
          reason: "IAM_PERMISSION_DENIED",
          domain: "iam.googleapis.com",
          metadata: { permission },
        },
      ],
    },
  };
}

describe("Google sandbox reads scoped by organization", () => {
  let sandbox: GoogleSandbox;
  let tokens: Record<"a" | "b" | "deployer", string>;

  before(async () => {
    sandbox = await startGoogleSandbox({ seed: SEED, moveDurationMs: 0 });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
    tokens = {
      a: token(sandbox, SA_A, "cloud-platform"),
      b: token(sandbox, SA_B, "cloud-platform"),
      deployer: token(sandbox, DEPLOYER, "cloud-platform"),
    };
  });

  const policy = (id: string, who: string) =>
    call(`${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/${id}`, { token: who });
  const pool = (id: string, who: string) =>
    call(`${sandbox.endpoints.iam}/v1/locations/global/workforcePools/${id}:getIamPolicy`, {
      method: "POST",
      token: who,
      body: "{}",
    });
  const operation = (name: string, who: string) => call(`${sandbox.endpoints.iam}/v3beta/${name}`, { token: who });
  const statuses = (route: string) =>
    sandbox.requests().flatMap((r) => (r.route === route ? [[r.principal, r.status]] : []));

  it("answers compute.firewallPolicies.get for the caller's organization and refuses the other's with compute's 403", async () => {
    const own = await policy(B_POLICY, tokens.b);
    assert.equal(own.status, 200);
    assert.equal(str(own.body.parent), `organizations/${ORG_B}`);
    assert.equal(str((await policy(A_POLICY, tokens.a)).body.parent), `folders/${fixture.FIXTURE_FOLDER_IDS.security}`);
    for (const [id, who] of [
      [A_POLICY, tokens.b],
      [B_POLICY, tokens.a],
      ["799999999999", tokens.b],
    ] as const) {
      const res = await policy(id, who);
      assert.equal(res.status, 403);
      assert.deepEqual(
        res.body,
        forbiddenBody(
          `Required 'compute.firewallPolicies.get' permission for 'locations/global/firewallPolicies/${id}'`,
        ),
      );
    }
    assert.equal(str((await policy(B_POLICY, tokens.deployer)).body.parent), `organizations/${ORG_B}`);
    assert.deepEqual(statuses("compute.firewallPolicies.get"), [
      [SA_B, 200],
      [SA_A, 200],
      [SA_B, 403],
      [SA_A, 403],
      [SA_B, 403],
      [DEPLOYER, 200],
    ]);
  });

  it("moves through a grant inherited from the organization and refuses a move in the other organization", async () => {
    const to = `folders/${B_FOLDER}`;
    const refused = await call(moveUrl(sandbox, A_POLICY, `parentId=${to}`), { method: "POST", token: tokens.b });
    assert.equal(refused.status, 403);
    assert.deepEqual(
      refused.body,
      iamForbidden("compute.firewallPolicies.move", `locations/global/firewallPolicies/${A_POLICY}`),
    );
    const moved = await call(moveUrl(sandbox, B_POLICY, `parentId=${to}`), { method: "POST", token: tokens.b });
    assert.equal(moved.status, 200);
    assert.equal(str((await policy(B_POLICY, tokens.b)).body.parent), to);
    assert.equal(str((await policy(A_POLICY, tokens.a)).body.parent), `folders/${fixture.FIXTURE_FOLDER_IDS.security}`);
    assert.deepEqual(
      sandbox.audit().map((e) => [e.kind, e.details.principal, e.target]),
      [["firewallPolicies.move", SA_B, `firewallPolicies/${B_POLICY}`]],
    );
  });

  it("answers a workforce pool's getIamPolicy in the caller's organization and refuses the other's with IAM's 403", async () => {
    const own = await pool(B_POOL, tokens.b);
    assert.equal(own.status, 200);
    assert.equal(str(own.body.etag), "BwB=");
    assert.equal((await pool(A_POOL, tokens.a)).status, 200);
    const refused = await pool(A_POOL, tokens.b);
    assert.equal(refused.status, 403);
    assert.deepEqual(
      refused.body,
      iamForbidden("iam.workforcePools.getIamPolicy", `//iam.googleapis.com/locations/global/workforcePools/${A_POOL}`),
    );
    const absent = await pool("b-no-such-pool", tokens.b);
    assert.equal(absent.status, 403);
    assert.equal((await pool(B_POOL, tokens.deployer)).status, 200);
    assert.deepEqual(statuses("iam.workforcePools.getIamPolicy"), [
      [SA_B, 200],
      [SA_A, 200],
      [SA_B, 403],
      [SA_B, 403],
      [DEPLOYER, 200],
    ]);
  });

  it("answers an IAM folder operation in the caller's organization and refuses the other's", async () => {
    const own = await operation(B_OPERATION, tokens.b);
    assert.equal(own.status, 200);
    assert.equal(str(own.body.name), B_OPERATION);
    assert.equal((await operation(A_OPERATION, tokens.a)).status, 200);
    const refused = await operation(A_OPERATION, tokens.b);
    assert.equal(refused.status, 403);
    assert.deepEqual(refused.body, iamForbidden("iam.operations.get", `//iam.googleapis.com/${A_OPERATION}`));
    assert.equal((await operation(B_OPERATION, tokens.deployer)).status, 200);
  });

  it("refuses a seed whose workforce pool parent is not an organization, naming the field", () => {
    const json = JSON.parse(JSON.stringify(SEED)) as { workforcePools: { parent?: string }[] };
    const last = json.workforcePools.length - 1;
    json.workforcePools[last] = { ...json.workforcePools[last], parent: `folders/${B_FOLDER}` };
    assert.throws(() => parseSeed(json), {
      message: new RegExp(`workforcePools\\[${last}\\]\\.parent must be "organizations/<id>" when given`),
    });
    assert.doesNotThrow(() => parseSeed(JSON.parse(JSON.stringify(SEED))));
  });
});
