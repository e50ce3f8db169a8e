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
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { PLUGIN_BUILDS } from "../helpers/plugin-builds";
import { changeSummary, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { endpointConfig, parentOf, plainStrings } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";
import {
  ORG_A_POOL,
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

/** The program: two providers, a move and a read through each, each in its own organization. */
function program(sandbox: GoogleSandbox, plugin: string, extra = ""): string {
  const endpoints = Object.entries(endpointConfig(sandbox))
    .map(([key, v]) => `      ${key.slice("opsledger:".length)}: ${v.value}\n`)
    .join("");
  return `name: opsledger-providers
runtime: yaml
plugins:
  providers:
    - name: opsledger
      path: ${plugin}
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

for (const build of PLUGIN_BUILDS)
  describe(`explicit providers through pulumi-resource-opsledger, the ${build.name} (pulumi CLI, YAML, sandbox)`, function () {
    this.timeout(600_000);
    let sandbox: GoogleSandbox;
    let stack: ProjectStack;
    let dir: string;
    let tokens: { deployer: string; reader: string };
    let plugin: string;

    before(async () => {
      sandbox = await startGoogleSandbox({ moveDurationMs: 500, seed: TWO_ORGANIZATIONS_SEED });
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-providers-"));
      plugin = await build.dir();
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(sandbox, plugin));
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
      assert.equal(outputs["etagA"], POOL_ETAGS.a);
      assert.equal(outputs["etagB"], POOL_ETAGS.b);
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
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(sandbox, plugin, cross));
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

    it("reads no opsledger:* stack config for an explicit provider, as Pulumi's own providers", async () => {
      // The engine gives every plugin process the stack's opsledger:* config in PULUMI_CONFIG (keys without namespace);
      // only a default provider may read it (provider/runtime/settings-reader.ts), so neither sends the stack's request reason.
      fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(sandbox, plugin));
      await stack.setConfig({ "opsledger:requestReason": { value: "stack config reason" } });
      try {
        const requests = sandbox.requests().length;
        const preview = await stack.preview();
        assert.deepEqual(changeSummary(preview.events), { same: 5 });
        const sent = sandbox.requests().slice(requests);
        assert.deepEqual(
          sent
            .filter((r) => r.route === "iam.workforcePools.getIamPolicy")
            .map((r) => r.principal)
            .sort(),
          [SA_A, SA_B].sort(),
        );
        assert.deepEqual(
          sent.filter((r) => r.requestReason !== undefined).map((r) => [r.route, r.requestReason]),
          [],
        );
      } finally {
        await stack.run(["config", "rm", "opsledger:requestReason"]);
      }
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
