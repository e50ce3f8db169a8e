/**
 * Explicit providers in a TypeScript program (`new opsledger.Provider(...)` passed as `{ provider }`), with the plain
 * `pulumi` CLI against the Google sandbox: two providers with two service accounts, each seeing only its own
 * organization, move a policy and read a workforce pool each in one `pulumi up`, while the stack's own `opsledger:*`
 * config holds a third principal's token that no call may use. A token rotation is no change; a resource given the
 * wrong organization's provider is refused by the sandbox and nothing moves; refresh and destroy use each resource's
 * own provider from state.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { FIXTURE } from "../helpers/fixture-ids";
import { REPO_ROOT, changeSummary, dynamicResources, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack, StackDeployment } from "../helpers/project-stack";
import { DEPLOYER, endpointConfig, parentOf, plainStrings } from "../helpers/sandbox-config";
import { findSecretsDecoded, stackFilesAtRest, textForms } from "../helpers/secrets-scan";
import {
  ORG_A_POOL,
  ORG_B,
  ORG_B_FOLDER,
  ORG_B_POLICY,
  ORG_B_POOL,
  POOL_ETAGS,
  SA_A,
  SA_B,
  SCOPES,
  TWO_ORGANIZATIONS_SEED,
  moves,
  poolReads,
} from "../helpers/two-organizations";

const { policy: POLICY, folderA: A, originalParent: ORIGINAL } = FIXTURE.firewallPolicyMove;
const LOCKDOWN = fixture.FIXTURE_FIREWALL_POLICY_IDS.securityLockdown;

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const endpoints = JSON.parse(config.require("endpoints")) as Record<string, string>;
const orgA = new opsledger.Provider("org-a", { ...endpoints, accessToken: config.requireSecret("tokenA") });
const orgB = new opsledger.Provider("org-b", { ...endpoints, accessToken: config.requireSecret("tokenB") });

const edge = new opsledger.compute.FirewallPolicyMove(
  "edge",
  { firewallPolicy: "${POLICY}", parentId: "${A}", restoreOnDelete: true },
  { provider: orgA },
);
new opsledger.compute.FirewallPolicyMove(
  "b-edge",
  { firewallPolicy: "${ORG_B_POLICY}", parentId: "${ORG_B_FOLDER}", restoreOnDelete: true },
  { provider: orgB },
);
if (config.getBoolean("cross")) {
  new opsledger.compute.FirewallPolicyMove("cross", { firewallPolicy: "${LOCKDOWN}", parentId: "${ORIGINAL}" }, { provider: orgB });
}

export const parent = edge.parent;
export const etagA = opsledger.iam.getWorkforcePoolIamPolicyOutput({ workforcePoolId: "${ORG_A_POOL}" }, { provider: orgA }).etag;
export const etagB = opsledger.iam
  .getWorkforcePoolIamPolicy({ workforcePoolId: "${ORG_B_POOL}" }, { provider: orgB })
  .then((p) => p.etag);
`;

/** [principal, policy] of each firewallPolicies.get sent since request `from`, distinct and sorted. */
function policyReads(sandbox: GoogleSandbox, from: number): string[][] {
  const reads = sandbox
    .requests()
    .slice(from)
    .filter((r) => r.route === "compute.firewallPolicies.get")
    .map((r) => JSON.stringify([r.principal ?? "none", r.path.split("/").at(-1) ?? ""]));
  return [...new Set(reads)].map((r) => JSON.parse(r) as string[]).sort();
}

/** The secret `__settings` of each move in state (inputs and outputs), as stored (ciphertext objects). */
function storedSettings(state: StackDeployment): unknown[] {
  return dynamicResources(state).flatMap((r) => [r.inputs?.["__settings"], r.outputs?.["__settings"]]);
}

describe("explicit providers in a TypeScript program (opsledger.Provider, pulumi CLI, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ProjectStack;
  let dir: string;
  const tokens: string[] = [];
  const mint = (principal: string): string => {
    const token = sandbox.mintToken({ principal, scopes: SCOPES });
    tokens.push(token);
    return token;
  };

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 500, seed: TWO_ORGANIZATIONS_SEED });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-ts-providers-"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: opsledger-ts-providers\nruntime: nodejs\n");
    fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    fs.copyFileSync(
      path.join(REPO_ROOT, "examples", "firewall-policy-move", "tsconfig.json"),
      path.join(dir, "tsconfig.json"),
    );
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
    const endpoints = Object.fromEntries(
      Object.entries(endpointConfig(sandbox)).map(([key, v]) => [key.slice("opsledger:".length), v.value]),
    );
    stack = await initProjectStack({
      projectDir: dir,
      transpileOnly: true,
      config: {
        // The stack's own settings: a third principal, which no call of this program may use.
        ...endpointConfig(sandbox),
        "opsledger:accessToken": { value: mint(DEPLOYER), secret: true },
        endpoints: { value: JSON.stringify(endpoints) },
        tokenA: { value: mint(SA_A), secret: true },
        tokenB: { value: mint(SA_B), secret: true },
      },
    });
  });
  after(async () => {
    await stack.dispose();
    await sandbox.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("moves and reads in each organization through its own provider, over the stack's config", async () => {
    const up = await stack.up();
    assert.deepEqual(changeSummary(up.events), { create: 3 });
    assert.deepEqual([up.outputs["parent"], up.outputs["etagA"], up.outputs["etagB"]], [A, POOL_ETAGS.a, POOL_ETAGS.b]);
    assert.deepEqual(
      moves(sandbox),
      [
        [SA_A, POLICY, A],
        [SA_B, ORG_B_POLICY, ORG_B_FOLDER],
      ].sort(),
    );
    assert.deepEqual(poolReads(sandbox), [
      [SA_A, ORG_A_POOL, "200"],
      [SA_B, ORG_B_POOL, "200"],
    ]);
    assert.ok(!sandbox.requests().some((r) => r.principal === DEPLOYER), "the stack's own token was used");

    const state = await stack.exportState();
    const stored = storedSettings(state);
    assert.equal(stored.length, 4);
    for (const s of stored) assert.deepEqual(plainStrings(s), [], "__settings is kept as a secret");
    const secrets = tokens.flatMap((t, i) => textForms(`token ${String(i)}`, t));
    const seen = [JSON.stringify(state), up.output, stackFilesAtRest(stack)].join("\n");
    assert.deepEqual(findSecretsDecoded(seen, secrets), [], "no token in state, output or the stack's files");
  });

  it("keeps every token out of state, output and files at rest, read decoded; decrypted and -v=9 logs hold them", async () => {
    const labeled = tokens.map((t, i): [string, string] => [
      i === 0 ? "the stack's opsledger:accessToken" : `explicit token ${String(i)}`,
      t,
    ]);
    const forms = labeled.flatMap(([label, t]) => textForms(label, t));
    const preview = await stack.preview();
    const atRest = [JSON.stringify(await stack.exportState()), preview.output, stackFilesAtRest(stack)].join("\n");
    assert.deepEqual(findSecretsDecoded(atRest, forms), [], "a token in state, output or the stack's files");
    assert.deepEqual(findSecretsDecoded(stack.rawLogs().join("\n"), forms), [], "a token in the logs' bytes at rest");
    // Decrypted (`pulumi logs decrypt`), the automatic logs hold what the engine logged: every token (docs/plugin.md).
    const decrypted = (await stack.decryptedLogs()).join("\n");
    const verbose = await stack.run(["preview", "-v=9", "--logtostderr", "--logflow"]);
    const seen = (text: string): string[] => [
      ...new Set(findSecretsDecoded(text, forms).map((l) => l.split(" as ")[0] ?? l)),
    ];
    console.log(
      `      decrypted logs: ${JSON.stringify(seen(decrypted))}; -v=9: ${JSON.stringify(seen(verbose.output))}`,
    );
    assert.deepEqual(seen(decrypted).sort(), labeled.map(([label]) => label).sort());
    assert.deepEqual(seen(verbose.output).sort(), labeled.map(([label]) => label).sort());
  });

  it("takes a token rotation as no change, and refuses a move through the other organization's provider", async () => {
    const before = await stack.exportState();
    await stack.setConfig({ tokenA: { value: mint(SA_A), secret: true }, tokenB: { value: mint(SA_B), secret: true } });
    const rotated = await stack.up();
    assert.deepEqual(changeSummary(rotated.events), { same: 3 });
    assert.notDeepEqual(storedSettings(await stack.exportState()), storedSettings(before), "the new settings are kept");
    assert.equal(moves(sandbox).length, 2);

    const from = sandbox.requests().length;
    await stack.setConfig({ cross: { value: "true" } });
    const cross = await stack.up({ allowFailure: true });
    assert.notEqual(cross.code, 0);
    assert.match(
      cross.output,
      new RegExp(
        `Required 'compute\\.firewallPolicies\\.get' permission for 'locations/global/firewallPolicies/${LOCKDOWN}'`,
      ),
    );
    const refused = sandbox
      .requests()
      .slice(from)
      .filter((r) => r.status >= 400)
      .map((r) => [r.route, r.principal, r.status]);
    assert.deepEqual(refused, [["compute.firewallPolicies.get", SA_B, 403]]);
    assert.equal(moves(sandbox).length, 2);
    assert.equal(await parentOf(sandbox, LOCKDOWN), A);
    assert.equal(sandbox.audit().filter((e) => e.kind === "firewallPolicies.move").length, 2);
  });

  it("refreshes and destroys each resource with its own provider's settings", async () => {
    const from = sandbox.requests().length;
    const refresh = await stack.refresh();
    assert.deepEqual(changeSummary(refresh.events), { same: 3 });
    assert.deepEqual(
      policyReads(sandbox, from),
      [
        [SA_A, POLICY],
        [SA_B, ORG_B_POLICY],
      ].sort(),
    );

    await stack.destroy();
    assert.deepEqual(
      moves(sandbox),
      [
        [SA_A, POLICY, A],
        [SA_A, POLICY, ORIGINAL],
        [SA_B, ORG_B_POLICY, ORG_B_FOLDER],
        [SA_B, ORG_B_POLICY, `organizations/${ORG_B}`],
      ].sort(),
    );
    assert.equal(await parentOf(sandbox, POLICY), ORIGINAL);
    assert.equal(await parentOf(sandbox, ORG_B_POLICY), `organizations/${ORG_B}`);
    assert.ok(!sandbox.requests().some((r) => r.principal === DEPLOYER), "the stack's own token was used");
  });
});
