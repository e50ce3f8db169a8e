/**
 * examples/read-only (all five data sources) on the real Pulumi engine against the sandbox: preview with a read-only
 * token, up with the sandbox's Workload Identity Federation credentials file (STS exchange + impersonation).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { createThrowawayStack } from "../helpers/pulumi-harness";
import { READER, READ_ONLY_SCOPES, endpointConfig, tokenConfig } from "../helpers/sandbox-config";
import readOnlyProgram from "../../examples/read-only";

describe("examples/read-only (real engine, sandbox)", function () {
  this.timeout(300_000);
  let sandbox: GoogleSandbox;
  let tmp: string;

  before(async () => {
    sandbox = await startGoogleSandbox();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-read-only-"));
  });
  after(async () => {
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("previews with a read-only token, reading every data source and mutating nothing", async () => {
    const stack = await createThrowawayStack({
      projectName: "read-only",
      program: readOnlyProgram,
      config: tokenConfig(sandbox, READER, READ_ONLY_SCOPES),
    });
    try {
      const preview = await stack.preview();
      assert.equal(preview.changeSummary["create"], 1);
      const routes = new Set(sandbox.requests().map((r) => r.route));
      for (const route of [
        "iam.workforcePools.getIamPolicy",
        "iam.operations.get",
        "deploymentmanager.deployments.get",
        "workspaceevents.subscriptions.get",
        "displayvideo.advertisers.creatives.get",
      ]) {
        assert.ok(routes.has(route), `${route} was called during preview`);
      }
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

  it("applies with the sandbox's federated credentials file and outputs typed results", async () => {
    const credentials = await sandbox.writeCredentialsFile(tmp);
    const stack = await createThrowawayStack({
      projectName: "read-only",
      program: readOnlyProgram,
      config: { ...endpointConfig(sandbox), "opsledger:credentials": { value: credentials, secret: true } },
    });
    try {
      const { outputs } = await stack.up();
      assert.equal(outputs["iamOperationDone"]?.value, true);
      assert.equal(outputs["iamOperationResponseType"]?.value, "type.googleapis.com/google.iam.v3beta.PolicyBinding");
      assert.equal(outputs["deploymentOperationStatus"]?.value, "DONE");
      assert.equal(outputs["subscriptionState"]?.value, "ACTIVE");
      assert.ok(
        Array.isArray(outputs["workforcePoolRoles"]?.value) &&
          (outputs["workforcePoolRoles"].value as unknown[]).length > 0,
      );
      assert.equal(typeof outputs["workforcePoolEtag"]?.value, "string");
      assert.match(String(outputs["creativeType"]?.value), /^CREATIVE_TYPE_/);
      const principals = new Set(
        sandbox
          .requests()
          .filter((r) => r.route?.includes("."))
          .map((r) => r.principal),
      );
      assert.ok(
        principals.has("deployer@sandbox-project.iam.gserviceaccount.com"),
        `principals: ${[...principals].join(", ")}`,
      );
    } finally {
      await stack.dispose();
    }
  });
});
