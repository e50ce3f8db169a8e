/**
 * A chaincode as a service deployed on a channel, for the organizations this stack acts for: each one's package (its
 * chaincode server's connection), its installation on the organization's peer and the organization's approval; and,
 * in the stack that commits, the committed definition (and, optionally, a transaction on the chaincode). One stack
 * may act for every organization (a test network whose admins one program holds), or each organization may run its
 * own stack and one of them commit (README.md). Settings (JSON where it says so):
 *
 *   pulumi config set organizations '["Org2MSP"]'               # the organizations this stack installs and approves for
 *   pulumi config set commit true                               # optional: commit, as the first organization's admin
 *   pulumi config set gateway 127.0.0.1:7051                    # every organization's gateway peer, or per organization:
 *   pulumi config set gateways '{"Org1MSP":{"address":"…","tlsRootCertPem":"…","serverNameOverride":"…"}}'
 *   pulumi config set admins -- "$(cat admins.json)"            # {"<mspId>":{"certificatePem":"…","keyFile":"<path>"}}
 *   pulumi config set trustedRootCertificates -- "$(cat cas.json)"   # {"<mspId>":"<root CA PEM>"}
 *   pulumi config set --secret chaincodeServers '{"Org1MSP":{"address":"cc.org1:9999","tlsRequired":true,…}}'
 *                                                               # each one's chaincode server (default 127.0.0.1:9999)
 *   pulumi config set channel opsledger                         # default "opsledger"
 *   pulumi config set chaincodeName assets2                     # default "assets2"
 *   pulumi config set version 1.0                               # default "1.0"
 *   pulumi config set endorsementPolicy "AND('Org1MSP.peer','Org2MSP.peer')"   # default the channel's
 *   pulumi config set collections '[{"name":"private","policy":"OR(…)"}]'        # optional
 *   pulumi config set sequence 2                                # optional assertion (default: chosen from the channel)
 *   pulumi config set packageLabel assets2_1                    # default "<chaincodeName>_1"
 *   pulumi config set invoke '{"function":"CreateAsset","args":["a","blue"],"endorsingOrganizations":["Org1MSP"]}'
 *                                                               # optional, with commit: a transaction once committed
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

/** An organization's admin: its certificate and its key's file (the state keeps the path, never the key). */
interface Admin {
  readonly certificatePem: string;
  readonly keyFile: string;
}

/** A transaction to submit on the chaincode once it is committed. */
interface Invoke {
  readonly function: string;
  readonly args?: string[];
  readonly endorsingOrganizations?: string[];
}

function pick<T>(map: Readonly<Record<string, T>>, mspId: string, key: string): T {
  const found = map[mspId];
  if (found === undefined) throw new Error(`${key} has no entry for ${mspId}`);
  return found;
}

/** Declares the chaincode's resources for this stack's organizations and returns the outputs worth exporting. */
export function chaincodeResources(config: pulumi.Config = new pulumi.Config()): Record<string, pulumi.Input<unknown>> {
  const organizations = config.requireObject<string[]>("organizations");
  const admins = config.requireObject<Record<string, Admin>>("admins");
  const gateways = config.getObject<Record<string, opsledger.ledger.LedgerReadGatewayArgs>>("gateways") ?? {};
  const servers = config.getSecretObject<Record<string, opsledger.ledger.CcaasConnectionArgs>>("chaincodeServers");
  const trustedRootCertificates = config.requireObject<Record<string, string>>("trustedRootCertificates");
  const channel = config.get("channel") ?? "opsledger";
  const name = config.get("chaincodeName") ?? "assets2";
  const endorsementPolicy = config.get("endorsementPolicy");
  const collections = config.getObject<opsledger.ledger.ChaincodeCollection[]>("collections");
  const sequence = config.getNumber("sequence");
  const definition = {
    name,
    version: config.get("version") ?? "1.0",
    ...(endorsementPolicy === undefined ? {} : { endorsementPolicy }),
    ...(collections === undefined ? {} : { collections }),
    ...(sequence === undefined ? {} : { sequence }),
  };
  const gatewayOf = (mspId: string): opsledger.ledger.LedgerReadGatewayArgs =>
    gateways[mspId] ?? { address: config.require("gateway") };
  const identityOf = (mspId: string) => ({ mspId, ...pick(admins, mspId, "admins") });

  const packageIds: Record<string, pulumi.Output<string>> = {};
  const approvedSequences: Record<string, pulumi.Output<number | undefined>> = {};
  const approvals: opsledger.ledger.ChaincodeApproval[] = [];
  for (const mspId of organizations) {
    const org = mspId.replace(/MSP$/, "").toLowerCase();
    // Each organization runs its own chaincode server, so its package (the server's connection) and id are its own.
    const connection = servers?.apply((s) => s[mspId] ?? { address: "127.0.0.1:9999" }) ?? {
      address: "127.0.0.1:9999",
    };
    const pkg = new opsledger.ledger.ChaincodePackage(`${org}-package`, {
      label: config.get("packageLabel") ?? `${name}_1`,
      connection,
    });
    const installation = new opsledger.ledger.ChaincodeInstallation(`${org}-installation`, {
      peer: gatewayOf(mspId),
      identity: identityOf(mspId),
      packageBase64: pkg.packageBase64,
    });
    const approval = new opsledger.ledger.ChaincodeApproval(`${org}-approval`, {
      gateway: gatewayOf(mspId),
      channel,
      identity: identityOf(mspId),
      trustedRootCertificates,
      definition,
      packageId: installation.packageId, // waits for the installation
      timeouts: { create: "5m", update: "5m" },
    });
    approvals.push(approval);
    packageIds[mspId] = installation.packageId;
    approvedSequences[mspId] = approval.approved.apply((a) => a.sequence);
  }
  const outputs: Record<string, pulumi.Input<unknown>> = { packageIds, approvedSequences };
  if (config.getBoolean("commit") === true) {
    const committer = organizations[0] ?? "";
    const committed = new opsledger.ledger.ChaincodeDefinition(
      name,
      {
        gateway: gatewayOf(committer),
        channel,
        identity: identityOf(committer),
        trustedRootCertificates,
        definition,
        timeouts: { create: "5m", update: "5m" },
      },
      // In one program, this stack's approvals come first; other organizations approve from their own stacks.
      { dependsOn: approvals },
    );
    outputs["committedSequence"] = committed.committed.apply((c) => c.sequence);
    outputs["committedPolicy"] = committed.committed.apply((c) => c.endorsementPolicy);
    outputs["committedApprovals"] = committed.committed.apply((c) => c.approvals);
    const invoke = config.getObject<Invoke>("invoke");
    if (invoke !== undefined) {
      const tx = new opsledger.ledger.LedgerTransaction(
        "invoke",
        {
          gateway: gatewayOf(committer),
          channel,
          chaincode: name,
          function: invoke.function,
          args: invoke.args ?? [],
          ...(invoke.endorsingOrganizations === undefined
            ? {}
            : { endorsingOrganizations: invoke.endorsingOrganizations }),
          identity: identityOf(committer),
          trustedRootCertificates,
          timeouts: { create: "2m" },
        },
        { dependsOn: [committed] },
      );
      outputs["invokeTxId"] = tx.txId;
      outputs["invokeValidationCode"] = tx.validationCode;
      outputs["invokeEndorsers"] = tx.endorsers;
    }
  }
  return outputs;
}
