/**
 * The chaincode lifecycle through the resource plugin, the face YAML, Go and Python programs use: each build of it
 * (test/helpers/plugin-builds.ts: the npm package's script and the linux-amd64 executable) called over its gRPC
 * service as the engine calls it, against the in-process Fabric sandbox. A package, its installation on both
 * organizations' peers, both approvals and the commit by their schema tokens (Check, then Create), the package's bytes
 * marked secret in the outputs, a second Check and Diff planning nothing, a bad policy refused by Check naming the
 * field with nothing read or sent, and the getChaincodeDefinition function by Invoke. The same modules as the
 * TypeScript face's dynamic providers (test/integration/ledger/chaincode-resources-sandbox.test.ts); here what the
 * plugin adds is under test: the registry's tokens, the URN plumbing, secrets on the wire.
 */
import { strict as assert } from "node:assert";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { buildCcaasPackage } from "../../../provider/ledger/lifecycle/chaincode-package";
import { startFabricSandbox } from "../../../sandbox/fabric";
import type { FabricSandbox, SandboxIdentity } from "../../../sandbox/fabric";
import { call } from "../../helpers/grpc-unary";
import { PLUGIN_BUILDS } from "../../helpers/plugin-builds";
import { startPluginProcess } from "../../helpers/plugin-process";
import type { PluginProcess } from "../../helpers/plugin-process";

/** Pulumi's marker of a secret value in a Struct (the engine's secret signature key and value). */
const SECRET_SIG = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const POLICY = "OR('Org1MSP.peer','Org2MSP.peer')";
const ORGS = ["Org1MSP", "Org2MSP"] as const;

type Props = Record<string, unknown>;
const struct = (value: Props): structproto.Struct =>
  structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);
const urnOf = (type: string, name: string): string => `urn:pulumi:dev::chaincode::${type}::${name}`;
/** A secret's value, as the wire carries it. */
const unsecret = (value: unknown): unknown => (value as { value?: unknown }).value;

for (const build of PLUGIN_BUILDS)
  describe(`the chaincode lifecycle through pulumi-resource-opsledger, the ${build.name} (plugin process, Fabric sandbox)`, function () {
    this.timeout(180_000);
    let sandbox: FabricSandbox;
    let plugin: PluginProcess;
    let client: provrpc.ResourceProviderClient;
    const admins = new Map<string, SandboxIdentity>();
    const pkg = buildCcaasPackage({ label: "assets3_1", connection: { address: "127.0.0.1:7052" } });

    const admin = (mspId: string): SandboxIdentity => {
      const found = admins.get(mspId);
      assert.ok(found !== undefined);
      return found;
    };
    async function check(type: string, name: string, news: Props, olds: Props = {}): Promise<provproto.CheckResponse> {
      return call<provproto.CheckRequest, provproto.CheckResponse>(
        client.check.bind(client),
        new provproto.CheckRequest()
          .setUrn(urnOf(type, name))
          .setType(type)
          .setOlds(struct(olds))
          .setNews(struct(news)),
      );
    }
    /** Check, then Create with the checked inputs: the outputs. */
    async function create(type: string, name: string, news: Props): Promise<{ id: string; outs: Props }> {
      const checked = await check(type, name, news);
      assert.deepEqual(
        checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
        [],
      );
      const created = await call<provproto.CreateRequest, provproto.CreateResponse>(
        client.create.bind(client),
        new provproto.CreateRequest()
          .setUrn(urnOf(type, name))
          .setType(type)
          .setProperties(checked.getInputs() ?? struct({})),
      );
      return { id: created.getId(), outs: created.getProperties()?.toJavaScript() ?? {} };
    }
    const step = (mspId: string): Props => ({
      gateway: { address: sandbox.address },
      channel: sandbox.channel,
      identity: { ...admin(mspId) },
      trustedRootCertificates: { ...sandbox.caCertificates },
      definition: { name: "assets3", version: "1.0", endorsementPolicy: POLICY },
    });

    before(async function () {
      // The executable is built on first use (test/helpers/plugin-builds.ts): a minute or two.
      this.timeout(600_000);
      const dir = await build.dir();
      sandbox = await startFabricSandbox({ organizations: [...ORGS] });
      for (const mspId of ORGS) admins.set(mspId, sandbox.newAdminIdentity(mspId));
      plugin = await startPluginProcess(dir);
      client = plugin.client;
      await call(
        client.configure.bind(client),
        new provproto.ConfigureRequest().setArgs(struct({})).setAcceptsecrets(true),
      );
    });
    after(async () => {
      await plugin.stop();
      await sandbox.close();
    });

    it("deploys by the schema's tokens: package, two installations, two approvals, one commit; the bytes secret", async () => {
      const made = await create("opsledger:ledger:ChaincodePackage", "package", {
        label: "assets3_1",
        connection: { address: "127.0.0.1:7052" },
      });
      assert.equal(made.id, pkg.packageId);
      assert.equal(made.outs["packageId"], pkg.packageId);
      const bytes = made.outs["packageBase64"] as Props;
      assert.deepEqual(Object.keys(bytes).sort(), ["4dabf18193072939515e22adb298388d", "value"]);
      assert.equal(unsecret(bytes), Buffer.from(pkg.bytes).toString("base64"));

      for (const mspId of ORGS) {
        const installed = await create("opsledger:ledger:ChaincodeInstallation", `${mspId}-installation`, {
          peer: { address: sandbox.address },
          identity: { ...admin(mspId) },
          packageBase64: { ...SECRET_SIG, value: unsecret(bytes) },
        });
        assert.equal(installed.id, `${sandbox.address}/${pkg.packageId}`);
      }
      const before = sandbox.transactionCount();
      for (const mspId of ORGS) {
        const approved = await create("opsledger:ledger:ChaincodeApproval", `${mspId}-approval`, {
          ...step(mspId),
          packageId: pkg.packageId,
        });
        assert.deepEqual(
          [approved.outs["outcome"], (approved.outs["approved"] as Props)["packageId"]],
          ["submitted", pkg.packageId],
        );
      }
      const committed = await create("opsledger:ledger:ChaincodeDefinition", "assets3", step("Org1MSP"));
      assert.equal(committed.id, `${sandbox.channel}/assets3`);
      assert.equal(committed.outs["outcome"], "submitted");
      assert.deepEqual(committed.outs["committed"], {
        name: "assets3",
        version: "1.0",
        sequence: 1,
        endorsementPolicy: POLICY,
        collections: [],
        initRequired: false,
        endorsementPlugin: "escc",
        validationPlugin: "vscc",
        approvals: { Org1MSP: true, Org2MSP: true },
      });
      assert.equal(sandbox.transactionCount(), before + 3);

      // Run again: Check plans the same transaction, Diff finds nothing to do.
      const again = await check("opsledger:ledger:ChaincodeDefinition", "assets3", step("Org1MSP"), committed.outs);
      const inputs = (again.getInputs()?.toJavaScript() ?? {}) as Props;
      assert.equal(inputs["txId"], committed.outs["txId"]);
      const diff = await call<provproto.DiffRequest, provproto.DiffResponse>(
        client.diff.bind(client),
        new provproto.DiffRequest()
          .setId(committed.id)
          .setUrn(urnOf("opsledger:ledger:ChaincodeDefinition", "assets3"))
          .setType("opsledger:ledger:ChaincodeDefinition")
          .setOlds(struct(committed.outs))
          .setNews(struct(inputs)),
      );
      assert.equal(diff.getChanges(), provproto.DiffResponse.DiffChanges.DIFF_NONE);
      assert.equal(sandbox.transactionCount(), before + 3);
    });

    it("refuses a policy that does not parse at Check, naming the field, with nothing read or sent", async () => {
      const reads = sandbox.evaluations().length;
      const count = sandbox.transactionCount();
      const checked = await check("opsledger:ledger:ChaincodeApproval", "bad", {
        ...step("Org1MSP"),
        definition: { name: "assets3", version: "1.0", endorsementPolicy: "AND('Org1MSP.peer',)" },
      });
      assert.deepEqual(
        checked.getFailuresList().map((f) => `${f.getProperty()}: ${f.getReason()}`),
        [
          `definition.endorsementPolicy: at column 20 of "AND('Org1MSP.peer',)": expected a quoted principal such as ` +
            `'Org1MSP.peer', or a nested gate, found ")"`,
        ],
      );
      assert.deepEqual([sandbox.evaluations().length, sandbox.transactionCount()], [reads, count]);
    });

    it("reads the committed definition and the admin's own approval with getChaincodeDefinition (Invoke)", async () => {
      const answer = await call<provproto.InvokeRequest, provproto.InvokeResponse>(
        client.invoke.bind(client),
        new provproto.InvokeRequest().setTok("opsledger:ledger:getChaincodeDefinition").setArgs(
          struct({
            gateway: { address: sandbox.address },
            channel: sandbox.channel,
            identity: { ...admin("Org2MSP") },
            name: "assets3",
          }),
        ),
      );
      assert.deepEqual(answer.getFailuresList(), []);
      const read = (answer.getReturn()?.toJavaScript() ?? {}) as Props;
      assert.deepEqual((read["committed"] as Props)["approvals"], { Org1MSP: true, Org2MSP: true });
      assert.deepEqual(
        [(read["approval"] as Props)["organization"], (read["approval"] as Props)["packageId"]],
        ["Org2MSP", pkg.packageId],
      );
    });
  });
