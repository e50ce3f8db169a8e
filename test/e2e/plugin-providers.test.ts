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
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { REPO_ROOT, changeSummary, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import {
  DEPLOYER,
  READER,
  READ_ONLY_SCOPES,
  deployerConfig,
  endpointConfig,
  plainStrings,
} from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const { policy: POLICY, folderA: A } = FIXTURE.firewallPolicyMove;

/** The program: two providers, a move through the first, a read through the second. */
function program(sandbox: GoogleSandbox): string {
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
variables:
  pool:
    fn::invoke:
      function: opsledger:iam:getWorkforcePoolIamPolicy
      arguments:
        workforcePoolId: sandbox-contractors
      options:
        provider: \${org-b}
outputs:
  parent: \${edge.parent}
`;
}

function principals(sandbox: GoogleSandbox, route: string): string[] {
  return [...new Set(sandbox.requests().flatMap((r) => (r.route === route ? [r.principal ?? "none"] : [])))];
}

describe("explicit providers through pulumi-resource-opsledger (pulumi CLI, YAML, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ProjectStack;
  let dir: string;
  let tokens: { deployer: string; reader: string };

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 500 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-providers-"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), program(sandbox));
    tokens = {
      deployer: deployerConfig(sandbox)["opsledger:accessToken"]?.value ?? "",
      reader: sandbox.mintToken({ principal: READER, scopes: READ_ONLY_SCOPES }),
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
    assert.deepEqual(changeSummary(events), { create: 4 });
    assert.deepEqual(principals(sandbox, "compute.firewallPolicies.move"), [DEPLOYER]);
    assert.deepEqual(principals(sandbox, "compute.firewallPolicies.get"), [DEPLOYER]);
    assert.deepEqual(principals(sandbox, "iam.workforcePools.getIamPolicy"), [READER]);
  });

  it("keeps both providers' tokens out of state and output, and previews no change", async () => {
    const state = await stack.exportState();
    const plain = plainStrings(state).join("\n");
    assert.ok(tokens.deployer.length > 10 && tokens.reader.length > 10);
    assert.ok(!plain.includes(tokens.deployer) && !plain.includes(tokens.reader), "a token is in state unencrypted");
    const preview = await stack.preview();
    assert.deepEqual(changeSummary(preview.events), { same: 4 });
    assert.ok(!preview.output.includes(tokens.deployer) && !preview.output.includes(tokens.reader));
  });
});
