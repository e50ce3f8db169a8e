/**
 * The `import` resource option on the TypeScript SDK's resources: refused at construction, before anything is
 * registered, with one paragraph that says why (dynamic resources cannot be imported) and how to adopt the object.
 */
import { strict as assert } from "node:assert";
import * as opsledger from "../../../sdk";

describe("the import option on a TypeScript resource", () => {
  it("fails at once with the reason and the plugin's pulumi import path", () => {
    assert.throws(
      () =>
        new opsledger.compute.FirewallPolicyMove(
          "edge-policy",
          { firewallPolicy: "700000000002", parentId: "folders/200000000003" },
          { import: "700000000002" },
        ),
      (e: unknown) => {
        assert.ok(e instanceof Error);
        assert.equal(
          e.message,
          "FirewallPolicyMove edge-policy: the `import` option cannot adopt 700000000002 in a TypeScript program: " +
            "this package's TypeScript resources are Pulumi dynamic resources, and Pulumi cannot import a dynamic " +
            "resource (an import reads the object with no state, and a dynamic resource's provider lives in its state: " +
            "pulumi/pulumi#16175). Remove `import` and declare the resource as it is: a FirewallPolicyMove whose " +
            "parentId is the policy's current parent records it without a move, and an OperationWait on a finished " +
            "operation records how it ended. Or adopt it through the resource plugin, which can import: `pulumi " +
            "import opsledger:compute:FirewallPolicyMove edge-policy <id>` in a YAML, Go or Python program " +
            "(docs/plugin.md#import).",
        );
        return true;
      },
    );
  });

  it("names the resource's own type for every resource class", () => {
    assert.throws(
      () => new opsledger.operations.OperationWait("wait", { operation: "op" }, { import: "op" }),
      /`pulumi import opsledger:operations:OperationWait wait <id>`/,
    );
  });
});
