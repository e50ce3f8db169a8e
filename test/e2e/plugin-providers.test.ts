/**
 * Explicit provider instances through the resource plugin (`pulumi:providers:opsledger`), with the plain `pulumi` CLI
 * on a YAML program against the Google sandbox: two providers with two service accounts' tokens in one `pulumi up`,
 * each resource and invoke through its own provider, and no `opsledger:*` stack config at all. The engine starts one
 * plugin process per provider instance, so each process's Configure holds that instance's settings.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { DEFAULT_SEED, fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox, SandboxSeed } from "../../sandbox/google";
import { REPO_ROOT, changeSummary, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { endpointConfig, parentOf, plainStrings } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const { policy: POLICY, folderA: A, originalParent: ORIGINAL } = FIXTURE.firewallPolicyMove;
const LOCKDOWN = fixture.FIXTURE_FIREWALL_POLICY_IDS.securityLockdown;
/** A second organization: its own folder, policy and workforce pool, and a service account bound to it. */
const ORG_A = fixture.FIXTURE_ORGANIZATION_ID;
const ORG_B = "100000000002";
const ORG_B_FOLDER = "folders/200000000020";
const ORG_B_POLICY = "700000000020";
const ORG_A_POOL = "sandbox-contractors";
const ORG_B_POOL = "b-contractors";
const SA_A = "org-a-deployer@sandbox-project.iam.gserviceaccount.com";
const SA_B = "org-b-deployer@sandbox-project.iam.gserviceaccount.com";
const SCOPES = ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`);

/** What each service account may do in its own organization (grants on `organizations/<id>`, inherited). */
const PERMISSIONS = [
  "compute.firewallPolicies.get",
  "compute.firewallPolicies.move",
  "iam.workforcePools.getIamPolicy",
];

/**
 * The default fixture plus organization B. Each service account holds its grants on its own organization, so the
 * sandbox answers its reads and moves there and refuses it the other organization's objects.
 */
const SEED: SandboxSeed = {
  ...DEFAULT_SEED,
  organizations: [...DEFAULT_SEED.organizations, { id: ORG_B, displayName: "b.example.com" }],
  folders: [
    ...DEFAULT_SEED.folders,
    { id: "200000000020", displayName: "B Security", parent: `organizations/${ORG_B}` },
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
      policy: { version: 1, bindings: [], etag: "BwB=" },
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

/** The program: two providers, a move and a read through each, each in its own organization. */
function program(sandbox: GoogleSandbox, extra = ""): string {
  const endpoints = Object.entries(endpointConfig(sandbox))
    .map(([key, v]) => `      ${key.slice("opsledger:".length)}: ${v.value}\n`)
    .join("");
  return `name: opsledger-providers
runtime: yaml
plugins:
  providers:
    - name: opsledger
      path: ${path.join(REPO_ROOT, "bin")}
config:
  deployerToken:
    type: string
  readerToken:
    type: string
resources:
  org-a:
    type: pulumi:providers:opsledger
    properties:
      accessToken: \${deployerToken}
${endpoints}  org-b:
    type: pulumi:providers:opsledger
    properties:
      accessToken: \${readerToken}
${endpoints}  edge:
    type: opsledger:compute:FirewallPolicyMove
    properties:
      firewallPolicy: "${POLICY}"
      parentId: ${A}
    options:
      provider: \${org-a}
  b-edge:
    type: opsledger:compute:FirewallPolicyMove
    properties:
      firewallPolicy: "${ORG_B_POLICY}"
      parentId: ${ORG_B_FOLDER}
    options:
      provider: \${org-b}
${extra}variables:
  poolA:
    fn::invoke:
      function: opsledger:iam:getWorkforcePoolIamPolicy
      arguments:
        workforcePoolId: ${ORG_A_POOL}
      options:
        provider: \${org-a}
  poolB:
    fn::invoke:
      function: opsledger:iam:getWorkforcePoolIamPolicy
      arguments:
        workforcePoolId: ${ORG_B_POOL}
      options:
        provider: \${org-b}
outputs:
  parent: \${edge.parent}
  etagA: \${poolA.etag}
  etagB: \${poolB.etag}
`;
}

function moves(sandbox: GoogleSandbox): string[][] {
  return sandbox
    .requests()
    .filter((r) => r.route === "compute.firewallPolicies.move" && r.status === 200)
    .map((r) => [r.principal ?? "none", decodeURIComponent(r.path.split("/").at(-2) ?? ""), r.query["parentId"] ?? ""])
    .sort();
}

/** Each distinct [principal, pool, status] of the workforce pool reads. */
function poolReads(sandbox: GoogleSandbox): string[][] {
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

describe("explicit providers through pulumi-resource-opsledger (pulumi CLI, YAML, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ProjectStack;
  let dir: string;
  let tokens: { deployer: string; reader: string };

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 500, seed: SEED });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-providers-"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(sandbox));
    tokens = {
      deployer: sandbox.mintToken({ principal: SA_A, scopes: SCOPES }),
      reader: sandbox.mintToken({ principal: SA_B, scopes: SCOPES }),
    };
    stack = await initProjectStack({
      projectDir: dir,
      config: {
        deployerToken: { value: tokens.deployer, secret: true },
        readerToken: { value: tokens.reader, secret: true },
      },
    });
  });
  after(async () => {
    await stack.dispose();
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("runs each resource and invoke through its own provider's credentials in one up", async () => {
    const { outputs, events } = await stack.up();
    assert.equal(outputs["parent"], A);
    assert.equal(outputs["etagA"], "BwYYWYVgLmo=");
    assert.equal(outputs["etagB"], "BwB=");
    assert.deepEqual(changeSummary(events), { create: 5 });
    assert.deepEqual(
      moves(sandbox),
      [
        [SA_A, POLICY, A],
        [SA_B, ORG_B_POLICY, ORG_B_FOLDER],
      ].sort(),
    );
    assert.equal(await parentOf(sandbox, ORG_B_POLICY), ORG_B_FOLDER);
    assert.deepEqual(poolReads(sandbox), [
      [SA_A, ORG_A_POOL, "200"],
      [SA_B, ORG_B_POOL, "200"],
    ]);
  });

  it("keeps both providers' tokens out of state and output, and previews no change", async () => {
    const state = await stack.exportState();
    const plain = plainStrings(state).join("\n");
    assert.ok(tokens.deployer.length > 10 && tokens.reader.length > 10);
    assert.ok(!plain.includes(tokens.deployer) && !plain.includes(tokens.reader), "a token is in state unencrypted");
    const preview = await stack.preview();
    assert.deepEqual(changeSummary(preview.events), { same: 5 });
    assert.ok(!preview.output.includes(tokens.deployer) && !preview.output.includes(tokens.reader));
  });

  it("is refused by the sandbox when one organization's provider reads or moves the other's policy", async () => {
    const before = moves(sandbox).length;
    const requests = sandbox.requests().length;
    const cross = `  cross:
    type: opsledger:compute:FirewallPolicyMove
    properties:
      firewallPolicy: "${LOCKDOWN}"
      parentId: ${ORIGINAL}
    options:
      provider: \${org-b}
`;
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(sandbox, cross));
    const up = await stack.up({ allowFailure: true });
    assert.notEqual(up.code, 0);
    assert.match(
      up.output,
      new RegExp(
        `Required 'compute\\.firewallPolicies\\.get' permission for 'locations/global/firewallPolicies/${LOCKDOWN}'`,
      ),
    );
    assert.equal(moves(sandbox).length, before);
    assert.equal(await parentOf(sandbox, LOCKDOWN), A);
    const refused = sandbox
      .requests()
      .slice(requests)
      .filter((r) => r.status === 403)
      .map((r) => [r.route, r.principal, r.path.split("/").at(-1)]);
    assert.deepEqual(refused, [["compute.firewallPolicies.get", SA_B, LOCKDOWN]]);
    assert.ok(
      !sandbox
        .requests()
        .slice(requests)
        .some((r) => r.route === "compute.firewallPolicies.move"),
    );
  });

  it("refuses a provider's bad setting, naming it and the fix, before that provider sends any request", async () => {
    const program = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
    const bad = program.replace(
      "      accessToken: ${readerToken}\n",
      "      accessToken: ${readerToken}\n      impersonateServiceAccount: not-an-email\n",
    );
    assert.notEqual(bad, program);
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), bad);
    const requests = sandbox.requests().length;
    const preview = await stack.preview({ allowFailure: true });
    assert.notEqual(preview.code, 0);
    assert.match(preview.output, /impersonateServiceAccount 'not-an-email' must be a service account email/);
    // Organization A's provider is fine and may still read its pool while the preview runs; B's sends nothing.
    const sent = sandbox.requests().slice(requests);
    assert.deepEqual(
      sent.filter((r) => r.principal !== SA_A || r.route !== "iam.workforcePools.getIamPolicy"),
      [],
    );
  });
});
