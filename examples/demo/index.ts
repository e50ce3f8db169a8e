/**
 * What `npm run demo` applies: a firewall policy move, an inventory source group deletion, an operation wait, two data
 * sources and — when `ledgerGateway` is configured — a Fabric ledger transaction. Ids default to the sandbox's fixture
 * (`npm run sandbox`); set them with `pulumi config set` for real Google (see examples/ledger for the ledger settings).
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();

const move = new opsledger.compute.FirewallPolicyMove("engineering-ingress", {
  firewallPolicy: config.get("firewallPolicy") ?? "700000000002",
  parentId: config.get("parentId") ?? "folders/200000000003",
  restoreOnDelete: config.getBoolean("restoreOnDelete") ?? true,
  timeouts: { create: "10m", update: "10m", delete: "10m" },
});

const deletion = new opsledger.displayvideo.InventorySourceGroupDeletion("spare-group", {
  inventorySourceGroupId: config.get("inventorySourceGroupId") ?? "5005",
  partnerId: config.get("partnerId") ?? "1001",
});

const wait = new opsledger.operations.OperationWait("policy-binding", {
  operation: config.get("iamOperation") ?? "folders/200000000001/locations/global/operations/op-binding-created",
});

const contractors = opsledger.iam.getWorkforcePoolIamPolicyOutput({
  workforcePoolId: config.get("workforcePoolId") ?? "sandbox-contractors",
});
const webStack = opsledger.deploymentmanager.getDeploymentOutput({
  project: config.get("project") ?? "sandbox-project",
  deployment: config.get("deployment") ?? "web-stack",
});

export const firewallPolicyParent = move.parent;
export const firewallPolicyPreviousParent = move.previousParent;
export const inventorySourceGroupOutcome = deletion.outcome;
export const policyBindingOperationResult = wait.result;
export const contractorRoles = contractors.bindings.apply((bindings) => bindings.map((b) => b.role ?? ""));
export const webStackOperationStatus = webStack.apply((d) => d.operation?.status ?? "");

/** The ledger part: one asset transaction, verified before signing and submitted exactly once. */
function ledgerTransaction(gateway: string): opsledger.ledger.LedgerTransaction {
  return new opsledger.ledger.LedgerTransaction("demo-asset", {
    gateway: { address: gateway },
    channel: config.get("ledgerChannel") ?? "opsledger",
    chaincode: config.get("ledgerChaincode") ?? "assets",
    function: "CreateAsset",
    args: JSON.parse(config.get("ledgerArgs") ?? '["demo-asset","teal"]') as string[],
    identity: {
      mspId: config.require("ledgerMspId"),
      certificatePem: config.require("ledgerCertificatePem"),
      privateKeyPem: config.requireSecret("ledgerPrivateKeyPem"),
    },
    trustedRootCertificates: JSON.parse(config.require("ledgerTrustedRootCertificates")) as Record<string, string>,
    timeouts: { create: "2m" },
  });
}

const ledgerGateway = config.get("ledgerGateway");
const ledger = ledgerGateway === undefined ? undefined : ledgerTransaction(ledgerGateway);
export const ledgerTxId = ledger?.txId;
export const ledgerValidationCode = ledger?.validationCode;
