/**
 * examples/channel: a channel's configuration read (ledger.getChannelConfig) and its batch timeout owned
 * (ledger.ChannelBatchSettings), as the orderer organization's admin. Settings: README.md.
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

const config = new pulumi.Config();
const channel = config.get("channel") ?? "opsledger";
const serverName = config.get("ordererServerName");
const orderer = {
  address: config.require("ordererAddress"),
  tlsRootCertPem: config.require("ordererTlsRootCertPem"),
  ...(serverName === undefined ? {} : { serverNameOverride: serverName }),
};
// The key stays where it is: the state records the file's path, never the key.
const identity = {
  mspId: config.get("adminMspId") ?? "OrdererMSP",
  certificatePem: config.require("adminCertificatePem"),
  keyFile: config.require("adminKeyFile"),
};

const current = opsledger.ledger.getChannelConfigOutput({ channel, node: orderer, identity });

const batch = new opsledger.ledger.ChannelBatchSettings("batch", {
  channel,
  orderer,
  identity,
  batchTimeout: config.get("batchTimeout") ?? "2s",
});

export const organizations = current.apply((c) => c.application?.organizations.map((o) => o.mspId) ?? []);
export const capabilities = current.capabilities;
export const batchTimeoutWhenRead = current.apply((c) => c.orderer?.batchTimeout);
export const batchTimeout = batch.batchTimeout;
export const configSequence = batch.configSequence;
