import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { createRequire } from "node:module";
import { PROVIDER_MODULE } from "../../../sdk/provider-stubs";
import { FIREWALL_POLICY_MOVE_TYPE, FirewallPolicyMove } from "../../../sdk/compute/firewall-policy-move";
import { OPERATION_WAIT_TYPE, OperationWait } from "../../../sdk/operations/operation-wait";
import { dispatch, provider } from "../../../provider/dynamic";

/** The `__provider` that earlier versions serialized (closures calling `dispatch`), as found in their state. */
const LEGACY_STUB = [
  "exports.handler = __f0;",
  "var __provider = {check: __f2, read: __f3};",
  "function __f1(__0, __1) {",
  "  return (function() {",
  '    with({ e: "pulumi-opsledger/provider", this: undefined, arguments: undefined }) {',
  "return (m, a) => require(e).dispatch(m, a);",
  "    }",
  "  }).apply(undefined, undefined).apply(this, arguments);",
  "}",
  "function __f2() {",
  "  return (function() {",
  "    with({ d: __f1, this: undefined, arguments: undefined }) {",
  'return (...a) => d("check", a);',
  "    }",
  "  }).apply(undefined, undefined).apply(this, arguments);",
  "}",
  "function __f3() {",
  "  return (function() {",
  "    with({ d: __f1, this: undefined, arguments: undefined }) {",
  'return (...a) => d("read", a);',
  "    }",
  "  }).apply(undefined, undefined).apply(this, arguments);",
  "}",
  "function __f0() {",
  "  return (function() {",
  "    with({ provider: __provider, this: undefined, arguments: undefined }) {",
  "return () => provider;",
  "    }",
  "  }).apply(undefined, undefined).apply(this, arguments);",
  "}",
].join("\n");

/** The host's own loader: require-from-string as @pulumi/pulumi's dynamic-provider host resolves it. */
const requireFromString = createRequire(require.resolve("@pulumi/pulumi/cmd/dynamic-provider"))(
  "require-from-string",
) as (code: string) => { handler: () => Record<string, (...args: unknown[]) => Promise<unknown>> };

/** What the dynamic-provider host does with `__provider` (@pulumi/pulumi cmd/dynamic-provider getProvider). */
function hostProvider(text: string): Record<string, (...args: unknown[]) => Promise<unknown>> {
  return requireFromString(text).handler();
}

const OPERATION_WAIT_URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/operations:OperationWait::w";

describe("the __provider module", () => {
  it("is one line of at most 100 bytes that only requires the package entry", () => {
    assert.equal(PROVIDER_MODULE, 'exports.handler = () => require("pulumi-opsledger/provider").provider;\n');
    assert.ok(PROVIDER_MODULE.length <= 100, `${PROVIDER_MODULE.length} bytes`);
    assert.doesNotMatch(PROVIDER_MODULE, /googleapis|axios|Authorization|token|credential/i);
  });

  it("evaluates, as the dynamic-provider host evaluates it, to the package's provider with every method", async () => {
    const hosted = hostProvider(PROVIDER_MODULE);
    assert.equal(hosted, provider, "the same object the package exports");
    for (const method of ["configure", "check", "diff", "create", "read", "update", "delete"]) {
      assert.equal(typeof hosted[method], "function", method);
    }
    const result = (await hosted["check"]!({}, { __urn: OPERATION_WAIT_URN, operation: "not a name!" })) as {
      failures?: { property: string }[];
    };
    assert.deepEqual(
      result.failures?.map((f) => f.property),
      ["operation"],
    );
  });

  it("keeps state written by earlier versions working: their serialized closures still reach dispatch", async () => {
    const hosted = hostProvider(LEGACY_STUB);
    const result = (await hosted["check"]!({}, { __urn: OPERATION_WAIT_URN, operation: "not a name!" })) as {
      failures?: { property: string }[];
    };
    assert.deepEqual(
      result.failures?.map((f) => f.property),
      ["operation"],
    );
  });

  it("is what every resource registers, under the dynamic type token pulumi.dynamic.Resource would use", async () => {
    const registered: { type: string; provider: unknown }[] = [];
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          registered.push({ type: args.type, provider: (args.inputs as Record<string, unknown>)["__provider"] });
          const state: Record<string, unknown> = { ...(args.inputs as Record<string, unknown>) };
          return { id: `${args.name}-id`, state };
        },
        call: () => ({}),
      },
      "project",
      "stack",
      true,
    );
    const move = new FirewallPolicyMove("m", { firewallPolicy: "1", parentId: "folders/2" });
    const wait = new OperationWait("w", { operation: "operation-1" });
    await new Promise<void>((resolve) => {
      pulumi.all([move.urn, wait.urn]).apply(() => {
        resolve();
      });
    });
    assert.deepEqual(
      registered.sort((a, b) => a.type.localeCompare(b.type)),
      [
        { type: FIREWALL_POLICY_MOVE_TYPE, provider: PROVIDER_MODULE },
        { type: OPERATION_WAIT_TYPE, provider: PROVIDER_MODULE },
      ],
    );
    // The classes' isInstance, which policy packs ask about either face's type (docs/policy.md), on real resources.
    assert.deepEqual(
      [FirewallPolicyMove.isInstance(move), FirewallPolicyMove.isInstance(wait), OperationWait.isInstance(move)],
      [true, false, false],
    );
    assert.deepEqual(
      [pulumi.CustomResource.isInstance(move), FirewallPolicyMove.isInstance(undefined), OperationWait.isInstance("x")],
      [true, false, false],
    );
    assert.throws(
      () => new FirewallPolicyMove("x", { firewallPolicy: "1", parentId: "folders/2", __provider: "x" } as never),
      /must not define the __provider key/,
    );
  });
});

describe("provider dispatch", () => {
  const urn = (type: string): string => `urn:pulumi:dev::p::pulumi-nodejs:dynamic/${type}::name`;

  it("routes a call by the type token in the __urn input, or in resourceUrn in older state", async () => {
    for (const key of ["__urn", "resourceUrn"]) {
      const result = (await dispatch("check", [
        {},
        { [key]: urn("operations:OperationWait"), operation: "not a name!" },
      ])) as {
        failures?: { property: string }[];
      };
      assert.deepEqual(
        result.failures?.map((f) => f.property),
        ["operation"],
        key,
      );
    }
  });

  it("hands the host a plain Error with the message, never an error whose fields grpc-js would misread", async () => {
    const error = await dispatch("check", [
      {},
      { __urn: urn("compute:FirewallPolicyMove"), firewallPolicy: "1", parentId: "folders/1" },
    ]).then(
      () => undefined,
      (e: unknown) => e,
    );
    assert.equal(error, undefined, "check of valid input resolves");
    const failed = await dispatch("read", [
      "id",
      { __urn: urn("operations:OperationWait"), operation: "not an operation!" },
    ]).catch((e: unknown) => e);
    assert.ok(failed instanceof Error);
    assert.equal(Object.getPrototypeOf(failed), Error.prototype);
    assert.deepEqual(Object.keys(failed), []);
    assert.match(failed.message, /operation/);
  });

  it("refuses state from an unknown provider with the upgrade hint", async () => {
    await assert.rejects(
      dispatch("create", [{ __urn: urn("ledger:Future") }]),
      /the installed version has no provider ledger:Future\.create; upgrade the package that wrote this state/,
    );
  });
});
