import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import Ajv2020 from "ajv/dist/2020";
import { SCHEMA_PATH, schemaFileText } from "../../../scripts/gen-schema";
import { SCHEMA, requiredFailures, schemaText, secretNames } from "../../../provider/schema/schema";
import { KEY_TYPE_NAMES } from "../../../provider/ledger/key-types";
import { KMS_ALGORITHMS } from "../../../provider/resources/ledger/session/kms-signer";

const ROOT = join(__dirname, "..", "..", "..", "..");
/** pkg/codegen/schema/pulumi.json of pulumi/pulumi at v3.259.0 (the CLI this package pins). */
const METASCHEMA = join(ROOT, "test", "fixtures", "pulumi", "pulumi-metaschema-v3.259.0.json");

describe("the plugin's schema (provider/schema/schema.json)", function () {
  this.timeout(120_000);

  it("is what scripts/gen-schema.ts generates from the TypeScript SDK today (the shapes cannot drift)", () => {
    // On a difference: node dist/scripts/gen-schema.js, and commit provider/schema/schema.json.
    assert.equal(readFileSync(SCHEMA_PATH, "utf8"), schemaFileText());
  });

  it("is valid against Pulumi's metaschema, as GetSchema serves it (with the package's version)", () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // The metaschema names two formats Ajv does not define: a regular expression, and a URI reference (any $ref text).
    ajv.addFormat("regex", (s: string) => isRegex(s));
    ajv.addFormat("uri-reference", true);
    const validate = ajv.compile(JSON.parse(readFileSync(METASCHEMA, "utf8")) as object);
    const served = JSON.parse(schemaText("0.1.0")) as unknown;
    assert.equal(validate(served), true, JSON.stringify(validate.errors, null, 2));
    // The metaschema can fail: a property without a type or $ref is refused.
    const broken = JSON.parse(schemaText("0.1.0")) as { resources: Record<string, { inputProperties: object }> };
    (broken.resources["opsledger:compute:FirewallPolicyMove"] as { inputProperties: object }).inputProperties = {
      parentId: { type: "folder" },
    };
    assert.equal(validate(broken), false);
  });

  it("serves every resource and function of the TypeScript SDK under its token, every property documented as there", () => {
    assert.deepEqual(Object.keys(SCHEMA.resources).sort(), [
      "opsledger:compute:FirewallPolicyMove",
      "opsledger:displayvideo:InventorySourceGroupDeletion",
      "opsledger:ledger:ChaincodeApproval",
      "opsledger:ledger:ChaincodeDefinition",
      "opsledger:ledger:ChaincodeInstallation",
      "opsledger:ledger:ChaincodePackage",
      "opsledger:ledger:Channel",
      "opsledger:ledger:ChannelAnchorPeers",
      "opsledger:ledger:ChannelBatchSettings",
      "opsledger:ledger:ChannelCapabilities",
      "opsledger:ledger:ChannelOrganization",
      "opsledger:ledger:ChannelPeer",
      "opsledger:ledger:LedgerTransaction",
      "opsledger:ledger:LedgerTransactions",
      "opsledger:operations:OperationWait",
    ]);
    assert.deepEqual(Object.keys(SCHEMA.functions).sort(), [
      "opsledger:deploymentmanager:getDeployment",
      "opsledger:displayvideo:getCreative",
      "opsledger:iam:getOperation",
      "opsledger:iam:getWorkforcePoolIamPolicy",
      "opsledger:ledger:evaluate",
      "opsledger:ledger:getChainInfo",
      "opsledger:ledger:getChaincodeDefinition",
      "opsledger:ledger:getChannelConfig",
      "opsledger:ledger:getTransaction",
      "opsledger:workspaceevents:getSubscription",
    ]);
    const getTransaction = SCHEMA.functions["opsledger:ledger:getTransaction"] as unknown as {
      inputs: { required: string[] };
      outputs: { required: string[] };
    };
    assert.deepEqual(getTransaction.inputs.required, ["txId", "gateway", "channel", "identity"]);
    assert.deepEqual(getTransaction.outputs.required, [
      "txId",
      "channel",
      "validationCode",
      "validationCodeNumber",
      "blockNumber",
      "endorsers",
      "verification",
      "processedTransaction",
    ]);
    const types = (SCHEMA as unknown as { types: Record<string, { properties: Record<string, { secret?: boolean }> }> })
      .types;
    const readIdentity = types["opsledger:ledger:LedgerReadIdentity"];
    assert.ok(readIdentity !== undefined);
    assert.deepEqual(
      Object.entries(readIdentity.properties)
        .filter(([, p]) => p.secret === true)
        .map(([k]) => k),
      ["privateKeyPem"],
    );
    const move = SCHEMA.resources["opsledger:compute:FirewallPolicyMove"] as unknown as {
      inputProperties: Record<string, { description?: string; type?: string }>;
      requiredInputs: string[];
    };
    assert.deepEqual(move.requiredInputs, ["firewallPolicy", "parentId"]);
    assert.equal(
      move.inputProperties["parentId"]?.description,
      "The parent to keep the policy under: `folders/<digits>` or `organizations/<digits>`. Changing it moves the policy in place.",
    );
    assert.equal(move.inputProperties["restoreOnDelete"]?.type, "boolean");
    assert.match(String(move.inputProperties["restoreOnDelete"].description), /\n\nDefault: false$/);
  });

  it("marks the ledger's key material and transient data secret, and nothing of the Google resources", () => {
    assert.deepEqual(secretNames("opsledger:ledger:LedgerTransaction", "inputs"), ["transientData"]);
    const types = (
      JSON.parse(schemaText("0.1.0")) as { types: Record<string, { properties: Record<string, { secret?: boolean }> }> }
    ).types;
    assert.equal(types["opsledger:ledger:LedgerIdentity"]?.properties["privateKeyPem"]?.secret, true);
    assert.equal(types["opsledger:ledger:LedgerPkcs11"]?.properties["pin"]?.secret, true);
    assert.equal(types["opsledger:ledger:LedgerGateway"]?.properties["clientKeyPem"]?.secret, true);
    assert.deepEqual(secretNames("opsledger:compute:FirewallPolicyMove", "inputs"), []);
  });

  it("marks secret exactly the fields tagged @secret, and the credentials output (secret in the SDK and the plugin)", () => {
    assert.deepEqual(secretNames("opsledger:ledger:LedgerTransaction", "outputs"), ["transientData", "credentials"]);
    assert.deepEqual(secretNames("opsledger:ledger:LedgerTransactions", "outputs"), ["credentials"]);
    assert.deepEqual(secretNames("opsledger:ledger:ChaincodePackage", "outputs"), ["packageBase64"]);
    assert.deepEqual(secretNames("opsledger:ledger:ChaincodeInstallation", "inputs"), ["packageBase64"]);
    // Every secret property of the whole schema, by path: a field becomes secret by its `@secret` tag only (a doc
    // comment's prose marks nothing), so a tag added or lost shows here.
    const paths: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (typeof node !== "object" || node === null) return;
      if ((node as { secret?: unknown }).secret === true) paths.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(JSON.parse(schemaText("0.1.0")), "");
    assert.deepEqual(paths, [
      "/config/variables/credentials",
      "/config/variables/accessToken",
      "/provider/inputProperties/credentials",
      "/provider/inputProperties/accessToken",
      "/resources/opsledger:ledger:LedgerTransaction/inputProperties/transientData",
      "/resources/opsledger:ledger:LedgerTransaction/properties/transientData",
      "/resources/opsledger:ledger:LedgerTransaction/properties/credentials",
      "/resources/opsledger:ledger:LedgerTransactions/properties/credentials",
      "/resources/opsledger:ledger:ChaincodePackage/properties/packageBase64",
      "/resources/opsledger:ledger:ChaincodeInstallation/inputProperties/packageBase64",
      "/resources/opsledger:ledger:ChaincodeInstallation/properties/packageBase64",
      "/resources/opsledger:ledger:ChaincodeInstallation/properties/credentials",
      "/resources/opsledger:ledger:ChaincodeApproval/properties/credentials",
      "/resources/opsledger:ledger:ChaincodeDefinition/properties/credentials",
      "/resources/opsledger:ledger:Channel/properties/credentials",
      "/resources/opsledger:ledger:ChannelPeer/properties/credentials",
      "/resources/opsledger:ledger:ChannelOrganization/properties/credentials",
      "/resources/opsledger:ledger:ChannelAnchorPeers/properties/credentials",
      "/resources/opsledger:ledger:ChannelCapabilities/properties/credentials",
      "/resources/opsledger:ledger:ChannelBatchSettings/properties/credentials",
      "/types/opsledger:ledger:CcaasConnection/properties/clientKey",
      "/types/opsledger:ledger:ChannelCredentials/properties/signers",
      "/types/opsledger:ledger:ChannelCredentials/properties/privateKeyPem",
      "/types/opsledger:ledger:ChannelCredentials/properties/pin",
      "/types/opsledger:ledger:ChannelCredentials/properties/clientKeyPem",
      "/types/opsledger:ledger:ChannelNode/properties/clientKeyPem",
      "/types/opsledger:ledger:ChannelOrdererCredentials/properties/orderers",
      "/types/opsledger:ledger:ChannelPeerCredentials/properties/ordererClientKeyPem",
      "/types/opsledger:ledger:ChannelPeerCredentials/properties/privateKeyPem",
      "/types/opsledger:ledger:ChannelPeerCredentials/properties/pin",
      "/types/opsledger:ledger:ChannelPeerCredentials/properties/clientKeyPem",
      "/types/opsledger:ledger:LedgerCredentials/properties/privateKeyPem",
      "/types/opsledger:ledger:LedgerCredentials/properties/pin",
      "/types/opsledger:ledger:LedgerCredentials/properties/clientKeyPem",
      "/types/opsledger:ledger:LedgerGateway/properties/clientKeyPem",
      "/types/opsledger:ledger:LedgerIdentity/properties/privateKeyPem",
      "/types/opsledger:ledger:LedgerPkcs11/properties/pin",
      "/types/opsledger:ledger:LedgerReadGateway/properties/clientKeyPem",
      "/types/opsledger:ledger:LedgerReadIdentity/properties/privateKeyPem",
      "/types/opsledger:ledger:LedgerReadPkcs11/properties/pin",
    ]);
  });

  it("describes the ledger's identities as the signers support them (P-256, P-384, Ed25519; three KMS algorithms)", () => {
    const types = (JSON.parse(schemaText("0.1.0")) as { types: Record<string, { description?: string }> }).types;
    const flat = (token: string): string => (types[token]?.description ?? "").replace(/\s+/g, " ");
    // Every key type the signers take, and every KMS algorithm the KMS signer accepts, is named.
    for (const name of Object.values(KEY_TYPE_NAMES)) {
      assert.ok(flat("opsledger:ledger:LedgerIdentity").includes(name), `${name} in LedgerIdentity`);
    }
    assert.match(flat("opsledger:ledger:LedgerIdentity"), /ECDSA P-256, ECDSA P-384 or Ed25519 key/);
    for (const algorithm of Object.keys(KMS_ALGORITHMS)) {
      assert.ok(flat("opsledger:ledger:LedgerKms").includes(algorithm), `${algorithm} in LedgerKms`);
    }
    // One declaration: a transaction's identity and a read's carry the same text (under 0.1.0's two tokens).
    assert.equal(flat("opsledger:ledger:LedgerReadIdentity"), flat("opsledger:ledger:LedgerIdentity"));
    assert.equal(flat("opsledger:ledger:LedgerReadIdentityKms"), flat("opsledger:ledger:LedgerKms"));
  });

  it("names a function's missing required argument with the fix", () => {
    assert.deepEqual(requiredFailures("opsledger:deploymentmanager:getDeployment", { project: "p" }), [
      { property: "deployment", reason: "is required by opsledger:deploymentmanager:getDeployment; set deployment" },
    ]);
    assert.deepEqual(
      requiredFailures("opsledger:deploymentmanager:getDeployment", { project: "p", deployment: "d" }),
      [],
    );
  });
});

function isRegex(s: string): boolean {
  try {
    new RegExp(s);
    return true;
  } catch {
    return false;
  }
}
