/**
 * examples/read-only (all five data sources) and examples/demo previewed with the plain `pulumi` CLI in their
 * directories: preview with a read-only token, up with the sandbox's Workload Identity Federation credentials file
 * (STS exchange + impersonation), and a data source's failure as the CLI prints it, through both faces (the program's
 * SDK functions, and its YAML twin's `fn::invoke` through the resource plugin: test/helpers/faces.ts).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { REPO_ROOT, changeSummary, exampleDir, initProjectStack } from "../helpers/project-stack";
import { READER, READ_ONLY_SCOPES, endpointConfig, tokenConfig } from "../helpers/sandbox-config";
import { GOOGLE_FACES, dataSourceFailure, projectOf } from "../helpers/faces";

const READS = [
  "iam.workforcePools.getIamPolicy",
  "iam.operations.get",
  "deploymentmanager.deployments.get",
  "workspaceevents.subscriptions.get",
  "displayvideo.advertisers.creatives.get",
];

function mutating(sandbox: GoogleSandbox) {
  return sandbox.requests().filter((r) => r.method !== "GET" && r.route !== "iam.workforcePools.getIamPolicy");
}

describe("examples/read-only and examples/demo (pulumi CLI, sandbox)", function () {
  this.timeout(300_000);
  let sandbox: GoogleSandbox;
  let tmp: string;

  before(async () => {
    sandbox = await startGoogleSandbox();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-read-only-"));
  });
  beforeEach(() => {
    sandbox.reset();
  });
  after(async () => {
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("previews examples/read-only with a read-only token, reading every data source and mutating nothing", async () => {
    const stack = await initProjectStack({
      projectDir: exampleDir("read-only"),
      config: tokenConfig(sandbox, READER, READ_ONLY_SCOPES),
    });
    try {
      const preview = await stack.preview();
      assert.deepEqual(changeSummary(preview.events), { create: 1 });
      const routes = new Set(sandbox.requests().map((r) => r.route));
      assert.deepEqual(
        READS.filter((r) => !routes.has(r)),
        [],
        "every data source read during preview",
      );
      assert.deepEqual(
        sandbox
          .requests()
          .filter((r) => r.status >= 400)
          .map((r) => `${r.route ?? r.path} ${r.status}`),
        [],
      );
      assert.equal(sandbox.audit().length, 0);
    } finally {
      await stack.dispose();
    }
  });

  it("applies examples/read-only with the sandbox's federated credentials file and outputs typed results", async () => {
    const credentials = await sandbox.writeCredentialsFile(tmp);
    const stack = await initProjectStack({
      projectDir: exampleDir("read-only"),
      config: { ...endpointConfig(sandbox), "opsledger:credentials": { value: credentials, secret: true } },
    });
    try {
      const { outputs } = await stack.up();
      assert.equal(outputs["iamOperationDone"], true);
      assert.equal(outputs["iamOperationResponseType"], "type.googleapis.com/google.iam.v3beta.PolicyBinding");
      assert.equal(outputs["deploymentOperationStatus"], "DONE");
      assert.deepEqual(outputs["deploymentLabels"], ["env=sandbox", "team=web"]);
      assert.equal(outputs["subscriptionState"], "ACTIVE");
      assert.deepEqual(outputs["workforcePoolRoles"], [
        "roles/iam.workforcePoolAdmin",
        "roles/iam.workforcePoolViewer",
      ]);
      assert.equal(outputs["creativeType"], "CREATIVE_TYPE_VIDEO");
      const principals = new Set(
        sandbox
          .requests()
          .filter((r) => READS.includes(r.route ?? ""))
          .map((r) => r.principal),
      );
      assert.deepEqual([...principals], ["deployer@sandbox-project.iam.gserviceaccount.com"]);
    } finally {
      await stack.dispose();
    }
  });

  // Through both faces (test/helpers/faces.ts): examples/read-only, and its YAML twin through the resource plugin.
  for (const face of GOOGLE_FACES) {
    it(`prints a data source's 404 as one paragraph through the ${face.name}: what failed, the server's words, the hint`, async () => {
      const projectDir = await projectOf(face, "readOnly");
      const stack = await initProjectStack({
        projectDir,
        config: { ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), workforcePoolId: { value: "no-such-pool" } },
      });
      try {
        const failed = await stack.preview({ allowFailure: true });
        assert.notEqual(failed.code, 0);
        const text = failed.stdout;
        // eslint-disable-next-line no-control-regex -- no terminal colour codes in what the CLI prints
        assert.doesNotMatch(text, /\u001b\[/);
        const diagnostics = text.slice(text.indexOf("Diagnostics:")).split("\n");
        const start = diagnostics.findIndex((l) => /^\s+error: /.test(l));
        const end = diagnostics.findIndex((l, i) => i > start && l.trim() === "");
        const paragraph = diagnostics.slice(start, end).map((l) => l.trim());
        assert.deepEqual(
          paragraph,
          dataSourceFailure(
            face,
            projectDir,
            "opsledger:iam:getWorkforcePoolIamPolicy",
            "iam.workforcePools.getIamPolicy workforce pool locations/global/workforcePools/no-such-pool: " +
              "404 NOT_FOUND notFound: Resource 'locations/global/workforcePools/no-such-pool' was not found. " +
              "Check that workforce pool locations/global/workforcePools/no-such-pool exists and that the caller can see it.",
          ),
        );
      } finally {
        await stack.dispose();
      }
    });
  }

  for (const [where, projectDir] of [
    ["examples/demo", exampleDir("demo")],
    ["the repository root (its Pulumi.yaml runs the demo)", REPO_ROOT],
  ] as const) {
    it(`previews ${where} with a read-only token: every resource and data source, no mutating call`, async () => {
      const stack = await initProjectStack({ projectDir, config: tokenConfig(sandbox, READER, READ_ONLY_SCOPES) });
      try {
        const preview = await stack.preview({ diff: true });
        assert.deepEqual(
          preview.steps
            .filter((s) => s.op === "create")
            .map((s) => s.type.split(":").pop())
            .sort(),
          // The engine also creates the default provider of dynamic resources (pulumi:providers:pulumi-nodejs).
          ["FirewallPolicyMove", "InventorySourceGroupDeletion", "OperationWait", "Stack", "pulumi-nodejs"],
        );
        assert.deepEqual(mutating(sandbox), []);
        assert.deepEqual(sandbox.audit(), []);
        const routes = sandbox.requests().map((r) => r.route);
        assert.ok(
          routes.includes("iam.workforcePools.getIamPolicy") && routes.includes("deploymentmanager.deployments.get"),
        );
      } finally {
        await stack.dispose();
      }
    });
  }
});
