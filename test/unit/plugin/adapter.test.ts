import { strict as assert } from "node:assert";
import { ValidationError } from "../../../provider/errors";
import * as adapter from "../../../provider/plugin/adapter";
import { RESOURCES } from "../../../provider/plugin/kinds";
import type { ResourceKind, ResourceModule } from "../../../provider/plugin/kinds";
import { isSecret, SECRET_SIG, SIG_KEY } from "../../../provider/plugin/secrets";
import { createRootCa, issueCertificate, privateKeyPem } from "../../../sandbox/fabric/certificates";
import { firewallPolicyMoveProvider } from "../../../provider/resources/firewall-policy-move";
import { moveInputFailures } from "../../../provider/resources/validate";
import { deriveTxId } from "../../../provider/resources/ledger/ledger-transaction-txid";

const MOVE = "opsledger:compute:FirewallPolicyMove";
const LEDGER = "opsledger:ledger:LedgerTransaction";
const URN = `urn:pulumi:dev::proj::${MOVE}::edge`;
const secret = (value: unknown): Record<string, unknown> => ({ [SIG_KEY]: SECRET_SIG, value });

/** A resource module that records what it was given and returns its inputs (plus a computed output) as outputs. */
function probe(): { kinds: Record<string, ResourceKind>; seen: Record<string, unknown>[] } {
  const seen: Record<string, unknown>[] = [];
  const module: ResourceModule = {
    check: (_olds, news) => Promise.resolve({ inputs: news }),
    diff: () => Promise.resolve({ changes: false }),
    create: (inputs) => {
      seen.push(inputs as Record<string, unknown>);
      return Promise.resolve({ id: "probe-1", outs: { ...(inputs as object), computed: "c" } });
    },
  };
  return {
    kinds: {
      "opsledger:test:Probe": {
        module,
        timeoutSteps: ["create"],
        adopt: (id, urn) => {
          seen.push({ adopted: id, urn });
          return Promise.resolve(
            id === "gone" ? { id: "" } : { id, props: { token: "t", kept: id }, inputs: { token: "t" } },
          );
        },
      },
    },
    seen,
  };
}

describe("the plugin's adapter (provider/plugin/adapter.ts) over the per-resource modules", () => {
  it("checks through the module the dynamic face runs: URN under its key, the requestId derived once", async () => {
    const first = await adapter.check(MOVE, URN, {}, { firewallPolicy: "700000000002", parentId: "folders/2" });
    assert.deepEqual(first.failures, []);
    assert.equal(first.inputs["__urn"], URN);
    assert.equal(first.inputs["__generation"], 1);
    const direct = await firewallPolicyMoveProvider.check(
      {},
      { __urn: URN, firewallPolicy: "700000000002", parentId: "folders/2" },
    );
    assert.deepEqual(first.inputs, direct.inputs, "the same requestId as the dynamic face for the same URN");
  });

  it("refuses bad input with the dynamic face's field-and-fix messages", async () => {
    const bad = { firewallPolicy: "policy-x", parentId: "projects/1", timeouts: { create: "soon" } };
    const result = await adapter.check(MOVE, URN, {}, bad);
    assert.deepEqual(
      result.failures.map((f) => f.property),
      ["firewallPolicy", "parentId", "timeouts.create"],
    );
    assert.deepEqual(result.failures.slice(0, 2), moveInputFailures(bad));
    assert.match(result.failures[2]?.reason ?? "", /'soon' is not a duration; use a number with ms, s, m or h/);
  });

  it("shows a parent change as one in-place `parentId` update, and a policy change as a replacement", async () => {
    const oldInputs = {
      __urn: URN,
      __generation: 1,
      __requestId: "r1",
      firewallPolicy: "700000000002",
      parentId: "folders/3",
    };
    const olds = { ...oldInputs, firewallPolicyId: "700000000002", parent: "folders/3", previousParent: "folders/1" };
    const news = { ...oldInputs, __generation: 2, __requestId: "r2", parentId: "folders/2" };
    const moved = await adapter.diff(MOVE, URN, "id", olds, oldInputs, news);
    assert.deepEqual(moved, {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
      detailedDiff: { parentId: "update" },
    });
    const replaced = await adapter.diff(MOVE, URN, "id", olds, oldInputs, {
      ...oldInputs,
      firewallPolicy: "700000000009",
    });
    assert.deepEqual(replaced.replaces, ["firewallPolicy"]);
    assert.deepEqual(replaced.detailedDiff, { firewallPolicy: "updateReplace" });
    const same = await adapter.diff(MOVE, URN, "id", olds, oldInputs, oldInputs);
    assert.deepEqual(same, { changes: false, replaces: [], deleteBeforeReplace: false, detailedDiff: {} });
  });

  it("hands the module plain values and marks the secret inputs' outputs secret again", async () => {
    const { kinds, seen } = probe();
    const result = await adapter.create(
      "opsledger:test:Probe",
      "urn:pulumi:dev::proj::opsledger:test:Probe::p",
      { token: secret("s3cr3t"), nested: { pin: secret("1234") }, plain: "x" },
      0,
      kinds,
    );
    assert.deepEqual(seen[0], {
      token: "s3cr3t",
      nested: { pin: "1234" },
      plain: "x",
      __urn: "urn:pulumi:dev::proj::opsledger:test:Probe::p",
    });
    assert.deepEqual(result.outs["token"], secret("s3cr3t"));
    assert.deepEqual(result.outs["nested"], secret({ pin: "1234" }));
    assert.equal(result.outs["plain"], "x");
    assert.equal(result.outs["computed"], "c");
  });

  it("marks the kind's own secret outputs (no input carries them), as the SDK's additionalSecretOutputs does", async () => {
    const { kinds } = probe();
    const probeKind = kinds["opsledger:test:Probe"];
    assert.ok(probeKind !== undefined);
    const withSecretOutput = { "opsledger:test:Probe": { ...probeKind, secretOutputs: ["computed"] } };
    const urn = "urn:pulumi:dev::proj::opsledger:test:Probe::p";
    const result = await adapter.create("opsledger:test:Probe", urn, { plain: "x" }, 0, withSecretOutput);
    assert.deepEqual(result.outs["computed"], secret("c"));
    assert.equal(result.outs["plain"], "x");
    assert.deepEqual(RESOURCES[LEDGER]?.secretOutputs, ["credentials"]);
  });

  it("checks a LedgerTransaction through the module the SDK runs: the URN under __urn, the txId derived from it", async () => {
    const ca = createRootCa({ commonName: "ca.org1.test", organization: "Org1" });
    const client = issueCertificate(ca, { subject: { commonName: "User1", organization: "Org1" } });
    const identity = {
      mspId: "Org1MSP",
      certificatePem: client.certificatePem,
      privateKeyPem: secret(privateKeyPem(client.privateKey)),
    };
    const urn = `urn:pulumi:dev::proj::${LEDGER}::asset`;
    const news = {
      gateway: { address: "127.0.0.1:1" },
      channel: "c",
      chaincode: "assets",
      function: "CreateAsset",
      args: ["a", "b"],
      identity,
      trustedRootCertificates: { Org1MSP: ca.certificatePem },
    };
    const checked = await adapter.check(LEDGER, urn, {}, news);
    assert.deepEqual(checked.failures, []);
    assert.equal(checked.inputs["__urn"], urn);
    const plainIdentity = { ...identity, privateKeyPem: privateKeyPem(client.privateKey) };
    assert.equal(checked.inputs["txId"], deriveTxId(plainIdentity, urn, 1));
    assert.ok(isSecret(checked.inputs["identity"]), "the identity holding a secret key stays secret");
  });

  it("gives the module a customTimeouts deadline as timeouts[step], never over the user's own, and keeps it out of state", async () => {
    const { kinds, seen } = probe();
    const urn = "urn:pulumi:dev::proj::opsledger:test:Probe::p";
    const derived = await adapter.create("opsledger:test:Probe", urn, { a: 1 }, 90, kinds);
    assert.deepEqual(seen[0]?.["timeouts"], { create: "90s" });
    assert.equal("timeouts" in derived.outs, false);
    const own = await adapter.create("opsledger:test:Probe", urn, { timeouts: { create: "5m" } }, 90, kinds);
    assert.deepEqual(seen[1]?.["timeouts"], { create: "5m" });
    assert.deepEqual(own.outs["timeouts"], { create: "5m" });
  });

  it("refuses an unknown type or function by name, and a missing argument before any request", async () => {
    assert.throws(
      () => adapter.kindOf("opsledger:compute:Nope"),
      /unknown resource type opsledger:compute:Nope; this plugin serves opsledger:compute:FirewallPolicyMove, /,
    );
    let calls = 0;
    const caller = (() => {
      calls++;
      return Promise.resolve({});
    }) as unknown as Parameters<typeof adapter.invoke>[2];
    await assert.rejects(
      adapter.invoke("opsledger:iam:getNothing", {}, caller),
      /unknown function opsledger:iam:getNothing/,
    );
    const missing = await adapter.invoke("opsledger:iam:getOperation", {}, caller);
    assert.deepEqual(missing.failures, [
      { property: "name", reason: "is required by opsledger:iam:getOperation; set name" },
    ]);
    assert.equal(calls, 0);
    const read = await adapter.invoke(
      "opsledger:deploymentmanager:getDeployment",
      { project: "p", deployment: secret("d") },
      caller,
    );
    assert.deepEqual(read, { result: {}, failures: [] });
    assert.equal(calls, 1);
  });

  it("serves the ledger reads: a missing argument is a failure, a malformed txId is refused before any request", async () => {
    let calls = 0;
    const caller = (() => {
      calls++;
      return Promise.resolve({});
    }) as unknown as Parameters<typeof adapter.invoke>[2];
    const missing = await adapter.invoke("opsledger:ledger:getTransaction", { channel: "c" }, caller);
    assert.deepEqual(
      missing.failures.map((f) => f.property),
      ["txId", "gateway", "identity"],
    );
    // A loopback address nothing listens on: were a request sent, the error would be a connection failure instead.
    const args = {
      gateway: { address: "127.0.0.1:1" },
      channel: "c",
      identity: { mspId: "Org1MSP", certificatePem: "-", keyEnv: "NO_SUCH_KEY_ENV" },
      txId: "xyz",
    };
    await assert.rejects(adapter.invoke("opsledger:ledger:getTransaction", args, caller), (e: unknown) => {
      assert.ok(e instanceof ValidationError);
      assert.deepEqual(
        e.failures.map((f) => f.property),
        ["identity.certificatePem", "txId"],
      );
      return true;
    });
    assert.equal(calls, 0);
  });

  it("treats a Read with no state as an import: the kind adopts, its secrets marked; not found is an empty id", async () => {
    const { kinds, seen } = probe();
    const probeUrn = "urn:pulumi:dev::proj::opsledger:test:Probe::p";
    const adopted = await adapter.read("opsledger:test:Probe", probeUrn, "obj-7", {}, {}, kinds);
    assert.deepEqual(adopted, { id: "obj-7", props: { token: "t", kept: "obj-7" }, inputs: { token: "t" } });
    assert.deepEqual(seen, [{ adopted: "obj-7", urn: probeUrn }]);
    assert.deepEqual(await adapter.read("opsledger:test:Probe", probeUrn, "gone", {}, {}, kinds), {
      id: "",
      props: {},
      inputs: {},
    });
  });

  it("refuses to import a deletion or a ledger transaction (or list of them), saying why and what to declare instead", async () => {
    const refusals = await Promise.all(
      [
        "opsledger:displayvideo:InventorySourceGroupDeletion",
        "opsledger:ledger:LedgerTransaction",
        "opsledger:ledger:LedgerTransactions",
      ].map((type) =>
        adapter.read(type, `urn:pulumi:dev::proj::${type}::x`, "some-id", {}, {}).then(
          () => "adopted",
          (e: unknown) => (e as Error).message,
        ),
      ),
    );
    assert.deepEqual(refusals, [
      "opsledger:displayvideo:InventorySourceGroupDeletion cannot be imported: the resource is the deletion of a group, not the group; an existing group has no deletion to adopt, and a group already gone needs none. Declare it without import: its create deletes the group, and records a group already gone (404) as alreadyAbsent without an error",
      "opsledger:ledger:LedgerTransaction cannot be imported: its inputs (the signing identity, a secret, and the transient data) cannot be read back from the ledger, and its exactly-once txId is derived from the resource's URN, so a transaction another program committed cannot be adopted. Declare it without import: a transaction this resource already committed under its txId is found on the ledger and adopted, not submitted again",
      "opsledger:ledger:LedgerTransactions cannot be imported: its items' exactly-once txIds are derived from the resource's URN, and its signing identity cannot be read back from the ledger. Declare it without import: every item this resource already committed under its txId is found on the ledger and adopted, not submitted again",
    ]);
  });

  it("reads a resource's type from its URN, a child's too", () => {
    assert.equal(adapter.typeOfUrn(URN), MOVE);
    assert.equal(adapter.typeOfUrn(`urn:pulumi:dev::proj::my:index:Parent$${MOVE}::edge`), MOVE);
  });
});

/** Bad inputs of each Google resource: the plugin's check must refuse each exactly as the dynamic face's does. */
const BAD_INPUTS: readonly (readonly [string, Record<string, unknown>])[] = [
  ["opsledger:compute:FirewallPolicyMove", { firewallPolicy: "x", parentId: "projects/1" }],
  [
    "opsledger:compute:FirewallPolicyMove",
    { parentId: "folders/1", requestId: "00000000-0000-0000-0000-000000000000" },
  ],
  ["opsledger:compute:FirewallPolicyMove", { firewallPolicy: "1", parentId: "folders/1", restoreOnDelete: "yes" }],
  ["opsledger:displayvideo:InventorySourceGroupDeletion", { inventorySourceGroupId: 5005, partnerId: "1001" }],
  ["opsledger:displayvideo:InventorySourceGroupDeletion", { inventorySourceGroupId: "5005" }],
  [
    "opsledger:displayvideo:InventorySourceGroupDeletion",
    { inventorySourceGroupId: "5005", partnerId: "1", advertiserId: "2" },
  ],
  ["opsledger:operations:OperationWait", { operation: "" }],
  ["opsledger:operations:OperationWait", { operation: "operations/x", timeouts: { create: "forever" } }],
];

describe("the bad-input table through both faces' check", () => {
  for (const [type, news] of BAD_INPUTS) {
    it(`refuses ${type.split(":")[2] ?? type} ${JSON.stringify(news)} with the dynamic face's messages`, async () => {
      const urn = `urn:pulumi:dev::proj::${type}::r`;
      const plugin = await adapter.check(type, urn, {}, news);
      const dynamic = await adapter.kindOf(type).module.check({ __urn: urn }, { ...news, __urn: urn });
      assert.ok(plugin.failures.length > 0, "refused");
      assert.deepEqual(plugin.failures, dynamic.failures);
    });
  }
});
