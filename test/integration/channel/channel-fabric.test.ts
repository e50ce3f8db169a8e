/**
 * A channel's life with the channel library on real Fabric (the run's shared networks: 2.5.16 and 3.1.5 Raft, 3.1.5
 * SmartBFT; docs/decisions/0051-shared-networks-by-kind-started-on-demand.md): a channel of its own created from a declared configuration through every orderer's
 * participation API (mutual TLS) and the peers joined through cscc, joining again adopted; bad input, and a signature
 * set that does not meet the policy, refused before anything is sent; a stale update (another admin changed the
 * channel between compute and submit) recognised in the orderer's answer; Org3MSP added with its admins' signatures —
 * one a key file, one a key in an HSM — its configuration block awaited and decoded, and its peer joined and caught
 * up; anchor peers set by their organization's admin alone; the batch timeout changed by the orderer organization's
 * admin; capabilities raised; a SmartBFT consenter's endpoint changed. The shared channel and its processes are left
 * as they are (the channel is this file's own; Org3's peer and chaincode server are added to the network).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { BroadcastError } from "../../../provider/errors/ledger/broadcast-error";
import type { ChannelConfigChange } from "../../../provider/ledger/channel/change-declaration";
import { ChannelConfigError } from "../../../provider/errors/ledger/channel-config-error";
import { joinOrdererChannel, ordererChannelInfo } from "../../../provider/ledger/channel/channel-participation";
import { ConfigUpdateAuthorizationError } from "../../../provider/errors/ledger/config-update-authorization-error";
import type { SigningIdentity } from "../../../provider/ledger/channel/config-update-signing";
import { connectDeliver, fetchBlock, fetchConfigBlock } from "../../../provider/ledger/channel/deliver-client";
import { DeliverError } from "../../../provider/errors/ledger/deliver-error";
import { describeConfigBlock } from "../../../provider/ledger/channel/describe-config";
import { buildChannelConfig, genesisBlock } from "../../../provider/ledger/channel/genesis-block";
import { joinPeerChannel, listPeerChannels } from "../../../provider/ledger/channel/peer-channels";
import {
  planChannelUpdate,
  submitChannelUpdate,
  updateChannelConfig,
} from "../../../provider/ledger/channel/update-channel";
import type { SubmitOptions } from "../../../provider/ledger/channel/update-channel";
import { codecs } from "../../../provider/ledger/codec";
import { connectEndorser } from "../../../provider/ledger/endorser-client";
import {
  readNetworkFile,
  type FabricJoiningOrganization,
  type FabricNetwork,
  type FabricOrganization,
} from "../../../sandbox/fabric-network";
import { runTool } from "../../../sandbox/fabric-network/processes";
import { PEER_ORGS } from "../../../sandbox/fabric-network/topology";
import { mspFolderDeclaration, networkChannelDeclaration } from "../../helpers/channel-declaration";
import { keyFileIdentity, openChannelNetwork } from "../../helpers/channel-network";
import type { ChannelNetwork, CountedOrderer } from "../../helpers/channel-network";
import { sharedFabricNetwork } from "../../helpers/fabric-network-fixture";
import type { SharedNetworkName } from "../../helpers/fabric-network-fixture";
import { waitFor } from "../../helpers/wait-for";

/** Each network, the capabilities its channel starts with, and the raise this file makes. */
const TARGETS: readonly {
  readonly network: SharedNetworkName;
  readonly capabilities: { channel: string[]; orderer: string[]; application: string[] };
  readonly raise: ChannelConfigChange;
  /** Org3's Readers need V3_0 for nothing here; a capability the release lacks, for the refusal. */
  readonly unsupported: ChannelConfigChange;
}[] = [
  {
    network: "2.5.16",
    capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_0"] },
    raise: { application: { capabilities: ["V2_5"] } },
    unsupported: { channel: { capabilities: ["V3_0"] } },
  },
  {
    network: "3.1.5",
    capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_5"] },
    raise: { channel: { capabilities: ["V3_0"] } },
    unsupported: { application: { capabilities: ["V3_0"] } },
  },
  {
    network: "3.1.5 SmartBFT",
    capabilities: { channel: ["V3_0"], orderer: ["V2_0"], application: ["V2_0"] },
    raise: { application: { capabilities: ["V2_5"] } },
    unsupported: { application: { capabilities: ["V3_0"] } },
  },
];

const STEP_TIMEOUT_MS = 240_000;
const WAIT_MS = 120_000;

for (const target of TARGETS) {
  describe(`a channel's life through the channel library (Fabric ${target.network})`, function () {
    this.timeout(STEP_TIMEOUT_MS);
    let network: FabricNetwork;
    let net: ChannelNetwork;
    let org1: FabricOrganization;
    let org3: FabricJoiningOrganization;
    let admins: ChannelNetwork["admins"];
    let orderer: CountedOrderer;
    const channelId = `channelcfg-${String(process.pid)}`;
    const submit = (signers: readonly SigningIdentity[]): SubmitOptions & { fabricVersion: string } => ({
      orderer: orderer.client,
      deliver: orderer.deliver,
      reader: admins.org1,
      signers,
      fabricVersion: network.version,
    });

    before(async function () {
      this.timeout(20 * 60_000);
      network = await sharedFabricNetwork(target.network);
      net = await openChannelNetwork(network);
      ({ org1, org3, admins, orderer } = net);
    });

    after(() => {
      net.close();
    });

    const current = () => fetchConfigBlock(orderer.deliver, channelId, { reader: admins.org1 });
    const org3Declaration = () => mspFolderDeclaration(org3.mspDir, "Org3MSP", { anchorPeers: [org3.anchorPeer] });

    it("creates a channel from a declared configuration through every orderer's participation API and joins the peers through cscc", async () => {
      const declaration = networkChannelDeclaration(network.dir, {
        channelId,
        version: network.version,
        consensus: network.consensus,
        orderers: network.orderers.map((o) => ({
          host: o.name.split(".")[0] ?? "",
          port: Number(o.address.split(":")[1]),
        })),
        peers: PEER_ORGS.map((org) => ({
          org,
          port: Number(network.organization(org.mspId).gatewayAddress.split(":")[1]),
        })),
        batchTimeoutMs: readNetworkFile(network.networkFile).batchTimeoutMs,
        maxMessageCount: 10,
        capabilities: target.capabilities,
      });
      const block = genesisBlock(channelId, buildChannelConfig(declaration));
      for (const o of network.orderers) {
        const joined = await joinOrdererChannel(net.participation(o.name), block, channelId);
        assert.deepEqual([joined.alreadyJoined, joined.info.name], [false, channelId], o.name);
      }
      const again = await joinOrdererChannel(net.participation(network.orderers[0]?.name ?? ""), block, channelId);
      assert.equal(again.alreadyJoined, true, "joining a channel the orderer has is adopted");
      for (const o of network.orderers)
        await waitFor({
          what: `${o.name} to be an active consenter of ${channelId}`,
          read: () => ordererChannelInfo(net.participation(o.name), channelId),
          until: (info) => info?.status === "active" && info.consensusRelation === "consenter",
          timeoutMs: WAIT_MS,
          intervalMs: 500,
        });
      // A Raft channel has no leader for a moment after its orderers join; Deliver answers SERVICE_UNAVAILABLE till then.
      await net.waitForLeader(channelId, WAIT_MS);
      for (const org of [net.org1, net.org2]) {
        const peer = connectEndorser({
          address: org.gatewayAddress,
          tls: { rootCertificates: org.tlsRootCertPem, serverNameOverride: org.tlsServerName },
          ...keyFileIdentity(org.admin),
        });
        try {
          assert.deepEqual(await joinPeerChannel(peer, block), { channelId, alreadyJoined: false });
          assert.deepEqual(await joinPeerChannel(peer, block), { channelId, alreadyJoined: true });
          assert.ok((await listPeerChannels(peer)).includes(channelId));
        } finally {
          peer.close();
        }
      }
      const config = await current();
      const view = describeConfigBlock(config);
      assert.deepEqual(
        [
          view.channelId,
          view.sequence,
          view.capabilities,
          view.application?.organizations.map((o) => o.mspId),
          view.orderer?.consensusType,
        ],
        [channelId, 0n, target.capabilities, ["Org1MSP", "Org2MSP"], network.consensus],
      );
      // What configtxlator reads from the block the orderer stored.
      const file = path.join(network.dir, `${channelId}.block`);
      fs.writeFileSync(
        file,
        codecs.Block.encode(await fetchBlock(orderer.deliver, channelId, 0n, { reader: admins.org1 })),
      );
      const configtxlator = path.join(readNetworkFile(network.networkFile).fabricHome, "bin", "configtxlator");
      await runTool([
        configtxlator,
        "proto_decode",
        "--type",
        "common.Block",
        "--input",
        file,
        "--output",
        `${file}.json`,
      ]);
      const json = JSON.parse(fs.readFileSync(`${file}.json`, "utf8")) as {
        data: {
          data: {
            payload: {
              data: { config: { channel_group: { groups: { Application: { groups: Record<string, unknown> } } } } };
            };
          }[];
        };
      };
      assert.deepEqual(
        Object.keys(json.data.data[0]?.payload.data.config.channel_group.groups.Application.groups ?? {}).sort(),
        ["Org1MSP", "Org2MSP"],
      );
    });

    it("refuses bad input before any request: certificates that do not parse, a capability the release lacks, a batch size over the absolute maximum, an anchor peer of an organization not in the channel", async () => {
      const before = orderer.counts.streams;
      const refusals: [ChannelConfigChange, string][] = [
        [
          {
            application: {
              organizations: {
                Org3MSP: {
                  ...org3Declaration(),
                  rootCertificates: ["-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"],
                },
              },
            },
          },
          "application.organizations[Org3MSP].rootCertificates[0]",
        ],
        [
          target.unsupported,
          target.unsupported.channel !== undefined ? "channel.capabilities[0]" : "application.capabilities[0]",
        ],
        [
          { orderer: { batchSize: { absoluteMaxBytes: 1024 * 1024, preferredMaxBytes: 2 * 1024 * 1024 } } },
          "orderer.batchSize.preferredMaxBytes",
        ],
      ];
      for (const [change, field] of refusals)
        await assert.rejects(
          updateChannelConfig(channelId, change, submit([admins.org1, admins.org2Hsm, admins.orderer])),
          (e: unknown) => e instanceof ChannelConfigError && e.field === field,
        );
      assert.deepEqual(
        [orderer.counts.streams - before, orderer.counts.broadcasts],
        [0, 0],
        "nothing was sent, not even a read",
      );
      await assert.rejects(
        updateChannelConfig(
          channelId,
          { application: { anchorPeers: { Org3MSP: [org3.anchorPeer] } } },
          submit([admins.org1]),
        ),
        (e: unknown) =>
          e instanceof ChannelConfigError && e.problem === "UNKNOWN_ORGANIZATION" && e.organization === "Org3MSP",
      );
      assert.equal(orderer.counts.broadcasts, 0, "only the configuration was read");
      assert.equal((await current()).config.sequence, 0n);
    });

    it("refuses a signature set that does not meet the policy before sending, naming who is missing", async () => {
      await assert.rejects(
        updateChannelConfig(
          channelId,
          { application: { organizations: { Org3MSP: org3Declaration() } } },
          submit([admins.org1]),
        ),
        (e: unknown) =>
          e instanceof ConfigUpdateAuthorizationError &&
          e.missingOrganizations.join() === "Org2MSP" &&
          e.message.endsWith(
            "[Group]  /Channel/Application needs its mod_policy Admins (/Channel/Application/Admins: MAJORITY Admins), signed by Org1MSP: 1 more of Org2MSP must sign",
          ),
      );
      assert.equal(orderer.counts.broadcasts, 0);
    });

    it("recognises a stale update: another admin changed the channel between compute and submit", async () => {
      const plan = planChannelUpdate(await current(), {
        application: { organizations: { Org3MSP: org3Declaration() } },
      });
      const meanwhile = await updateChannelConfig(
        channelId,
        { application: { acls: { "qscc/GetChainInfo": "/Channel/Application/Readers" } } },
        submit([admins.org1, admins.org2Hsm]),
      );
      assert.deepEqual([meanwhile.changed, meanwhile.block.config.sequence], [true, 1n]);
      await assert.rejects(
        submitChannelUpdate(plan, submit([admins.org1, admins.org2Hsm])),
        (e: unknown) =>
          e instanceof BroadcastError && e.problem === "STALE_READ_SET" && /error validating ReadSet/.test(e.info),
      );
      const after = describeConfigBlock(await current());
      assert.deepEqual(
        [after.sequence, after.application?.organizations.map((o) => o.mspId)],
        [1n, ["Org1MSP", "Org2MSP"]],
      );
    });

    it("adds Org3MSP signed by Org1's admin (key file) and Org2's (HSM), awaits its configuration block, and joins Org3's peer", async () => {
      const broadcasts = orderer.counts.broadcasts;
      const added = await updateChannelConfig(
        channelId,
        { application: { organizations: { Org3MSP: org3Declaration() } } },
        submit([admins.org1, admins.org2Hsm]),
      );
      const view = describeConfigBlock(added.block);
      const org3View = view.application?.organizations.find((o) => o.mspId === "Org3MSP");
      assert.deepEqual(
        [
          added.changed,
          view.sequence,
          view.application?.organizations.map((o) => o.mspId),
          org3View?.anchorPeers,
          org3View?.rootCertificates,
        ],
        [true, 2n, ["Org1MSP", "Org2MSP", "Org3MSP"], [org3.anchorPeer], [org3.caCertificatePem]],
      );
      assert.equal(orderer.counts.broadcasts, broadcasts + 1);
      const again = await updateChannelConfig(
        channelId,
        { application: { organizations: { Org3MSP: org3Declaration() } } },
        submit([admins.org1, admins.org2Hsm]),
      );
      assert.deepEqual(
        [again.changed, again.block.number, orderer.counts.broadcasts],
        [false, added.block.number, broadcasts + 1],
      );
      const genesis = await fetchBlock(orderer.deliver, channelId, 0n, { reader: admins.org1 });
      const tls = { rootCertificates: org3.tlsRootCertPem, serverNameOverride: org3.tlsServerName };
      const peer = connectEndorser({ address: org3.gatewayAddress, tls, ...admins.org3 });
      try {
        assert.deepEqual(await joinPeerChannel(peer, genesis), { channelId, alreadyJoined: false });
      } finally {
        peer.close();
      }
      // Org3's peer sends the block once it has pulled and committed it: it caught up to the update that admitted it.
      // The reader is Org1's admin: until then the peer's view of the channel has no Org3 among the Readers.
      // A peer's Deliver knows the channel a moment after JoinChain answered (NOT_FOUND until then).
      const peerDeliver = connectDeliver({ address: org3.gatewayAddress, tls, kind: "peer" });
      try {
        const caughtUp = await waitFor({
          what: `Org3's peer to deliver block ${String(added.block.number)} of ${channelId}`,
          read: () =>
            fetchBlock(peerDeliver, channelId, added.block.number, {
              reader: admins.org1,
              callOptions: () => ({ deadline: Date.now() + WAIT_MS }),
            }),
          retrying: (e) => e instanceof DeliverError && e.status === 404,
          timeoutMs: WAIT_MS,
          intervalMs: 500,
        });
        assert.equal(caughtUp.header?.number, added.block.number);
      } finally {
        peerDeliver.close();
      }
    });

    it("sets anchor peers with the organization's own admin alone", async () => {
      const port = Number(org1.gatewayAddress.split(":")[1]);
      const result = await updateChannelConfig(
        channelId,
        { application: { anchorPeers: { Org1MSP: [{ host: "localhost", port }] } } },
        submit([admins.org1]),
      );
      assert.deepEqual(
        describeConfigBlock(result.block).application?.organizations.find((o) => o.mspId === "Org1MSP")?.anchorPeers,
        [{ host: "localhost", port }],
      );
    });

    it("changes the batch timeout with the orderer organization's admin", async () => {
      await assert.rejects(
        updateChannelConfig(channelId, { orderer: { batchTimeout: "1s" } }, submit([admins.org1, admins.org2Hsm])),
        (e: unknown) => e instanceof ConfigUpdateAuthorizationError && e.missingOrganizations.join() === "OrdererMSP",
      );
      const result = await updateChannelConfig(
        channelId,
        { orderer: { batchTimeout: "1s" } },
        submit([admins.orderer]),
      );
      assert.equal(describeConfigBlock(result.block).orderer?.batchTimeout, "1s");
    });

    it("raises a capability with the signatures its level's Admins need", async () => {
      const signers =
        target.raise.channel !== undefined
          ? [admins.orderer, admins.org1, admins.org2Hsm]
          : [admins.org1, admins.org2Hsm];
      const result = await updateChannelConfig(channelId, target.raise, submit(signers));
      const capabilities = describeConfigBlock(result.block).capabilities;
      assert.deepEqual(
        target.raise.channel !== undefined ? capabilities.channel : capabilities.application,
        target.raise.channel?.capabilities ?? target.raise.application?.capabilities,
      );
    });

    if (target.network === "3.1.5 SmartBFT")
      it("changes a SmartBFT consenter's endpoint, and the channel orders on", async () => {
        const consenters = describeConfigBlock(await current()).orderer?.consenters ?? assert.fail();
        const moved = consenters.map((c, i) => (i === consenters.length - 1 ? { ...c, host: "localhost" } : c));
        const result = await updateChannelConfig(
          channelId,
          { orderer: { consenters: moved } },
          submit([admins.orderer]),
        );
        assert.deepEqual(
          describeConfigBlock(result.block).orderer?.consenters.map((c) => c.host),
          ["127.0.0.1", "127.0.0.1", "127.0.0.1", "localhost"],
        );
        const next = await updateChannelConfig(
          channelId,
          { orderer: { batchTimeout: "500ms" } },
          submit([admins.orderer]),
        );
        assert.equal(next.block.config.sequence, result.block.config.sequence + 1n);
      });
  });
}
