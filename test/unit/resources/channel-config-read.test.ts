/**
 * ledger.getChannelConfig against an in-process orderer (every Deliver stream counted), through the SDK's function and
 * the plugin's invoke: the decoded configuration with its exact values, bad input refused naming each field with
 * nothing read, and a channel the orderer does not have named as such.
 */
import { strict as assert } from "node:assert";
import { LedgerError, ValidationError } from "../../../provider/errors";
import { FUNCTIONS } from "../../../provider/registry";
import { getChannelConfig } from "../../../sdk/ledger";
import { configBlockOf, startFakeOrderer } from "../ledger/channel/fake-orderer";
import type { FakeOrderer } from "../ledger/channel/fake-orderer";
import { testChannel } from "../ledger/channel/test-channel";
import type { TestChannel } from "../ledger/channel/test-channel";

let channel: TestChannel;
let orderer: FakeOrderer;

const identityOf = (c: TestChannel) => {
  const org = c.peers[0] ?? assert.fail();
  return { mspId: org.mspId, certificatePem: org.adminPem.certificatePem, privateKeyPem: org.adminPem.privateKeyPem };
};

describe("ledger.getChannelConfig, against an in-process orderer", function () {
  this.timeout(30_000);

  before(async () => {
    channel = await testChannel(2);
  });

  beforeEach(async () => {
    orderer = await startFakeOrderer({
      channelId: channel.channelId,
      blocks: [configBlockOf(channel.channelId, 0n, channel.config)],
      onBroadcast: () => ({ response: { status: 500, info: "no broadcast expected" } }),
    });
  });

  afterEach(async () => {
    await orderer.close();
  });

  it("answers the decoded configuration: organizations, anchor peers, consenters, batch settings, capabilities, policies, sequence", async () => {
    const config = await getChannelConfig({
      channel: channel.channelId,
      node: { address: orderer.address },
      identity: identityOf(channel),
    });
    const org1 = config.application?.organizations[0] ?? assert.fail();
    assert.deepEqual(
      {
        channel: config.channel,
        sequence: config.sequence,
        configBlock: config.configBlock,
        capabilities: config.capabilities,
        consensus: config.orderer?.consensusType,
        batchTimeout: config.orderer?.batchTimeout,
        batchSize: config.orderer?.batchSize,
        consenters: config.orderer?.consenters.map((c) => `${c.host}:${String(c.port)}`),
        ordererOrgs: config.orderer?.organizations.map((o) => [o.mspId, o.endpoints]),
        applicationOrgs: config.application?.organizations.map((o) => o.mspId),
        org1Anchors: org1.anchorPeers,
        org1Roots: org1.rootCertificates,
        org1TlsRoots: org1.tlsRootCertificates,
        org1Admins: org1.policies["Admins"]?.rule,
        applicationAdmins: config.application?.policies["Admins"],
      },
      {
        channel: "testchannel",
        sequence: 0,
        configBlock: "0",
        capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_5"] },
        consensus: "etcdraft",
        batchTimeout: "2s",
        batchSize: { maxMessageCount: 500, absoluteMaxBytes: 10 * 1024 * 1024, preferredMaxBytes: 2 * 1024 * 1024 },
        consenters: ["orderer0:7050", "orderer1:7050", "orderer2:7050"],
        ordererOrgs: [["OrdererMSP", ["orderer0:7050", "orderer1:7050", "orderer2:7050"]]],
        applicationOrgs: ["Org1MSP", "Org2MSP"],
        org1Anchors: [{ host: "peer0.org1msp.example.com", port: 7051 }],
        org1Roots: [...(channel.peers[0]?.declaration.rootCertificates ?? assert.fail())],
        org1TlsRoots: [...(channel.peers[0]?.declaration.tlsRootCertificates ?? assert.fail())],
        org1Admins: "OR('Org1MSP.admin')",
        applicationAdmins: { type: "ImplicitMeta", rule: "MAJORITY Admins", modPolicy: "Admins", version: 0 },
      },
    );
    assert.deepEqual(
      config.application?.acls,
      {},
      "a channel declared without ACLs has none (Fabric's defaults apply)",
    );
    assert.equal(orderer.delivers.count, 1);
  });

  it("answers the same through the plugin's invoke", async () => {
    const read = FUNCTIONS.getChannelConfig.load();
    const config = (await read({} as never, {
      channel: channel.channelId,
      node: { address: orderer.address },
      identity: identityOf(channel),
    })) as { channel: string; sequence: number; application?: { organizations: { mspId: string }[] } };
    assert.deepEqual(
      [config.channel, config.sequence, config.application?.organizations.map((o) => o.mspId)],
      ["testchannel", 0, ["Org1MSP", "Org2MSP"]],
    );
    assert.equal(orderer.delivers.count, 1);
  });

  it("refuses bad input naming each field, having read nothing", async () => {
    await assert.rejects(
      getChannelConfig({
        channel: "Not_A_Channel",
        node: { address: "no-port", clientKeyFile: "tls-key.pem" },
        nodeKind: "gateway" as "peer",
        identity: { mspId: "Org1MSP", certificatePem: "not a certificate" },
      }),
      (e: unknown) => {
        assert.ok(e instanceof ValidationError, String(e));
        assert.equal(e.subject, "ledger.getChannelConfig");
        assert.deepEqual(
          e.failures.map((f) => f.property),
          ["channel", "node.address", "node.clientKeyFile", "nodeKind", "identity.certificatePem", "identity"],
        );
        return true;
      },
    );
    assert.equal(orderer.delivers.count, 0);
  });

  it("names a channel the orderer does not have, and the fix", async () => {
    await assert.rejects(
      getChannelConfig({ channel: "otherchannel", node: { address: orderer.address }, identity: identityOf(channel) }),
      (e: unknown) =>
        e instanceof LedgerError &&
        e.message ===
          `ledger.getChannelConfig: channel orderer ${orderer.address} does not have channel 'otherchannel' (NOT_FOUND): create it first (ledger.Channel), or name an orderer of the channel`,
    );
    assert.equal(orderer.delivers.count, 1);
  });
});
