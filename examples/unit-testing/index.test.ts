/**
 * Unit tests of index.ts under Pulumi's mocks (pulumi.runtime.setMocks, as Pulumi's unit-testing guide writes them):
 * resources reach `newResource`, and every pulumi-opsledger data source reaches `call` under the token the plugin
 * serves it under, so nothing is sent to Google or a Fabric gateway and no credential is looked up.
 * Run: `npm test` (mocha with ts-node).
 */
import { strict as assert } from "node:assert";
import { before, beforeEach, describe, it } from "mocha";
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

interface Call {
  token: string;
  inputs: Record<string, unknown>;
}

/** The mocks' answers by token; a test removes one to see an unanswered data source fail. */
const ANSWERS = new Map<string, Record<string, unknown>>(
  Object.entries({
    "opsledger:iam:getWorkforcePoolIamPolicy": {
      resource: "locations/global/workforcePools/contractors",
      etag: "BwX1",
    },
    "opsledger:iam:getOperation": { name: "op-1", done: true },
    "opsledger:deploymentmanager:getDeployment": {
      name: "web-stack",
      labels: [{ key: "security-folder", value: "200000000003" }],
    },
    "opsledger:workspaceevents:getSubscription": { name: "subscriptions/chat", state: "ACTIVE" },
    "opsledger:displayvideo:getCreative": { displayName: "Spring banner" },
    "opsledger:ledger:getTransaction": { txId: "ab".repeat(32), validationCode: "VALID" },
    "opsledger:ledger:evaluate": { result: { utf8: "{}" } },
    "opsledger:ledger:getChainInfo": { height: "7" },
  }),
);

const calls: Call[] = [];
const registered: pulumi.runtime.MockResourceArgs[] = [];

const mocks: pulumi.runtime.Mocks = {
  newResource(args) {
    registered.push(args);
    return { id: `${args.name}-id`, state: args.inputs as Record<string, unknown> };
  },
  call(args) {
    calls.push({ token: args.token, inputs: args.inputs as Record<string, unknown> });
    const answer = ANSWERS.get(args.token);
    if (answer === undefined) throw new Error(`no mock for ${args.token}`);
    return answer;
  },
};

/** An Output's value (the tests' Outputs are known). */
function valueOf<T>(output: pulumi.Output<T>): Promise<T> {
  return new Promise((resolve) => output.apply(resolve));
}

const gateway = { address: "peer0.org1.example.com:7051" };
const identity = { mspId: "Org1MSP", certificatePem: "-----BEGIN CERTIFICATE-----", keyEnv: "LEDGER_KEY_PEM" };

/**
 * Each data source of the package with arguments, in its promise and Output forms. The Google reads take an
 * opsledger.Provider in their options; the ledger reads take their gateway and identity as arguments instead.
 */
interface DataSource {
  readonly token: string;
  readonly inputs: Record<string, unknown>;
  readonly promised: (o?: opsledger.InvokeOptions) => Promise<unknown>;
  readonly output: (o?: opsledger.InvokeOptions) => pulumi.Output<unknown>;
  readonly takesProvider: boolean;
}

const txId = "ab".repeat(32);
const query = { chaincode: "assets", function: "ReadAsset", args: ["a1"], gateway, channel: "c", identity };
const DATA_SOURCES: DataSource[] = [
  {
    token: "opsledger:iam:getWorkforcePoolIamPolicy",
    inputs: { workforcePoolId: "contractors" },
    promised: (o) => opsledger.iam.getWorkforcePoolIamPolicy({ workforcePoolId: "contractors" }, o),
    output: (o) => opsledger.iam.getWorkforcePoolIamPolicyOutput({ workforcePoolId: pulumi.output("contractors") }, o),
    takesProvider: true,
  },
  {
    token: "opsledger:iam:getOperation",
    inputs: { name: "op-1" },
    promised: (o) => opsledger.iam.getOperation({ name: "op-1" }, o),
    output: (o) => opsledger.iam.getOperationOutput({ name: "op-1" }, o),
    takesProvider: true,
  },
  {
    token: "opsledger:deploymentmanager:getDeployment",
    inputs: { project: "p", deployment: "web-stack" },
    promised: (o) => opsledger.deploymentmanager.getDeployment({ project: "p", deployment: "web-stack" }, o),
    output: (o) => opsledger.deploymentmanager.getDeploymentOutput({ project: "p", deployment: "web-stack" }, o),
    takesProvider: true,
  },
  {
    token: "opsledger:workspaceevents:getSubscription",
    inputs: { name: "subscriptions/chat" },
    promised: (o) => opsledger.workspaceevents.getSubscription({ name: "subscriptions/chat" }, o),
    output: (o) => opsledger.workspaceevents.getSubscriptionOutput({ name: "subscriptions/chat" }, o),
    takesProvider: true,
  },
  {
    token: "opsledger:displayvideo:getCreative",
    inputs: { advertiserId: "2001", creativeId: "7001" },
    promised: (o) => opsledger.displayvideo.getCreative({ advertiserId: "2001", creativeId: "7001" }, o),
    output: (o) => opsledger.displayvideo.getCreativeOutput({ advertiserId: "2001", creativeId: "7001" }, o),
    takesProvider: true,
  },
  {
    token: "opsledger:ledger:getTransaction",
    inputs: { txId, gateway, channel: "c", identity },
    promised: () => opsledger.ledger.getTransaction({ txId, gateway, channel: "c", identity }),
    output: () => opsledger.ledger.getTransactionOutput({ txId, gateway, channel: pulumi.output("c"), identity }),
    takesProvider: false,
  },
  {
    token: "opsledger:ledger:evaluate",
    inputs: query,
    promised: () => opsledger.ledger.evaluate(query),
    output: () => opsledger.ledger.evaluateOutput(query),
    takesProvider: false,
  },
  {
    token: "opsledger:ledger:getChainInfo",
    inputs: { gateway, channel: "c", identity },
    promised: () => opsledger.ledger.getChainInfo({ gateway, channel: "c", identity }),
    output: () => opsledger.ledger.getChainInfoOutput({ gateway, channel: "c", identity }),
    takesProvider: false,
  },
];

for (const preview of [false, true]) {
  void describe(`pulumi-opsledger under Pulumi's mocks (${preview ? "preview" : "update"})`, () => {
    before(async () => {
      await pulumi.runtime.setMocks(mocks, "opsledger-unit-testing", "test", preview);
    });
    beforeEach(() => {
      calls.length = 0;
    });

    for (const { token, inputs, promised, output, takesProvider } of DATA_SOURCES) {
      const explicit = new opsledger.Provider("org-b", { accessToken: "not-a-real-token" });
      for (const provider of takesProvider ? [undefined, explicit] : [undefined]) {
        const how = provider === undefined ? "" : " with an explicit provider";
        it(`answers ${token} from the mocks' call, promise and Output forms${how}`, async () => {
          const options = provider === undefined ? undefined : { provider };
          assert.deepEqual(await promised(options), ANSWERS.get(token));
          assert.deepEqual(await valueOf(output(options)), ANSWERS.get(token));
          assert.deepEqual(calls, [
            { token, inputs },
            { token, inputs },
          ]);
        });
      }
    }

    it("fails at once, naming the token, when the mocks do not answer a data source", async () => {
      const token = "opsledger:displayvideo:getCreative";
      const answer = ANSWERS.get(token);
      ANSWERS.delete(token);
      try {
        await assert.rejects(
          opsledger.displayvideo.getCreative({ advertiserId: "2001", creativeId: "7001" }),
          new RegExp(`^Error: ${token}: the mocks' call failed`),
        );
      } finally {
        if (answer !== undefined) ANSWERS.set(token, answer);
      }
    });
  });
}

void describe("index.ts under Pulumi's mocks", () => {
  let program: typeof import("./index");
  before(async () => {
    await pulumi.runtime.setMocks(mocks, "opsledger-unit-testing", "test", false);
    // The program loads after setMocks, as Pulumi's guide requires: a require, which ts-node compiles like any module.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    program = require("./index") as typeof import("./index");
  });

  it("moves the policy under the folder the deployment's label names", () => {
    const move = registered.find((r) => r.name === "edge-policy");
    assert.ok(move !== undefined, "the move reached newResource");
    assert.equal(move.type, "pulumi-nodejs:dynamic/compute:FirewallPolicyMove");
    // The package's plumbing travels under `__` keys (the provider module, ...): compare the rest.
    const inputs = move.inputs as Record<string, unknown>;
    const userInputs = Object.fromEntries(Object.entries(inputs).filter(([k]) => !k.startsWith("__")));
    assert.deepEqual(userInputs, { firewallPolicy: "700000000002", parentId: "folders/200000000003" });
  });

  it("exports the ledger's height from the mocked getChainInfo", async () => {
    assert.equal(await valueOf(program.ledgerHeight), "7");
  });
});
