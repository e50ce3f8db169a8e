/**
 * What `npm run demo` applies: a firewall policy move, an inventory source group deletion, an operation wait, the
 * five data sources and — when `ledgerGateway` is configured — a Fabric ledger transaction. Ids default to the sandbox
 * fixture; set them with `pulumi config set` for real Google (see examples/ledger for the ledger settings).
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";
import { readAll } from "../read-only/read-all";
import { ledgerResources } from "../ledger/ledger-resources";

export = async (): Promise<Record<string, unknown>> => {
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

  const ledger = config.get("ledgerGateway") === undefined ? {} : ledgerResources(config);

  return {
    ...(await readAll(config)),
    ...ledger,
    firewallPolicyParent: move.parent,
    firewallPolicyPreviousParent: move.previousParent,
    moveOperation: move.operation,
    inventorySourceGroupOutcome: deletion.outcome,
    policyBindingOperationResult: wait.result,
  };
};
