/**
 * The request settings through both faces with the plain `pulumi` CLI: a data source in the program
 * (examples/read-only, settings from `opsledger:*` stack config) and a dynamic resource in the provider process
 * (examples/operation-wait, settings from the environment), each request recorded by the Google sandbox.
 */
import { strict as assert } from "node:assert";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { exampleDir, initProjectStack } from "../helpers/project-stack";
import { READER, READ_ONLY_SCOPES, deployerConfig, tokenConfig } from "../helpers/sandbox-config";

/** [route, requestReason, userProject] of every request the sandbox answered. */
function headersSeen(sandbox: GoogleSandbox): [string, string | null, string | null][] {
  return sandbox.requests().map((r) => [r.route ?? "(none)", r.requestReason ?? null, r.userProject ?? null]);
}

describe("request reason and quota project through the pulumi CLI (sandbox)", function () {
  this.timeout(300_000);
  let sandbox: GoogleSandbox;

  before(async () => {
    sandbox = await startGoogleSandbox();
  });
  beforeEach(() => {
    sandbox.reset();
  });
  after(async () => {
    await sandbox.close();
  });

  it("sends the stack config's request reason and project (userProjectOverride) from every data source", async () => {
    const stack = await initProjectStack({
      projectDir: exampleDir("read-only"),
      config: {
        ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES),
        "opsledger:requestReason": { value: "PR 314 preview" },
        "opsledger:project": { value: fixture.FIXTURE_PROJECT },
        "opsledger:userProjectOverride": { value: "true" },
      },
    });
    try {
      await stack.preview();
      const seen = headersSeen(sandbox);
      assert.deepEqual([...new Set(seen.map(([route]) => route))].sort(), [
        "deploymentmanager.deployments.get",
        "displayvideo.advertisers.creatives.get",
        "iam.operations.get",
        "iam.workforcePools.getIamPolicy",
        "workspaceevents.subscriptions.get",
      ]);
      assert.deepEqual(
        seen.filter(([, reason, project]) => reason !== "PR 314 preview" || project !== fixture.FIXTURE_PROJECT),
        [],
      );
    } finally {
      await stack.dispose();
    }
  });

  it("sends the environment's request reason and quota project from a dynamic resource's provider", async () => {
    const stack = await initProjectStack({
      projectDir: exampleDir("operation-wait"),
      config: deployerConfig(sandbox),
      env: { CLOUDSDK_CORE_REQUEST_REASON: "CHG-88 wait", GOOGLE_CLOUD_QUOTA_PROJECT: fixture.FIXTURE_PROJECT },
    });
    try {
      const up = await stack.up();
      assert.equal(up.outputs["status"], "DONE");
      assert.deepEqual(headersSeen(sandbox), [["iam.operations.get", "CHG-88 wait", fixture.FIXTURE_PROJECT]]);
    } finally {
      await stack.dispose();
    }
  });
});
