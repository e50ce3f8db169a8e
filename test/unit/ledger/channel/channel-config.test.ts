/**
 * A declared channel read back, changed and updated, offline: describeChannelConfig shows what the declaration said;
 * a change gives the update configtxlator's rule gives (exact read and write sets); the signature check says who is
 * missing; bad input is refused naming the field, the organization and the fix. The same computations against
 * configtxlator and configtxgen: test/integration/channel/configtxlator.test.ts.
 */
import { strict as assert } from "node:assert";
import { codecs } from "../../../../provider/ledger/codec";
import { ChannelConfigError } from "../../../../provider/errors/ledger/channel-config-error";
import { computeConfigUpdate } from "../../../../provider/ledger/channel/compute-update";
import { applyConfigChange } from "../../../../provider/ledger/channel/config-change";
import { describeChannelConfig } from "../../../../provider/ledger/channel/describe-config";
import { describeConfigUpdate } from "../../../../provider/ledger/channel/describe-update";
import { buildChannelConfig } from "../../../../provider/ledger/channel/genesis-block";
import { testChannel, testOrganization } from "./test-channel";
import type { TestChannel } from "./test-channel";

let channel: TestChannel;

function refusal(
  fn: () => unknown,
  expected: { problem: string; field: string; organization?: string; message: string },
): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof ChannelConfigError, String(e));
    assert.deepEqual(
      { problem: e.problem, field: e.field, organization: e.organization, message: e.message },
      { organization: undefined, ...expected },
    );
    return true;
  });
}

describe("a declared channel configuration", () => {
  before(async function () {
    this.timeout(30_000);
    channel = await testChannel(2);
  });

  it("reads back as the declaration said: organizations, consenters, batch settings, capabilities, policies", () => {
    const view = describeChannelConfig(channel.config, channel.channelId);
    const org1 = view.application?.organizations[0];
    assert.deepEqual(
      {
        sequence: view.sequence,
        capabilities: view.capabilities,
        hashing: [view.hashingAlgorithm, view.blockDataHashingWidth],
        channelPolicies: Object.entries(view.policies).map(([k, p]) => `${k}: ${p.rule} (${p.modPolicy})`),
        consensus: [view.orderer?.consensusType, view.orderer?.state, view.orderer?.batchTimeout],
        batchSize: view.orderer?.batchSize,
        consenters: view.orderer?.consenters.map((c) => [
          c.host,
          c.port,
          c.serverTlsCert === channel.consenterCerts[0],
        ]),
        ordererOrgs: view.orderer?.organizations.map((o) => [o.mspId, o.endpoints.join(",")]),
        applicationOrgs: view.application?.organizations.map((o) => o.mspId),
        org1: [
          org1?.rootCertificates,
          org1?.tlsRootCertificates,
          org1?.anchorPeers,
          org1?.nodeOUs?.admin?.organizationalUnitIdentifier,
        ],
        org1Policies: Object.entries(org1?.policies ?? {}).map(([k, p]) => `${k}: ${p.type} ${p.rule}`),
      },
      {
        sequence: 0n,
        capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_5"] },
        hashing: ["SHA256", 4294967295],
        channelPolicies: [
          "Admins: MAJORITY Admins (Admins)",
          "Readers: ANY Readers (Admins)",
          "Writers: ANY Writers (Admins)",
        ],
        consensus: ["etcdraft", "STATE_NORMAL", "2s"],
        batchSize: { maxMessageCount: 500, absoluteMaxBytes: 10485760, preferredMaxBytes: 2097152 },
        consenters: [
          ["orderer0", 7050, true],
          ["orderer1", 7050, false],
          ["orderer2", 7050, false],
        ],
        ordererOrgs: [["OrdererMSP", "orderer0:7050,orderer1:7050,orderer2:7050"]],
        applicationOrgs: ["Org1MSP", "Org2MSP"],
        org1: [
          [channel.peers[0]?.ca.caPem],
          [channel.peers[0]?.tlsCa.caPem],
          [{ host: "peer0.org1msp.example.com", port: 7051 }],
          "admin",
        ],
        org1Policies: [
          "Admins: Signature OR('Org1MSP.admin')",
          "Endorsement: Signature OR('Org1MSP.peer')",
          "Readers: Signature OR('Org1MSP.admin','Org1MSP.peer','Org1MSP.client')",
          "Writers: Signature OR('Org1MSP.admin','Org1MSP.client')",
        ],
      },
    );
  });

  it("computes no update when the change declares what the channel has", () => {
    const same = applyConfigChange(channel.config, {
      orderer: { batchTimeout: "2s", capabilities: ["V2_0"] },
      application: { anchorPeers: { Org1MSP: [{ host: "peer0.org1msp.example.com", port: 7051 }] } },
    });
    assert.equal(computeConfigUpdate(channel.channelId, channel.config, same), undefined);
  });

  it("writes a modified value at its version + 1, reading nothing but the groups on its path", () => {
    const desired = applyConfigChange(channel.config, { orderer: { batchTimeout: "250ms" } });
    const view = describeConfigUpdate(computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail());
    assert.deepEqual(view.modified, ["[Value]  /Channel/Orderer/BatchTimeout"]);
    assert.deepEqual(
      view.readSet.map((e) => `${e.element}@${e.version}`),
      ["[Group]  /Channel@0", "[Group]  /Channel/Orderer@0"],
    );
    assert.deepEqual(
      view.writeSet.map((e) => `${e.element}@${e.version} ${e.modPolicy} ${JSON.stringify(e.value ?? null)}`),
      [
        "[Group]  /Channel@0  null",
        "[Group]  /Channel/Orderer@0  null",
        '[Value]  /Channel/Orderer/BatchTimeout@1 Admins "250ms"',
      ],
    );
  });

  it("adds an organization as a new group at version 0 under its parent at version + 1, reading the parent's members", async () => {
    const org3 = await testOrganization("Org3MSP", 9051);
    const desired = applyConfigChange(channel.config, {
      application: { organizations: { Org3MSP: org3.declaration } },
    });
    const update = computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail();
    const view = describeConfigUpdate(update);
    assert.equal(update.channelId, "testchannel");
    assert.deepEqual(view.modified, [
      "[Group]  /Channel/Application",
      "[Group]  /Channel/Application/Org3MSP",
      "[Value]  /Channel/Application/Org3MSP/AnchorPeers",
      "[Value]  /Channel/Application/Org3MSP/MSP",
      "[Policy] /Channel/Application/Org3MSP/Admins",
      "[Policy] /Channel/Application/Org3MSP/Endorsement",
      "[Policy] /Channel/Application/Org3MSP/Readers",
      "[Policy] /Channel/Application/Org3MSP/Writers",
    ]);
    const application = view.writeSet.find((e) => e.element === "[Group]  /Channel/Application");
    assert.deepEqual([application?.version, application?.modPolicy], ["1", "Admins"]);
    assert.deepEqual(
      view.readSet.filter((e) => e.element.startsWith("[Group]  /Channel/Application/")).map((e) => e.element),
      ["[Group]  /Channel/Application/Org1MSP", "[Group]  /Channel/Application/Org2MSP"],
    );
    const msp = view.writeSet.find((e) => e.element.endsWith("Org3MSP/MSP"))?.value as {
      mspId: string;
      rootCertificates: string[];
    };
    assert.deepEqual([msp.mspId, msp.rootCertificates], ["Org3MSP", [org3.ca.caPem]]);
  });

  it("refuses bad input naming the field, the organization and the fix, before building anything", async () => {
    const org3 = await testOrganization("Org3MSP");
    refusal(
      () =>
        applyConfigChange(channel.config, {
          application: {
            organizations: {
              Org3MSP: {
                ...org3.declaration,
                rootCertificates: ["-----BEGIN CERTIFICATE-----\nMIIBnot\n-----END CERTIFICATE-----\n"],
              },
            },
          },
        }),
      {
        problem: "MSP_CERTIFICATE",
        field: "application.organizations[Org3MSP].rootCertificates[0]",
        organization: "Org3MSP",
        message:
          "application.organizations[Org3MSP].rootCertificates[0]: Org3MSP's certificate does not parse as a PEM X.509 certificate (give the PEM text, -----BEGIN CERTIFICATE----- included, of the file the MSP folder holds)",
      },
    );
    refusal(
      () =>
        applyConfigChange(channel.config, {
          application: { anchorPeers: { Org9MSP: [{ host: "peer0", port: 7051 }] } },
        }),
      {
        problem: "UNKNOWN_ORGANIZATION",
        field: "application.anchorPeers[Org9MSP]",
        organization: "Org9MSP",
        message:
          "application.anchorPeers[Org9MSP]: Org9MSP is not an application organization of the channel (it has Org1MSP, Org2MSP): add the organization first (application.organizations) or name one of those",
      },
    );
    refusal(
      () => applyConfigChange(channel.config, { channel: { capabilities: ["V3_0"] } }, { fabricVersion: "2.5.16" }),
      {
        problem: "UNSUPPORTED_CAPABILITY",
        field: "channel.capabilities[0]",
        message:
          "channel.capabilities[0]: channel capability 'V3_0' is not one Fabric 2.5.16 supports (V1_1, V1_3, V1_4_2, V1_4_3, V2_0); peers and orderers stop on a channel requiring a capability they do not know, so upgrade every binary first or choose one of those",
      },
    );
    refusal(() => applyConfigChange(channel.config, { application: { capabilities: ["V9_9"] } }), {
      problem: "UNSUPPORTED_CAPABILITY",
      field: "application.capabilities[0]",
      message:
        "application.capabilities[0]: application capability 'V9_9' is not one any Fabric release supports (V1_1, V1_2, V1_3, V1_4_2, V2_0, V2_5); peers and orderers stop on a channel requiring a capability they do not know, so upgrade every binary first or choose one of those",
    });
    refusal(
      () => applyConfigChange(channel.config, { orderer: { batchSize: { preferredMaxBytes: 20 * 1024 * 1024 } } }),
      {
        problem: "BATCH_SIZE",
        field: "orderer.batchSize.preferredMaxBytes",
        message:
          "orderer.batchSize.preferredMaxBytes: 20971520 is over the absolute maximum, absoluteMaxBytes 10485760; the orderers refuse a preferred size greater than the absolute one: lower preferredMaxBytes or raise absoluteMaxBytes",
      },
    );
    refusal(() => applyConfigChange(channel.config, { orderer: { batchTimeout: "2 seconds" } }), {
      problem: "BATCH_TIMEOUT",
      field: "orderer.batchTimeout",
      message:
        "orderer.batchTimeout: '2 seconds' is not a positive Go duration; the orderers refuse it (\"Attempted to set the batch timeout to a invalid value\"): write e.g. '2s', '500ms' or '1m30s'",
    });
    const notCa = org3.admin.identity.credentials;
    refusal(
      () =>
        buildChannelConfig({
          ...channel.declaration,
          application: {
            organizations: [{ ...org3.declaration, tlsRootCertificates: [Buffer.from(notCa).toString()] }],
          },
        }),
      {
        problem: "MSP_CERTIFICATE",
        field: "application.organizations[Org3MSP].tlsRootCertificates[0]",
        organization: "Org3MSP",
        message:
          "application.organizations[Org3MSP].tlsRootCertificates[0]: CN=Admin@Org3MSP, OU=admin, O=Org3MSP is not a CA certificate (no basicConstraints CA:TRUE), and a Fabric MSP refuses it as a root or intermediate: give the CA's certificate (cacerts/, tlscacerts/)",
      },
    );
  });

  it("keeps an organization's versions and anchor peers when it is declared again with new certificates", async () => {
    const other = await testOrganization("Org2MSP");
    const org2 = channel.peers[1] ?? assert.fail();
    const { anchorPeers: _anchors, ...withoutAnchors } = org2.declaration;
    const desired = applyConfigChange(channel.config, {
      application: {
        organizations: { Org2MSP: { ...withoutAnchors, tlsRootCertificates: [org2.tlsCa.caPem, other.tlsCa.caPem] } },
      },
    });
    const view = describeConfigUpdate(computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail());
    assert.deepEqual(view.modified, ["[Value]  /Channel/Application/Org2MSP/MSP"]);
    const after = describeChannelConfig(desired, channel.channelId).application?.organizations[1];
    assert.deepEqual(
      [after?.tlsRootCertificates.length, after?.anchorPeers],
      [2, [{ host: "peer0.org2msp.example.com", port: 7052 }]],
    );
    assert.equal(codecs.Config.decode(codecs.Config.encode(desired)).sequence, 0n);
  });
});
