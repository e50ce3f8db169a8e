/**
 * A program to unit-test (index.test.ts): a firewall policy move whose target folder comes from a data source, and a
 * stack output from a ledger read. Under `pulumi up` it calls Google and a Fabric gateway; under Pulumi's mocks, the
 * resources reach the mocks' `newResource` and every data source the mocks' `call`, and nothing is sent.
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();

/** The deployment whose `securityFolder` label names the folder the policy belongs under. */
const deployment = opsledger.deploymentmanager.getDeploymentOutput({
  project: config.get("project") ?? "sandbox-project",
  deployment: config.get("deployment") ?? "web-stack",
});

export const move = new opsledger.compute.FirewallPolicyMove("edge-policy", {
  firewallPolicy: config.get("firewallPolicy") ?? "700000000002",
  parentId: deployment.apply((d) => {
    const folder = (d.labels ?? []).find((l) => l.key === "security-folder")?.value;
    if (folder === undefined) throw new Error("the deployment has no security-folder label");
    return `folders/${folder}`;
  }),
});

/** The ledger's height, read through the organization's gateway. */
export const ledgerHeight = opsledger.ledger
  .getChainInfoOutput({
    gateway: { address: config.get("ledgerGateway") ?? "peer0.org1.example.com:7051" },
    channel: config.get("ledgerChannel") ?? "opsledger",
    identity: {
      mspId: "Org1MSP",
      certificatePem: config.get("ledgerCertificatePem") ?? "",
      keyEnv: "LEDGER_KEY_PEM",
    },
  })
  .apply((info) => info.height);
