/**
 * ledger.Channel's check and genesis block, offline: each bad input of a channel declaration refused naming its field
 * with no connection made to the orderer's admin endpoint (a listener counts them); a changed declaration of an
 * existing channel refused naming the resources that change a running channel; the genesis block the same bytes on
 * every run of one resource (a retry joins the remaining orderers with the block the others have), another resource's
 * another.
 */
import { strict as assert } from "node:assert";
import * as net from "node:net";
import { codecs } from "../../../provider/ledger/codec";
import { readConfigBlock } from "../../../provider/ledger/channel/config-block";
import { channelGenesisBlock, channelProvider } from "../../../provider/resources/ledger/channel/channel-creation";
import type { ChannelInputs } from "../../../provider/resources/ledger/channel/channel-creation";
import type { ChannelOrganizationDeclaration } from "../../../provider/resources/ledger/channel/channel-shapes";
import { newTlsServerCertificate } from "../ledger/fixtures";
import { testChannel } from "../ledger/channel/test-channel";
import type { TestChannel } from "../ledger/channel/test-channel";

const URN = "urn:pulumi:dev::channel::pulumi-nodejs:dynamic/ledger:Channel::mychannel";

let channel: TestChannel;
let listener: net.Server;
let connections = 0;
let inputs: ChannelInputs;

const organizationOf = (o: TestChannel["declaration"]["application"]["organizations"][number]) =>
  ({ ...o }) as unknown as ChannelOrganizationDeclaration;

describe("ledger.Channel's check and genesis block", function () {
  this.timeout(30_000);

  before(async () => {
    channel = await testChannel(2);
    listener = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
    const port = (listener.address() as net.AddressInfo).port;
    const client = await newTlsServerCertificate(channel.orderer.tlsCa);
    const d = channel.declaration;
    inputs = {
      __urn: URN,
      channel: "mychannel",
      capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_5"] },
      orderer: {
        consensus: "etcdraft",
        organizations: d.orderer.organizations.map(organizationOf),
        consenters: d.orderer.consenters.map((c) => ({ ...c })),
        batchTimeout: "2s",
      },
      application: { organizations: d.application.organizations.map(organizationOf) },
      orderers: [
        {
          address: `127.0.0.1:${String(port)}`,
          tlsRootCertPem: channel.orderer.tlsCa.caPem,
          clientCertPem: client.certPem,
          clientKeyPem: client.keyPem,
        },
      ],
    };
  });

  after(async () => {
    await new Promise<void>((resolve) =>
      listener.close(() => {
        resolve();
      }),
    );
  });

  it("accepts the declaration as it is", async () => {
    assert.deepEqual(await channelProvider.check({}, inputs), { inputs });
  });

  it("refuses each bad input naming its field, with no connection made", async () => {
    const [org1, org2] = inputs.application.organizations;
    if (org1 === undefined || org2 === undefined) assert.fail();
    const cases: [string, ChannelInputs][] = [
      [
        "unparsable root certificate",
        {
          ...inputs,
          application: {
            organizations: [
              { ...org1, rootCertificates: ["-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n"] },
              org2,
            ],
          },
        },
      ],
      [
        "capability the release lacks",
        { ...inputs, fabricVersion: "2.5.16", capabilities: { ...inputs.capabilities, channel: ["V3_0"] } },
      ],
      [
        "batch size over the absolute maximum",
        { ...inputs, orderer: { ...inputs.orderer, batchSize: { absoluteMaxBytes: 1024, preferredMaxBytes: 4096 } } },
      ],
      ["admin endpoint without mutual TLS", { ...inputs, orderers: [{ address: "127.0.0.1:7053" }] }],
    ];
    const refused = [];
    const reasons = [];
    for (const [, bad] of cases) {
      const result = await channelProvider.check({}, bad);
      refused.push((result.failures ?? []).map((f) => f.property));
      reasons.push((result.failures ?? []).map((f) => f.reason).join(" | "));
    }
    assert.deepEqual(reasons, [
      "Org1MSP's certificate does not parse as a PEM X.509 certificate (give the PEM text, -----BEGIN CERTIFICATE----- " +
        "included, of the file the MSP folder holds)",
      "channel capability 'V3_0' is not one Fabric 2.5.16 supports (V1_1, V1_3, V1_4_2, V1_4_3, V2_0); peers and " +
        "orderers stop on a channel requiring a capability they do not know, so upgrade every binary first or choose " +
        "one of those",
      "4096 is over the absolute maximum, absoluteMaxBytes 1024; the orderers refuse a preferred size greater than the " +
        "absolute one: lower preferredMaxBytes or raise absoluteMaxBytes",
      "is required for '127.0.0.1:7053': the PEM of the CA that signed the orderer's admin endpoint's TLS certificate | " +
        "is required: the orderer's admin endpoint takes only mutual TLS; give a client TLS certificate its " +
        "Admin.TLS.ClientRootCAs trust, and its key",
    ]);
    assert.deepEqual(refused, [
      ["application.organizations[0].rootCertificates[0]"],
      ["capabilities.channel[0]"],
      ["orderer.batchSize.preferredMaxBytes"],
      ["orderers[0].tlsRootCertPem", "orderers[0].clientCertPem"],
    ]);
    assert.equal(connections, 0, "nothing was sent");
  });

  it("refuses a changed declaration of a channel that exists, naming the resources that change it", async () => {
    const result = await channelProvider.check(inputs, {
      ...inputs,
      orderer: { ...inputs.orderer, batchTimeout: "5s" },
    });
    assert.deepEqual(result.failures, [
      {
        property: "orderer",
        reason:
          "channel 'mychannel' exists: its declaration is its genesis and stays as it was; change its configuration " +
          "with ledger.ChannelOrganization, ChannelAnchorPeers, ChannelCapabilities or ChannelBatchSettings, and keep " +
          "this declaration as it was",
      },
    ]);
  });

  it("builds the same genesis block on every run of one resource, and another for another resource", () => {
    const bytes = (i: ChannelInputs) => Buffer.from(codecs.Block.encode(channelGenesisBlock(i))).toString("hex");
    const first = bytes(inputs);
    assert.equal(bytes({ ...inputs }), first);
    assert.notEqual(bytes({ ...inputs, __urn: `${URN}-2` }), first);
    const block = readConfigBlock(channelGenesisBlock(inputs));
    assert.deepEqual([block.channelId, block.number, block.config.sequence], ["mychannel", 0n, 0n]);
  });
});
