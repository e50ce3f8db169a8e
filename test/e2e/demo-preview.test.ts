/**
 * examples/demo previewed with a READ-ONLY token, as a pull-request job would: it succeeds, shows the resources it
 * would create, and makes no mutating call (the sandbox's request and audit logs prove it).
 */
import { strict as assert } from "node:assert";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { createThrowawayStack } from "../helpers/pulumi-harness";
import { READER, READ_ONLY_SCOPES, tokenConfig } from "../helpers/sandbox-config";
import demoProgram from "../../examples/demo";

describe("examples/demo preview with a read-only token (real engine, sandbox)", function () {
  this.timeout(300_000);
  let sandbox: GoogleSandbox;

  before(async () => {
    sandbox = await startGoogleSandbox();
  });
  after(async () => {
    await sandbox.close();
  });

  it("previews every resource and data source without a mutating call", async () => {
    const stack = await createThrowawayStack({
      projectName: "opsledger-demo",
      program: demoProgram,
      config: tokenConfig(sandbox, READER, READ_ONLY_SCOPES),
    });
    try {
      const preview = await stack.preview({ diff: true });
      const created = preview.steps.filter((s) => s.op === "create").map((s) => s.type.split(":").pop());
      // The engine also creates the default provider of dynamic resources (pulumi:providers:pulumi-nodejs).
      assert.deepEqual(created.sort(), [
        "FirewallPolicyMove",
        "InventorySourceGroupDeletion",
        "OperationWait",
        "Stack",
        "pulumi-nodejs",
      ]);
      const mutating = sandbox
        .requests()
        .filter((r) => r.method !== "GET" && r.route !== "iam.workforcePools.getIamPolicy");
      assert.deepEqual(mutating, []);
      assert.deepEqual(sandbox.audit(), []);
      assert.ok(sandbox.requests().length >= 5, "the data sources read during preview");
    } finally {
      await stack.dispose();
    }
  });
});
