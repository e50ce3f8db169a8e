/**
 * The smoke test of a real Fabric network of each release line (FABRIC_VERSIONS: 2.5.16 and 3.1.5), one body: the
 * network starts once per release, a network of this file's own; the official @hyperledger/fabric-gateway client submits and evaluates; qscc shows
 * the committed transaction VALID with endorsements from both organizations; the contract's metadata; kill -9 of the
 * Raft leader (another is elected, a transaction commits, the old leader comes back); close() leaves no process behind.
 */
import { strict as assert } from "node:assert";
import { existsSync } from "node:fs";
import { peer } from "@hyperledger/fabric-protos";
import {
  NETWORK_START_TIMEOUT_MS,
  evaluate,
  processedTransaction,
  submit,
  waitForBlock,
} from "../../helpers/fabric-network-client";
import { ASSET_FUNCTIONS } from "../../../sandbox/fabric/chaincode";
import {
  connectGateway,
  endorserMspIds,
  readNetworkFile,
  startFabricNetwork,
  type FabricNetwork,
  type FabricProcessRecord,
  FABRIC_VERSIONS,
  type FabricVersion,
} from "../../../sandbox/fabric-network";
import { commandLineOf, isRunning } from "../../../sandbox/fabric-network/processes";

function describeNetworkSmoke(version: FabricVersion): void {
  describe(`a real Fabric ${version} network (3 etcdraft orderers, Org1MSP and Org2MSP, ccaas chaincode)`, function () {
    let network: FabricNetwork | undefined;
    const started = (): FabricNetwork => {
      assert.ok(network, "the network started");
      return network;
    };
    // Raw bytes that are not UTF-8: values are opaque.
    const value = Buffer.from([0xff, 0x00, 0x41, 0xfe]);
    const key = `smoke-${version}`;

    before(async function () {
      this.timeout(NETWORK_START_TIMEOUT_MS + 10_000);
      network = await startFabricNetwork({ version, startTimeoutMs: NETWORK_START_TIMEOUT_MS });
    });
    after(async function () {
      this.timeout(60_000);
      await network?.close();
    });

    it("commits CreateAsset VALID with endorsements from both organizations and evaluates ReadAsset", async function () {
      this.timeout(60_000);
      const n = started();
      const created = await submit(n, "Org1MSP", "CreateAsset", [key, value]);
      assert.deepEqual(created.result, value);
      assert.equal(created.status.code, peer.TxValidationCode.VALID);
      assert.equal(created.status.successful, true);

      // The commit status came from Org1's peer; Org2's commits the same block on its own time.
      await waitForBlock(n, "Org2MSP", created.status.blockNumber);
      const processed = await processedTransaction(n, "Org2MSP", created.txId);
      assert.equal(processed.getValidationcode(), peer.TxValidationCode.VALID);
      const envelope = processed.getTransactionenvelope();
      assert.ok(envelope);
      assert.deepEqual(endorserMspIds(envelope.serializeBinary()).sort(), ["Org1MSP", "Org2MSP"]);

      assert.deepEqual(await evaluate(n, "Org2MSP", "ReadAsset", [key]), value);
      assert.equal((await evaluate(n, "Org1MSP", "AssetExists", [`${key}-missing`])).toString(), "false");
    });

    it("serves the sandbox chaincode's functions, described by the contract API's GetMetadata", async function () {
      this.timeout(60_000);
      const connection = connectGateway(started().organization("Org1MSP"));
      try {
        const system = connection.gateway.getNetwork(started().channel).getContract("assets", "org.hyperledger.fabric");
        const metadata = JSON.parse(Buffer.from(await system.evaluateTransaction("GetMetadata")).toString()) as {
          contracts: Record<string, { transactions: { name: string; parameters?: { name: string }[] }[] }>;
        };
        const transactions = metadata.contracts["assets"]?.transactions ?? [];
        assert.deepEqual(
          transactions.map((t) => t.name),
          ASSET_FUNCTIONS,
        );
        assert.deepEqual(
          transactions.map((t) => (t.parameters ?? []).map((p) => p.name).join(",")),
          ["key,value", "key", "key", "key,value", "key,value", "key", "key,newKey", "startKey,endKey"],
        );
      } finally {
        connection.close();
      }
    });

    it("records its processes in network.json and finds the Raft leader through the orderers' metrics", async function () {
      this.timeout(60_000);
      const n = started();
      const processes = n.processes();
      assert.deepEqual(processes.map((p) => `${p.role} ${p.name}`).sort(), [
        "chaincode assets.org1.example.com",
        "chaincode assets.org2.example.com",
        "orderer orderer0.example.com",
        "orderer orderer1.example.com",
        "orderer orderer2.example.com",
        "peer peer0.org1.example.com",
        "peer peer0.org2.example.com",
      ]);
      for (const p of processes) assert.ok(isRunning(p), `${p.name} (pid ${String(p.pid)}) runs its recorded command`);
      const leader = await n.waitForRaftLeader({ timeoutMs: 30_000 });
      assert.ok(n.orderers.some((o) => o.name === leader));
    });

    it("elects another leader after kill -9 of the Raft leader, commits, and takes the old leader back", async function () {
      this.timeout(180_000);
      const n = started();
      const leader = await n.waitForRaftLeader({ timeoutMs: 30_000 });
      const killed = n.processes().find((p) => p.name === leader);
      assert.ok(killed && isRunning(killed));
      await n.stopProcess(leader, { signal: "SIGKILL" });
      assert.equal(isRunning(killed), false, "the leader's process is gone");
      const next = await n.waitForRaftLeader({ except: leader, timeoutMs: 60_000 });
      assert.notEqual(next, leader);
      const after = await submit(n, "Org2MSP", "UpdateAsset", [key, "after the leader died"]);
      assert.equal(after.status.code, peer.TxValidationCode.VALID);
      await n.startProcess(leader);
      assert.ok(isRunning(n.processes().find((p) => p.name === leader) ?? { pid: null, command: [] }));
    });

    it("stops every process and removes its folder on close", async function () {
      this.timeout(60_000);
      const n = started();
      const watchdog = readNetworkFile(n.networkFile).owner?.watchdog;
      assert.ok(watchdog && isRunning(watchdog), "a watchdog guards the network while it runs");
      const processes: readonly FabricProcessRecord[] = [...n.processes(), watchdog];
      await n.close();
      network = undefined;
      const left = processes.filter((p) => p.pid !== null && commandLineOf(p.pid)?.join(" ") === p.command.join(" "));
      assert.deepEqual(left, []);
      assert.equal(existsSync(n.dir), false);
    });
  });
}

for (const version of FABRIC_VERSIONS) describeNetworkSmoke(version);
