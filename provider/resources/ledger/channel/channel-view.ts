/**
 * A channel's configuration as getChannelConfig answers it: the channel library's readable ChannelConfig
 * (provider/ledger/channel/describe-config.ts) in a shape Pulumi can carry — numbers for sequences and versions,
 * decimal strings for block numbers, certificates as PEM text, policies as text.
 */
import type {
  ChannelConfig,
  OrdererConsenter,
  OrganizationConfig,
  PolicyView,
} from "../../../ledger/channel/channel-config";
import type { ChannelConfigView, ChannelConsenter, ChannelOrganizationView, ChannelPolicyView } from "./channel-shapes";

function policiesView(policies: Readonly<Record<string, PolicyView>>): Record<string, ChannelPolicyView> {
  return Object.fromEntries(
    Object.entries(policies).map(([k, p]) => [
      k,
      { type: p.type, rule: p.rule, modPolicy: p.modPolicy, version: Number(p.version) },
    ]),
  );
}

function organizationView(o: OrganizationConfig): ChannelOrganizationView {
  return {
    name: o.name,
    mspId: o.mspId,
    mspType: o.mspType,
    rootCertificates: [...o.rootCertificates],
    intermediateCertificates: [...o.intermediateCertificates],
    tlsRootCertificates: [...o.tlsRootCertificates],
    tlsIntermediateCertificates: [...o.tlsIntermediateCertificates],
    admins: [...o.admins],
    nodeOUs: o.nodeOUs?.enable ?? false,
    anchorPeers: o.anchorPeers.map((a) => ({ host: a.host, port: a.port })),
    endpoints: [...o.endpoints],
    policies: policiesView(o.policies),
    modPolicy: o.modPolicy,
    version: Number(o.version),
  };
}

function consenterView(c: OrdererConsenter): ChannelConsenter {
  return {
    host: c.host,
    port: c.port,
    clientTlsCert: c.clientTlsCert,
    serverTlsCert: c.serverTlsCert,
    ...(c.id === undefined ? {} : { id: c.id }),
    ...(c.mspId === undefined ? {} : { mspId: c.mspId }),
    ...(c.identity === undefined ? {} : { identity: c.identity }),
  };
}

/** The configuration as getChannelConfig answers it. */
export function channelConfigView(config: ChannelConfig): ChannelConfigView {
  const { orderer, application } = config;
  return {
    channel: config.channelId,
    sequence: Number(config.sequence),
    configBlock: (config.configBlock ?? 0n).toString(),
    capabilities: {
      channel: [...config.capabilities.channel],
      orderer: [...config.capabilities.orderer],
      application: [...config.capabilities.application],
    },
    ordererAddresses: [...config.ordererAddresses],
    policies: policiesView(config.policies),
    ...(orderer === undefined
      ? {}
      : {
          orderer: {
            consensusType: orderer.consensusType,
            state: orderer.state,
            batchSize: { ...orderer.batchSize },
            batchTimeout: orderer.batchTimeout,
            consenters: orderer.consenters.map(consenterView),
            organizations: orderer.organizations.map(organizationView),
            policies: policiesView(orderer.policies),
            capabilities: [...orderer.capabilities],
          },
        }),
    ...(application === undefined
      ? {}
      : {
          application: {
            organizations: application.organizations.map(organizationView),
            policies: policiesView(application.policies),
            acls: { ...application.acls },
            capabilities: [...application.capabilities],
          },
        }),
  };
}
