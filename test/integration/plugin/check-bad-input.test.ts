/**
 * The bad-input table (test/helpers/bad-input-table.ts) through the resource plugin: the process the engine runs
 * (bin/pulumi-resource-opsledger), configured as the engine configures it (Configure with a service-account key and
 * the sandbox's endpoints), called over its gRPC service. Each row a resource of the plugin takes as inputs goes through
 * Check; each row a function takes as arguments, through Invoke. Every row is refused with the client's own
 * field-and-fix words, and the sandbox sees no request at all, not even a token fetch.
 *
 * The rows are called directly over gRPC rather than through a program: the table has over forty rows, and a program
 * per row would cost a `pulumi preview` (seconds of CPU) each to show what one Check shows. The engine's part, passing
 * a program's properties to Check and printing its failures, is no code of this package.
 */
import { strict as assert } from "node:assert";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { startGoogleSandbox } from "../../../sandbox/google";
import type { GoogleSandbox } from "../../../sandbox/google";
import { PLUGIN_BUILDS } from "../../helpers/plugin-builds";
import { startPluginProcess } from "../../helpers/plugin-process";
import type { PluginProcess } from "../../helpers/plugin-process";
import { CASES } from "../../helpers/bad-input-table";
import type { BadInput } from "../../helpers/bad-input-table";
import { DEPLOYER, sandboxEndpoints, tokenRequests } from "../google/helpers";
import { call } from "../../helpers/grpc-unary";

const VALID_PARENT = "folders/200000000002";

/** How a row reaches the plugin: a resource's Check with these inputs, or a function's Invoke with these arguments. */
type Route =
  | { readonly via: "check"; readonly type: string; readonly inputs: Record<string, unknown> }
  | { readonly via: "invoke"; readonly token: string; readonly args: Record<string, unknown> };

/**
 * The plugin's way in for a row, or why it has none: the endpoint's parameters are a resource's inputs or a function's
 * arguments under the same names, or they are not the plugin's to take.
 */
function routeOf(c: BadInput): Route | { readonly none: string } {
  const params = c.params as Record<string, unknown>;
  switch (c.id) {
    case "compute.firewallPolicies.move":
      if (params["requestId"] === undefined)
        return { none: "the resource derives requestId: a move without one is valid" };
      if ("parentID" in params) return { none: "the resource has no unknown-parameter check: the engine's schema has" };
      return { via: "check", type: "opsledger:compute:FirewallPolicyMove", inputs: params };
    case "compute.firewallPolicies.get":
      return {
        via: "check",
        type: "opsledger:compute:FirewallPolicyMove",
        inputs: { firewallPolicy: params["firewallPolicy"], parentId: VALID_PARENT },
      };
    case "compute.globalOrganizationOperations.get":
      // OperationWait's `operation` is wider than this endpoint's parameter (a selfLink, or an IAM operation's name), so
      // it refuses with its own words, the same through both faces (test/unit/plugin/adapter.test.ts, "the bad-input
      // table through both faces' check").
      return { none: "OperationWait's operation input is not this endpoint's parameter" };
    case "displayvideo.inventorySourceGroups.delete":
      return { via: "check", type: "opsledger:displayvideo:InventorySourceGroupDeletion", inputs: params };
    case "iam.operations.get":
      return { via: "invoke", token: "opsledger:iam:getOperation", args: params };
    case "deploymentmanager.deployments.get":
      return { via: "invoke", token: "opsledger:deploymentmanager:getDeployment", args: params };
    case "workspaceevents.subscriptions.get":
      return { via: "invoke", token: "opsledger:workspaceevents:getSubscription", args: params };
    case "displayvideo.advertisers.creatives.get":
      return { via: "invoke", token: "opsledger:displayvideo:getCreative", args: params };
    case "iam.workforcePools.getIamPolicy":
      return { none: "getWorkforcePoolIamPolicy takes a pool id and builds the resource name itself" };
    default:
      return { none: "no resource or function of the plugin takes this endpoint's parameters" };
  }
}

function struct(value: Record<string, unknown>): structproto.Struct {
  return structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);
}

for (const build of PLUGIN_BUILDS)
  describe(`the bad-input table through pulumi-resource-opsledger's Check and Invoke, the ${build.name} (plugin process, sandbox)`, function () {
    this.timeout(120_000);
    let sandbox: GoogleSandbox;
    let plugin: PluginProcess;
    let client: provrpc.ResourceProviderClient;

    before(async function () {
      // The executable is built on first use (test/helpers/plugin-builds.ts): a minute or two.
      this.timeout(600_000);
      const dir = await build.dir();
      sandbox = await startGoogleSandbox();
      plugin = await startPluginProcess(dir);
      client = plugin.client;
      const key = JSON.stringify(sandbox.serviceAccountKey(DEPLOYER));
      await call(
        client.configure.bind(client),
        new provproto.ConfigureRequest()
          .setArgs(struct({ ...sandboxEndpoints(sandbox), credentials: key }))
          .setAcceptsecrets(true),
      );
    });
    beforeEach(() => {
      sandbox.reset();
    });
    after(async () => {
      await plugin.stop();
      await sandbox.close();
    });

    it("reaches the sandbox with its credentials on a good call (which no row below may do)", async () => {
      const answer = await call<provproto.InvokeRequest, provproto.InvokeResponse>(
        client.invoke.bind(client),
        new provproto.InvokeRequest()
          .setTok("opsledger:iam:getOperation")
          .setArgs(struct({ name: "folders/200000000001/locations/global/operations/op-binding-created" })),
      );
      assert.deepEqual(answer.getFailuresList(), []);
      assert.equal(answer.getReturn()?.toJavaScript()["done"], true);
      assert.deepEqual(
        sandbox.requests().map((r) => `${r.route ?? ""} ${r.status}`),
        ["oauth2.token 200", "iam.operations.get 200"],
      );
    });

    it("takes most of the rows through Check or Invoke", () => {
      const routed = CASES.map(routeOf).filter((r) => "via" in r);
      assert.ok(routed.length >= 28, `${String(routed.length)} of ${String(CASES.length)} rows`);
      assert.deepEqual([...new Set(routed.map((r) => ("type" in r ? r.type : r.token)))].sort(), [
        "opsledger:compute:FirewallPolicyMove",
        "opsledger:deploymentmanager:getDeployment",
        "opsledger:displayvideo:InventorySourceGroupDeletion",
        "opsledger:displayvideo:getCreative",
        "opsledger:iam:getOperation",
        "opsledger:workspaceevents:getSubscription",
      ]);
    });

    for (const [index, c] of CASES.entries()) {
      const route = routeOf(c);
      if (!("via" in route)) continue;
      it(`refuses bad input #${String(index + 1)} of ${c.id} through ${route.via === "check" ? route.type : route.token}, sending nothing`, async () => {
        if (route.via === "check") {
          const urn = `urn:pulumi:dev::bad-input::${route.type}::r`;
          const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
            client.check.bind(client),
            new provproto.CheckRequest()
              .setUrn(urn)
              .setType(route.type)
              .setOlds(struct({}))
              .setNews(struct(route.inputs)),
          );
          assert.equal(
            checked
              .getFailuresList()
              .map((f) => `${f.getProperty()}: ${f.getReason()}`)
              .join("; "),
            c.failures,
          );
        } else if (Object.values(route.args).includes("")) {
          // The plugin answers an empty required argument as a missing one (provider/schema/schema.ts requiredFailures),
          // before the function's own check: a failure naming it and the fix, where the TypeScript face gives the
          // client's format words (the table's). Both send nothing.
          const answer = await call<provproto.InvokeRequest, provproto.InvokeResponse>(
            client.invoke.bind(client),
            new provproto.InvokeRequest().setTok(route.token).setArgs(struct(route.args)),
          );
          assert.deepEqual(
            answer.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
            Object.entries(route.args)
              .filter(([, v]) => v === "")
              .map(([k]) => `${k}: is required by ${route.token}; set ${k}`),
          );
        } else {
          await assert.rejects(
            call(
              client.invoke.bind(client),
              new provproto.InvokeRequest().setTok(route.token).setArgs(struct(route.args)),
            ),
            (e: grpc.ServiceError) => {
              assert.equal(e.details, `${c.id}: invalid input: ${c.failures}`);
              return true;
            },
          );
        }
        assert.deepEqual(tokenRequests(sandbox), []);
        assert.deepEqual(sandbox.requests(), []);
        assert.deepEqual(sandbox.audit(), []);
      });
    }
  });
