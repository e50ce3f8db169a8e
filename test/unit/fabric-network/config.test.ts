import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { valueAt as get } from "../../helpers/yaml-path";
import { channelCapability, configtxYaml, cryptoConfigYaml } from "../../../sandbox/fabric-network/channel-config";
import { coreYaml, hasPath, ordererYaml, setPath } from "../../../sandbox/fabric-network/node-config";
import { resolveKeyTypes } from "../../../sandbox/fabric-network/org-keys";
import { startFabricNetwork } from "../../../sandbox/fabric-network";
import { NetworkLayout, ordererHosts } from "../../../sandbox/fabric-network/topology";

function list(doc: unknown, path: string): unknown[] {
  const value = get(doc, path);
  assert.ok(Array.isArray(value), `${path} is a list`);
  return value as unknown[];
}

const settings = {
  batchTimeoutMs: 500,
  maxMessageCount: 10,
  raftTickIntervalMs: 200,
  raftElectionTick: 10,
  consensus: "etcdraft" as const,
  ordererHosts: ordererHosts(3),
};
const ports = { orderers: [21001, 21002, 21003], peers: [22001, 22002] };
const layout = new NetworkLayout("/net");

function profile(version: string): unknown {
  return get(parse(configtxYaml(layout, ports, { version, ...settings })), "Profiles.OpsledgerChannel");
}

describe("Fabric network configuration", () => {
  it("runs 2.5 channels at channel capability V2_0 and 3.x channels at V3_0", () => {
    assert.equal(channelCapability("2.5.16"), "V2_0");
    assert.equal(channelCapability("3.1.5"), "V3_0");
    assert.deepEqual(get(profile("2.5.16"), "Capabilities"), { V2_0: true });
    assert.deepEqual(get(profile("3.1.5"), "Capabilities"), { V3_0: true });
    assert.deepEqual(get(profile("3.1.5"), "Orderer.Capabilities"), { V2_0: true });
    assert.deepEqual(get(profile("3.1.5"), "Application.Capabilities"), { V2_5: true });
    // A 3.x channel without V3_0, on request (an Ed25519 identity on such a channel).
    const v2 = get(
      parse(configtxYaml(layout, ports, { version: "3.1.5", ...settings, channelCapability: "V2_0" })),
      "Profiles.OpsledgerChannel",
    );
    assert.deepEqual(get(v2, "Capabilities"), { V2_0: true });
  });

  it("names three etcdraft consenters, per-organization orderer endpoints and one anchor peer per organization", () => {
    const p = profile("3.1.5");
    assert.equal(get(p, "Orderer.OrdererType"), "etcdraft");
    assert.equal(get(p, "Orderer.BatchTimeout"), "500ms");
    assert.equal(get(p, "Orderer.Addresses"), undefined, "V3_0 forbids the global Orderer.Addresses");
    assert.deepEqual(
      list(p, "Orderer.EtcdRaft.Consenters").map((c) => [get(c, "Host"), get(c, "Port"), get(c, "ClientTLSCert")]),
      [0, 1, 2].map((i) => [
        "127.0.0.1",
        ports.orderers[i],
        `/net/crypto/ordererOrganizations/example.com/orderers/orderer${i}.example.com/tls/server.crt`,
      ]),
    );
    assert.equal(get(p, "Orderer.EtcdRaft.Options.TickInterval"), "200ms");
    assert.deepEqual(
      get(p, "Orderer.Organizations.0.OrdererEndpoints"),
      ports.orderers.map((x) => `127.0.0.1:${x}`),
    );
    assert.deepEqual(
      list(p, "Application.Organizations").map((o) => [get(o, "ID"), get(o, "AnchorPeers")]),
      [
        ["Org1MSP", [{ Host: "127.0.0.1", Port: 22001 }]],
        ["Org2MSP", [{ Host: "127.0.0.1", Port: 22002 }]],
      ],
    );
    assert.equal(get(p, "Application.Organizations.0.Policies.Endorsement.Rule"), "OR('Org1MSP.peer')");
    assert.equal(get(p, "Application.Policies.LifecycleEndorsement.Rule"), "MAJORITY Endorsement");
  });

  it("has cryptogen issue NodeOU identities, a chaincode server certificate and TLS names for 127.0.0.1", () => {
    const config: unknown = parse(cryptoConfigYaml());
    assert.equal(get(config, "OrdererOrgs.0.EnableNodeOUs"), true);
    assert.deepEqual(
      list(config, "OrdererOrgs.0.Specs").map((s) => get(s, "Hostname")),
      ["orderer0", "orderer1", "orderer2"],
    );
    for (const org of list(config, "PeerOrgs")) {
      assert.equal(get(org, "EnableNodeOUs"), true);
      assert.deepEqual(
        list(org, "Specs").map((s) => [get(s, "Hostname"), get(s, "SANS")]),
        [
          ["peer0", ["127.0.0.1", "localhost"]],
          ["assets", ["127.0.0.1", "localhost"]],
        ],
      );
    }
  });

  it("gives an Ed25519 organization cryptogen's PublicKeyAlgorithm everywhere, and leaves P-256 and P-384 ones ECDSA", () => {
    const config: unknown = parse(
      cryptoConfigYaml(resolveKeyTypes("3.1.5", { Org1MSP: "ed25519", Org2MSP: "ecdsa-p384" })),
    );
    const [org1, org2] = list(config, "PeerOrgs");
    assert.deepEqual(
      [get(org1, "CA"), ...list(org1, "Specs").map((s) => get(s, "PublicKeyAlgorithm")), get(org1, "Users")],
      [{ PublicKeyAlgorithm: "ed25519" }, "ed25519", "ed25519", { Count: 1, PublicKeyAlgorithm: "ed25519" }],
    );
    // P-384: cryptogen makes P-256 material, which the network reissues (org-keys.ts).
    assert.deepEqual(
      [get(org2, "CA"), ...list(org2, "Specs").map((s) => get(s, "PublicKeyAlgorithm")), get(org2, "Users")],
      [undefined, undefined, undefined, { Count: 1 }],
    );
    assert.equal(get(config, "OrdererOrgs.0.CA"), undefined);
    assert.equal(cryptoConfigYaml(resolveKeyTypes("2.5.16")), cryptoConfigYaml());
  });

  it("refuses Ed25519 on 2.5, an unknown organization and an unknown key type, naming the fix", () => {
    assert.deepEqual(
      [...resolveKeyTypes("3.1.5", { Org2MSP: "ecdsa-p384" })],
      [
        ["Org1MSP", "ecdsa-p256"],
        ["Org2MSP", "ecdsa-p384"],
      ],
    );
    assert.throws(
      () => resolveKeyTypes("2.5.16", { Org1MSP: "ed25519" }),
      new Error(
        "keyTypes.Org1MSP: Ed25519 identities need Fabric 3.x (channel capability V3_0, which Fabric 2.5.16 does not " +
          "have); use version 3.1.5, or ecdsa-p256 or ecdsa-p384 for this organization",
      ),
    );
    assert.throws(
      () => resolveKeyTypes("3.1.5", { Org3MSP: "ed25519" }),
      new Error("keyTypes: 'Org3MSP' is not an organization of the network; use Org1MSP or Org2MSP"),
    );
    assert.throws(
      () => resolveKeyTypes("3.1.5", { Org1MSP: "rsa" }),
      new Error("keyTypes.Org1MSP: 'rsa' is not a key type; use ecdsa-p256, ecdsa-p384, ed25519"),
    );
  });

  describe("node configuration files over the release's sample", () => {
    let home: string;
    const tls = { cert: "/t/server.crt", key: "/t/server.key", ca: "/t/ca.crt" };
    before(() => {
      home = mkdtempSync(join(tmpdir(), "opsledger-fabric-home-"));
      mkdirSync(join(home, "config"));
    });
    after(() => {
      rmSync(home, { recursive: true, force: true });
    });

    const orderer = (sample: string): Record<string, unknown> => {
      writeFileSync(join(home, "config", "orderer.yaml"), sample);
      const input = { fabricHome: home, nodeDir: "/n", mspDir: "/m", mspId: "OrdererMSP", tls, adminClientCa: "/ca" };
      return parse(ordererYaml({ ...input, ports: { listen: 1, admin: 2, operations: 3 } })) as Record<string, unknown>;
    };

    it("turns the 2.x system channel bootstrap off, and leaves 3.x (which has no such key) without it", () => {
      const v2 = orderer("General:\n  BootstrapMethod: file\n  ListenPort: 7050\nKafka:\n  Verbose: false\n");
      assert.equal(get(v2, "General.BootstrapMethod"), "none");
      assert.deepEqual(get(v2, "Kafka"), { Verbose: false }, "settings we do not name keep the release's value");
      const v3 = orderer("General:\n  ListenPort: 7050\n");
      assert.equal(hasPath(v3, "General.BootstrapMethod"), false);
      assert.equal(get(v3, "General.ListenPort"), 1);
    });

    it("serves the channel participation API with mutual TLS and metrics over TLS", () => {
      const o = orderer("General: {}\n");
      assert.equal(get(o, "ChannelParticipation.Enabled"), true);
      assert.deepEqual(get(o, "Admin"), {
        ListenAddress: "127.0.0.1:2",
        TLS: {
          Enabled: true,
          Certificate: tls.cert,
          PrivateKey: tls.key,
          ClientAuthRequired: true,
          ClientRootCAs: ["/ca"],
        },
      });
      assert.equal(get(o, "Metrics.Provider"), "prometheus");
      assert.equal(get(o, "Operations.TLS.Enabled"), true);
      assert.deepEqual(get(o, "Operations.TLS.ClientRootCAs"), ["/ca"]);
    });

    it("gives the peer the ccaas builder, no Docker endpoint, the Gateway and gossip endpoints on 127.0.0.1", () => {
      writeFileSync(
        join(home, "config", "core.yaml"),
        [
          "peer:",
          "  gateway:",
          "    enabled: true",
          "vm:",
          "  endpoint: unix:///var/run/docker.sock",
          "chaincode:",
          "  externalBuilders:",
          "    - name: ccaas_builder",
          "      path: /opt/hyperledger/ccaas_builder",
        ].join("\n"),
      );
      const input = {
        fabricHome: home,
        nodeDir: "/n",
        name: "peer0.org1.example.com",
        mspDir: "/m",
        mspId: "Org1MSP",
        tls,
      };
      const c: unknown = parse(coreYaml({ ...input, ports: { listen: 4, chaincode: 5, operations: 6 } }));
      assert.equal(get(c, "vm.endpoint"), "");
      assert.deepEqual(get(c, "chaincode.externalBuilders"), [
        { name: "ccaas_builder", path: join(home, "builders", "ccaas") },
      ]);
      assert.equal(get(c, "peer.gateway.enabled"), true);
      assert.equal(get(c, "peer.address"), "127.0.0.1:4");
      assert.equal(get(c, "peer.gossip.externalEndpoint"), "127.0.0.1:4");
      assert.equal(get(c, "peer.gossip.bootstrap"), "127.0.0.1:4");
      assert.equal(get(c, "peer.tls.enabled"), true);
      assert.equal(get(c, "peer.tls.clientAuthRequired"), false);
      assert.deepEqual(get(c, "peer.tls.clientRootCAs.files"), [tls.ca]);
      assert.equal(get(c, "operations.listenAddress"), "127.0.0.1:6");
      // Mutual TLS: client certificates required, from either organization's TLS CA; the peer's own outgoing
      // connections keep presenting its server pair (no clientCert.file of its own).
      const mutual: unknown = parse(
        coreYaml({
          ...input,
          clientAuth: { clientRootCAs: ["/tlsca1.pem", "/tlsca2.pem"] },
          ports: { listen: 4, chaincode: 5, operations: 6 },
        }),
      );
      assert.equal(get(mutual, "peer.tls.clientAuthRequired"), true);
      assert.deepEqual(get(mutual, "peer.tls.clientRootCAs.files"), ["/tlsca1.pem", "/tlsca2.pem"]);
      assert.equal(get(mutual, "peer.tls.clientCert.file"), undefined);
    });

    it("sets nested keys, creating the objects on the way", () => {
      const doc: Record<string, unknown> = { a: { b: 1 } };
      setPath(doc, "a.c.d", 2);
      setPath(doc, "e", [3]);
      assert.deepEqual(doc, { a: { b: 1, c: { d: 2 } }, e: [3] });
      assert.equal(hasPath(doc, "a.c.d"), true);
      assert.equal(hasPath(doc, "a.x"), false);
    });
  });
});

describe("Fabric network options: channelCapability", () => {
  it("refuses V3_0 on 2.x, and V2_0 with BFT or an Ed25519 organization, before anything starts", async () => {
    await assert.rejects(startFabricNetwork({ version: "2.5.16", channelCapability: "V3_0" }), {
      message: "channelCapability V3_0 needs Fabric 3.x; Fabric 2.5.16 knows V2_0 only",
    });
    const needsV3 =
      "channelCapability V2_0: BFT ordering and Ed25519 organizations need V3_0; leave channelCapability out for them";
    await assert.rejects(startFabricNetwork({ version: "3.1.5", consensus: "BFT", channelCapability: "V2_0" }), {
      message: needsV3,
    });
    await assert.rejects(
      startFabricNetwork({ version: "3.1.5", keyTypes: { Org1MSP: "ed25519" }, channelCapability: "V2_0" }),
      { message: needsV3 },
    );
  });
});
