/**
 * The channel configuration library against Fabric's own tools from the release archives, as the oracle on the same
 * inputs (no network: cryptogen material and configtxgen's genesis block of the profile sandbox/fabric-network writes,
 * for Raft on 2.5.16 and 3.1.5 and SmartBFT on 3.1.5):
 * - a configuration block decodes to what configtxlator's JSON says (organizations, certificates, anchor peers,
 *   endpoints, consenters, batch settings, capabilities), and every policy's text parses back to configtxgen's bytes;
 * - buildChannelConfig of the same declaration gives configtxgen's configuration, and genesisBlock its block;
 * - computeConfigUpdate gives what `configtxlator compute_update` gives for adding an organization, anchor peers,
 *   capabilities, the batch timeout and size, ACLs and a consenter's certificate.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codecs } from "../../../provider/ledger/codec";
import type { Config } from "../../../provider/ledger/config-messages";
import type { ChannelConfigChange } from "../../../provider/ledger/channel/change-declaration";
import { readConfigBlock } from "../../../provider/ledger/channel/config-block";
import { computeConfigUpdate } from "../../../provider/ledger/channel/compute-update";
import { applyConfigChange } from "../../../provider/ledger/channel/config-change";
import { describeChannelConfig } from "../../../provider/ledger/channel/describe-config";
import { buildChannelConfig, genesisBlock } from "../../../provider/ledger/channel/genesis-block";
import { policyFromText, policyText } from "../../../provider/ledger/channel/policy-text";
import { AdminTools } from "../../../sandbox/fabric-network/admin-tools";
import { CHANNEL_PROFILE, configtxYaml, cryptoConfigYaml } from "../../../sandbox/fabric-network/channel-config";
import { ensureFabric } from "../../../sandbox/fabric-network/fabric-home";
import { JOINING_ORG, joiningOrgCryptoConfig } from "../../../sandbox/fabric-network/joining-org";
import { runTool } from "../../../sandbox/fabric-network/processes";
import { NetworkLayout, PEER_ORGS, ordererHosts, ordererName } from "../../../sandbox/fabric-network/topology";
import type { FabricConsensus, FabricVersion } from "../../../sandbox/fabric-network";
import { mspFolderDeclaration, networkChannelDeclaration } from "../../helpers/channel-declaration";

const TARGETS: readonly { version: FabricVersion; consensus: FabricConsensus }[] = [
  { version: "2.5.16", consensus: "etcdraft" },
  { version: "3.1.5", consensus: "etcdraft" },
  { version: "3.1.5", consensus: "BFT" },
];

const CHANNEL = "oracle";
const BATCH_TIMEOUT_MS = 500;
const MAX_MESSAGE_COUNT = 10;

type Json = Record<string, unknown>;

function at(value: unknown, dotted: string): unknown {
  return dotted.split(".").reduce<unknown>((v, key) => (v as Json | undefined)?.[key], value);
}

const pemOf = (base64: unknown): string => Buffer.from(String(base64), "base64").toString("utf8");

for (const target of TARGETS) {
  describe(`the channel configuration library against configtxgen and configtxlator (Fabric ${target.version}, ${target.consensus})`, function () {
    this.timeout(240_000);
    let dir: string;
    let bin: (tool: string) => string;
    let layout: NetworkLayout;
    let genesis: Uint8Array;
    let config: Config;
    const orderers = ordererHosts(target.consensus === "BFT" ? 4 : 3).map((host, i) => ({ host, port: 7050 + i }));
    const peers = PEER_ORGS.map((org, i) => ({ org, port: 7051 + 10 * i }));
    const capabilities = {
      channel: [target.version.startsWith("2.") ? "V2_0" : "V3_0"],
      orderer: ["V2_0"],
      application: ["V2_5"],
    };

    /** configtxlator proto_decode of `bytes` as `type` (into a file: it cannot open a piped /dev/stdout). */
    async function decode(type: string, bytes: Uint8Array): Promise<Json> {
      const name = `decode-${String(process.hrtime.bigint())}`;
      const input = path.join(dir, `${name}.pb`);
      const output = path.join(dir, `${name}.json`);
      fs.writeFileSync(input, bytes);
      await runTool([bin("configtxlator"), "proto_decode", "--type", type, "--input", input, "--output", output]);
      return JSON.parse(fs.readFileSync(output, "utf8")) as Json;
    }

    before(async () => {
      const home = await ensureFabric(target.version);
      bin = (tool) => path.join(home, "bin", tool);
      dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-configtx-"));
      layout = new NetworkLayout(dir);
      const tools = new AdminTools(home);
      fs.writeFileSync(
        layout.cryptoConfig,
        cryptoConfigYaml(
          new Map(),
          orderers.map((o) => o.host),
        ),
      );
      await tools.cryptogen(layout.cryptoConfig, layout.crypto);
      const org3Config = path.join(dir, "org3.yaml");
      fs.writeFileSync(org3Config, joiningOrgCryptoConfig());
      await tools.cryptogen(org3Config, layout.crypto);
      fs.mkdirSync(layout.configtxDir, { recursive: true });
      const settings = {
        version: target.version,
        batchTimeoutMs: BATCH_TIMEOUT_MS,
        maxMessageCount: MAX_MESSAGE_COUNT,
        raftTickIntervalMs: 200,
        raftElectionTick: 10,
        consensus: target.consensus,
        ordererHosts: orderers.map((o) => o.host),
      };
      const ports = { orderers: orderers.map((o) => o.port), peers: peers.map((p) => p.port) };
      fs.writeFileSync(path.join(layout.configtxDir, "configtx.yaml"), configtxYaml(layout, ports, settings));
      const block = path.join(dir, "genesis.block");
      await tools.configtxgen(layout.configtxDir, CHANNEL_PROFILE, CHANNEL, block);
      genesis = new Uint8Array(fs.readFileSync(block));
      config = readConfigBlock(codecs.Block.decode(genesis)).config;
    });

    after(() => {
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it("decodes configtxgen's genesis block as configtxlator's JSON shows it, policies as configtx.yaml wrote them", async () => {
      const json = await decode("common.Block", genesis);
      const group = at(json, "data.data.0.payload.data.config.channel_group") as Json;
      const ours = describeChannelConfig(config, CHANNEL);
      const theirOrg = (section: string, name: string) => at(group, `groups.${section}.groups.${name}`) as Json;
      const mspOf = (org: Json) => at(org, "values.MSP.value.config") as Json;
      for (const org of ours.application?.organizations ?? []) {
        const theirs = theirOrg("Application", org.name);
        assert.deepEqual(
          [
            org.mspId,
            org.rootCertificates,
            org.tlsRootCertificates,
            org.anchorPeers,
            org.nodeOUs?.peer?.organizationalUnitIdentifier,
          ],
          [
            at(mspOf(theirs), "name"),
            (at(mspOf(theirs), "root_certs") as string[]).map(pemOf),
            (at(mspOf(theirs), "tls_root_certs") as string[]).map(pemOf),
            at(theirs, "values.AnchorPeers.value.anchor_peers"),
            at(mspOf(theirs), "fabric_node_ous.peer_ou_identifier.organizational_unit_identifier"),
          ],
        );
      }
      const ordererOrg = ours.orderer?.organizations[0];
      assert.deepEqual(
        ordererOrg?.endpoints,
        at(theirOrg("Orderer", "OrdererMSP"), "values.Endpoints.value.addresses"),
      );
      const orderer = at(group, "groups.Orderer.values") as Json;
      assert.deepEqual(
        [ours.orderer?.batchSize, ours.orderer?.batchTimeout, ours.orderer?.consensusType],
        [
          {
            maxMessageCount: at(orderer, "BatchSize.value.max_message_count"),
            absoluteMaxBytes: at(orderer, "BatchSize.value.absolute_max_bytes"),
            preferredMaxBytes: at(orderer, "BatchSize.value.preferred_max_bytes"),
          },
          at(orderer, "BatchTimeout.value.timeout"),
          at(orderer, "ConsensusType.value.type"),
        ],
      );
      const theirConsenters =
        target.consensus === "BFT"
          ? (at(orderer, "Orderers.value.consenter_mapping") as Json[]).map((c) => [
              c.host,
              c.port,
              pemOf(c.server_tls_cert),
              c.id,
              c.msp_id,
              pemOf(c.identity),
            ])
          : (at(orderer, "ConsensusType.value.metadata.consenters") as Json[]).map((c) => [
              c.host,
              c.port,
              pemOf(c.server_tls_cert),
            ]);
      assert.deepEqual(
        ours.orderer?.consenters.map((c) =>
          target.consensus === "BFT"
            ? [c.host, c.port, c.serverTlsCert, c.id, c.mspId, c.identity]
            : [c.host, c.port, c.serverTlsCert],
        ),
        theirConsenters,
      );
      const capabilityKeys = (p: string) => Object.keys((at(group, p) as Json | undefined) ?? {}).sort();
      assert.deepEqual(ours.capabilities, {
        channel: capabilityKeys("values.Capabilities.value.capabilities"),
        orderer: capabilityKeys("groups.Orderer.values.Capabilities.value.capabilities"),
        application: capabilityKeys("groups.Application.values.Capabilities.value.capabilities"),
      });
      assert.equal(
        ours.application?.organizations[0]?.policies["Readers"]?.rule,
        "OR('Org1MSP.admin','Org1MSP.peer','Org1MSP.client')",
      );
      assert.equal(
        ours.orderer.policies["BlockValidation"]?.rule,
        target.consensus === "BFT"
          ? `OutOf(3,${orderers.map((o) => `Principal(IDENTITY, 'OrdererMSP', CN=${ordererName(o.host)})`).join(",")})`
          : "ANY Writers",
      );
      // Every policy of the configuration: its text parses back to the bytes configtxgen wrote.
      const walk = (g: NonNullable<Config["channelGroup"]>, where: string): number =>
        g.policies.reduce((n, p) => {
          const policy = p.value?.policy ?? assert.fail();
          // SmartBFT's BlockValidation names the consenters' certificates, which the policy language cannot.
          if (p.key === "BlockValidation" && target.consensus === "BFT") return n + 1;
          const again = policyFromText(policyText(policy));
          assert.deepEqual(
            Buffer.from(again.value).toString("hex"),
            Buffer.from(policy.value).toString("hex"),
            `${where}/${p.key}`,
          );
          return n + 1;
        }, 0) + g.groups.reduce((n, s) => n + walk(s.value ?? assert.fail(), `${where}/${s.key}`), 0);
      assert.ok(walk(config.channelGroup ?? assert.fail(), "/Channel") >= 20);
    });

    it("builds the configuration and genesis block configtxgen builds from the same profile", async () => {
      const declaration = networkChannelDeclaration(dir, {
        channelId: CHANNEL,
        version: target.version,
        consensus: target.consensus,
        orderers,
        peers,
        batchTimeoutMs: BATCH_TIMEOUT_MS,
        maxMessageCount: MAX_MESSAGE_COUNT,
        capabilities,
      });
      const block = genesisBlock(CHANNEL, buildChannelConfig(declaration));
      const [ours, theirs] = await Promise.all([
        decode("common.Block", codecs.Block.encode(block)),
        decode("common.Block", genesis),
      ]);
      assert.deepEqual(at(ours, "data.data.0.payload.data"), at(theirs, "data.data.0.payload.data"));
      assert.deepEqual(ours.metadata, theirs.metadata);
      const header = (j: Json) => {
        const h = at(j, "data.data.0.payload.header.channel_header") as Json;
        return [h.type, h.version, h.channel_id, h.epoch, String(h.timestamp).endsWith("Z")];
      };
      assert.deepEqual(header(ours), header(theirs));
    });

    describe("computes the update `configtxlator compute_update` computes", () => {
      const org3Msp = () => path.join(layout.crypto, "peerOrganizations", JOINING_ORG.domain, "msp");
      const changes: [string, () => ChannelConfigChange][] = [
        [
          "adding an organization",
          () => ({
            application: {
              organizations: {
                Org3MSP: mspFolderDeclaration(org3Msp(), "Org3MSP", {
                  anchorPeers: [{ host: "127.0.0.1", port: 9051 }],
                }),
              },
            },
          }),
        ],
        [
          "anchor peers",
          () => ({
            application: {
              anchorPeers: {
                Org1MSP: [
                  { host: "localhost", port: 7051 },
                  { host: "127.0.0.1", port: 7052 },
                ],
              },
            },
          }),
        ],
        [
          "capabilities",
          () => ({ application: { capabilities: ["V2_0"] }, orderer: { capabilities: ["V1_4_2", "V2_0"] } }),
        ],
        [
          "the batch timeout and size",
          () => ({ orderer: { batchTimeout: "2s", batchSize: { maxMessageCount: 100 } } }),
        ],
        [
          "ACLs",
          () => ({
            application: {
              acls: {
                "qscc/GetChainInfo": "/Channel/Application/Writers",
                "event/Block": "/Channel/Application/Readers",
              },
            },
          }),
        ],
        [
          "a consenter's TLS certificate",
          () => {
            const view = describeChannelConfig(config, CHANNEL);
            const rotated = fs.readFileSync(new NetworkLayout(dir).ordererTls(ordererName("orderer1")).cert, "utf8");
            const consenters = (view.orderer?.consenters ?? []).map((c, i) =>
              i === 0 ? { ...c, clientTlsCert: rotated, serverTlsCert: rotated } : c,
            );
            return { orderer: { consenters } };
          },
        ],
      ];
      for (const [what, change] of changes) {
        it(what, async () => {
          const desired = applyConfigChange(config, change(), { fabricVersion: target.version });
          const original = path.join(dir, "original.pb");
          const updated = path.join(dir, `updated-${what.replace(/\W+/g, "-")}.pb`);
          const output = path.join(dir, `update-${what.replace(/\W+/g, "-")}.pb`);
          fs.writeFileSync(original, codecs.Config.encode(config));
          fs.writeFileSync(updated, codecs.Config.encode(desired));
          await runTool([
            bin("configtxlator"),
            "compute_update",
            "--channel_id",
            CHANNEL,
            "--original",
            original,
            "--updated",
            updated,
            "--output",
            output,
          ]);
          const ours = computeConfigUpdate(CHANNEL, config, desired) ?? assert.fail("no update computed");
          const [mine, theirs] = await Promise.all([
            decode("common.ConfigUpdate", codecs.ConfigUpdate.encode(ours)),
            decode("common.ConfigUpdate", new Uint8Array(fs.readFileSync(output))),
          ]);
          assert.deepEqual(mine, theirs);
          assert.notDeepEqual(at(theirs, "write_set"), at(theirs, "read_set"));
        });
      }
    });
  });
}
