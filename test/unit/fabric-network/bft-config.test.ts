import { strict as assert } from "node:assert";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "yaml";
import { valueAt as get } from "../../helpers/yaml-path";
import { configtxYaml, cryptoConfigYaml } from "../../../sandbox/fabric-network/channel-config";
import { ordererYaml } from "../../../sandbox/fabric-network/node-config";
import { resolveConsensus } from "../../../sandbox/fabric-network/consensus";
import { NetworkLayout, ordererHosts } from "../../../sandbox/fabric-network/topology";

const layout = new NetworkLayout("/net");
const ports = { orderers: [21001, 21002, 21003, 21004], peers: [22001, 22002] };
const bft = {
  version: "3.1.5",
  batchTimeoutMs: 500,
  maxMessageCount: 10,
  raftTickIntervalMs: 200,
  raftElectionTick: 10,
  consensus: "BFT" as const,
  ordererHosts: ordererHosts(4),
};
const orderers = "/net/crypto/ordererOrganizations/example.com/orderers";

describe("Fabric network configuration: SmartBFT", () => {
  const p = get(parse(configtxYaml(layout, ports, bft)), "Profiles.OpsledgerChannel");

  it("maps four BFT consenters by ID, MSP ID, enrolment certificate and TLS certificates, on a V3_0 channel", () => {
    assert.deepEqual(get(p, "Capabilities"), { V3_0: true });
    assert.equal(get(p, "Orderer.OrdererType"), "BFT");
    assert.equal(get(p, "Orderer.EtcdRaft"), undefined);
    assert.equal(get(p, "Orderer.Addresses"), undefined, "V3_0 forbids the global Orderer.Addresses");
    assert.deepEqual(
      get(p, "Orderer.ConsenterMapping"),
      [0, 1, 2, 3].map((i) => ({
        ID: i + 1,
        Host: "127.0.0.1",
        Port: ports.orderers[i],
        MSPID: "OrdererMSP",
        Identity: `${orderers}/orderer${i}.example.com/msp/signcerts/orderer${i}.example.com-cert.pem`,
        ClientTLSCert: `${orderers}/orderer${i}.example.com/tls/server.crt`,
        ServerTLSCert: `${orderers}/orderer${i}.example.com/tls/server.crt`,
      })),
    );
    // One delivery endpoint per consenter (the gateway submits to every one of them).
    assert.deepEqual(
      get(p, "Orderer.Organizations.0.OrdererEndpoints"),
      ports.orderers.map((x) => `127.0.0.1:${x}`),
    );
  });

  it("keeps Fabric's default SmartBFT timeouts (a view change after 20 s) and our batch interval", () => {
    const options = get(p, "Orderer.SmartBFT");
    assert.equal(get(options, "RequestForwardTimeout"), "2s");
    assert.equal(get(options, "RequestComplainTimeout"), "20s");
    assert.equal(get(options, "ViewChangeTimeout"), "20s");
    assert.equal(get(options, "LeaderHeartbeatTimeout"), "1m0s");
    assert.equal(get(options, "RequestBatchMaxInterval"), "500ms");
    assert.equal(get(options, "RequestBatchMaxCount"), 10);
  });

  it("has cryptogen make an enrolment and TLS certificate for each of the four orderers", () => {
    const specs = get(parse(cryptoConfigYaml(new Map(), ordererHosts(4))), "OrdererOrgs.0.Specs");
    assert.deepEqual(
      (specs as { Hostname: string }[]).map((s) => s.Hostname),
      ["orderer0", "orderer1", "orderer2", "orderer3"],
    );
  });

  it("puts a BFT orderer's WAL under data/smartbft", () => {
    const home = mkdtempSync(join(tmpdir(), "opsledger-bft-config-"));
    try {
      mkdirSync(join(home, "config"));
      writeFileSync(join(home, "config", "orderer.yaml"), "General:\n  ListenPort: 7050\nConsensus: {}\n");
      const tls = { cert: "/c", key: "/k", ca: "/ca" };
      const input = { fabricHome: home, nodeDir: "/n", mspDir: "/m", mspId: "OrdererMSP", tls, adminClientCa: "/a" };
      const p0 = { listen: 1, admin: 2, operations: 3 };
      const doc = parse(ordererYaml({ ...input, consensus: "BFT", ports: p0 })) as unknown;
      assert.equal(get(doc, "Consensus.WALDir"), "/n/data/smartbft/wal");
      const raft = parse(ordererYaml({ ...input, ports: p0 })) as unknown;
      assert.equal(get(raft, "Consensus.WALDir"), "/n/data/etcdraft/wal");
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it("refuses BFT on 2.5.x and with fewer than four orderers, naming the option and the fix", () => {
    assert.deepEqual(resolveConsensus("3.1.5", "BFT", undefined), { consensus: "BFT", orderers: 4 });
    assert.deepEqual(resolveConsensus("2.5.16", undefined, undefined), { consensus: "etcdraft", orderers: 3 });
    assert.deepEqual(resolveConsensus("3.1.5", "BFT", 7), { consensus: "BFT", orderers: 7 });
    assert.throws(
      () => resolveConsensus("2.5.16", "BFT", undefined),
      new Error(
        "consensus BFT needs Fabric 3.x (channel capability V3_0); Fabric 2.5.16 has no SmartBFT: use version 3.1.5",
      ),
    );
    assert.throws(
      () => resolveConsensus("3.1.5", "BFT", 3),
      new Error(
        "consensus BFT needs at least 4 orderers (3f+1 to tolerate f = 1 fault), got 3: leave orderers unset or give 4 or more",
      ),
    );
    assert.throws(
      () => resolveConsensus("3.1.5", "etcdraft", 0),
      new Error("orderers must be a whole number from 1 to 7, got 0"),
    );
  });
});
