import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { parseFabricCliArgs, FabricCliUsageError, DEFAULT_CLI_DIR } from "../../../sandbox/fabric-network/cli";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claimPort, freePorts, portRange } from "../../../sandbox/fabric-network/ports";
import { cleanEnvironment, commandLineOf, isRunning, stopRecorded } from "../../../sandbox/fabric-network/processes";
import { gaugeValue } from "../../../sandbox/fabric-network/readiness";

/**
 * A /bin/sleep child, returned once /proc shows it running that program: between fork and exec (and on a loaded
 * machine for a moment after spawn) the child's command line is still Node's or empty.
 */
async function sleeper(): Promise<{ pid: number; command: string[]; exited: Promise<unknown> }> {
  const command = ["/bin/sleep", "30"];
  const child = spawn(command[0] ?? "", command.slice(1), { stdio: "ignore" });
  const exited = once(child, "exit");
  await once(child, "spawn");
  assert.ok(child.pid);
  const deadline = Date.now() + 5000;
  let seen = commandLineOf(child.pid);
  while (JSON.stringify(seen) !== JSON.stringify(command) && Date.now() < deadline) {
    await new Promise((resolve) => setImmediate(resolve));
    seen = commandLineOf(child.pid);
  }
  assert.deepEqual(seen, command, "/proc shows the child's command line within 5 s");
  return { pid: child.pid, command, exited };
}

describe("Fabric network process control", () => {
  it("reads a process's command line from /proc", async () => {
    const s = await sleeper();
    assert.deepEqual(commandLineOf(s.pid), s.command);
    process.kill(s.pid, "SIGKILL");
    await s.exited;
    assert.equal(commandLineOf(s.pid), undefined);
  });

  it("never signals a pid that now runs another command, and stops one that runs the recorded command", async () => {
    const s = await sleeper();
    const reused = { name: "orderer0.example.com", pid: s.pid, command: ["/fabric/bin/orderer"] };
    assert.equal(isRunning(reused), false);
    assert.equal(await stopRecorded(reused, "SIGKILL"), "pid reused");
    assert.deepEqual(commandLineOf(s.pid), s.command, "the other program still runs");

    const own = { name: "sleeper", pid: s.pid, command: s.command };
    assert.equal(isRunning(own), true);
    assert.equal(await stopRecorded(own), "stopped");
    await s.exited;
    assert.equal(await stopRecorded(own), "not running");
    assert.equal(await stopRecorded({ ...own, pid: null }), "not running");
  });

  it("gives Fabric binaries none of the caller's CORE_*, ORDERER_*, FABRIC_* or CHAINCODE_* settings", () => {
    process.env["CORE_PEER_ADDRESS"] = "10.0.0.1:7051";
    process.env["FABRIC_CFG_PATH"] = "/elsewhere";
    try {
      const env = cleanEnvironment({ FABRIC_CFG_PATH: "/node" });
      assert.equal(env["CORE_PEER_ADDRESS"], undefined);
      assert.equal(env["FABRIC_CFG_PATH"], "/node");
      assert.equal(env["PATH"], process.env["PATH"]);
    } finally {
      delete process.env["CORE_PEER_ADDRESS"];
      delete process.env["FABRIC_CFG_PATH"];
    }
  });

  it("draws distinct free ports below the ephemeral range and skips ports in use", async () => {
    const [low, high] = portRange();
    const busy = createServer();
    let taken = 0;
    for (let bound = false; !bound;) {
      taken = low + Math.floor(Math.random() * (high - low));
      bound = await new Promise<boolean>((resolve) => {
        busy.once("error", () => {
          resolve(false);
        });
        busy.listen(taken, "127.0.0.1", () => {
          resolve(true);
        });
      });
    }
    try {
      // The first draw hits the busy port; the rest are random.
      let first = true;
      const random = (): number => {
        if (!first) return Math.random();
        first = false;
        return (taken - low + 0.5) / (high - low);
      };
      const ports = await freePorts(3, random);
      assert.equal(ports.includes(taken), false);
      assert.equal(new Set(ports).size, 3);
      for (const p of ports) assert.ok(p >= low && p < high, `${p} is in [${low}, ${high})`);
      assert.ok(high <= 65536 && low >= 1024);
      const again = await freePorts(3);
      assert.deepEqual(
        again.filter((p) => ports.includes(p)),
        [],
        "a port is handed out once per process",
      );
    } finally {
      busy.close();
    }
  });

  it("leaves a port claimed by another living process alone and takes over a dead process's claim", async () => {
    const dir = mkdtempSync(join(tmpdir(), "opsledger-claims-"));
    // A living process: a child that waits on its stdin; a dead one: a child that has exited and been reaped.
    const living = spawn(process.execPath, ["-e", "process.stdin.resume()"], { stdio: ["pipe", "ignore", "ignore"] });
    const dead = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
    try {
      await once(living, "spawn");
      await once(dead, "exit");
      assert.ok(living.pid !== undefined && dead.pid !== undefined);
      writeFileSync(join(dir, "21000"), String(living.pid));
      writeFileSync(join(dir, "21001"), String(dead.pid));
      assert.equal(claimPort(21000, dir), false, "the living process keeps its port");
      assert.equal(readFileSync(join(dir, "21000"), "utf8"), String(living.pid));
      assert.equal(claimPort(21001, dir), true, "the dead process's claim is taken over");
      assert.equal(readFileSync(join(dir, "21001"), "utf8"), String(process.pid));
      assert.equal(claimPort(21001, dir), false, "a port is claimed once");
      assert.equal(claimPort(21002, dir), true);
    } finally {
      living.kill("SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("reads a Prometheus gauge by its exact labels", () => {
    const metrics = [
      "# HELP consensus_etcdraft_is_leader The leadership status of the current node",
      'consensus_etcdraft_is_leader{channel="other"} 1',
      'consensus_etcdraft_is_leader{channel="opsledger"} 0',
      'consensus_etcdraft_is_leader_total{channel="opsledger"} 5',
    ].join("\n");
    assert.equal(gaugeValue(metrics, "consensus_etcdraft_is_leader", { channel: "opsledger" }), 0);
    assert.equal(gaugeValue(metrics, "consensus_etcdraft_is_leader", { channel: "other" }), 1);
    assert.equal(gaugeValue(metrics, "consensus_etcdraft_is_leader", { channel: "none" }), undefined);
  });

  it("parses fabric:up / fabric:down flags over the environment over the defaults", () => {
    assert.deepEqual(parseFabricCliArgs(["up"], {}), {
      command: "up",
      version: "2.5.16",
      dir: DEFAULT_CLI_DIR,
      keyTypes: {},
      clientAuth: false,
      consensus: "etcdraft",
    });
    assert.deepEqual(parseFabricCliArgs(["up"], { OPSLEDGER_FABRIC_VERSION: "3.1.5", OPSLEDGER_FABRIC_DIR: "/x" }), {
      command: "up",
      version: "3.1.5",
      dir: "/x",
      keyTypes: {},
      clientAuth: false,
      consensus: "etcdraft",
    });
    assert.deepEqual(parseFabricCliArgs(["up", "--fabric=3.1.5", "--dir", "/y"], { OPSLEDGER_FABRIC_DIR: "/x" }), {
      command: "up",
      version: "3.1.5",
      dir: "/y",
      keyTypes: {},
      clientAuth: false,
      consensus: "etcdraft",
    });
    assert.equal(parseFabricCliArgs(["down", "--help"], {}), undefined);
    assert.throws(
      () => parseFabricCliArgs(["up", "--fabric", "2.4.0"], {}),
      new FabricCliUsageError("--fabric must be 2.5.16 or 3.1.5, got '2.4.0'"),
    );
    assert.throws(
      () => parseFabricCliArgs(["down", "--fabric", "3.1.5"], {}),
      new FabricCliUsageError("--fabric applies to fabric:up only"),
    );
    assert.throws(
      () => parseFabricCliArgs(["start"], {}),
      new FabricCliUsageError("the command must be up or down, got 'start'"),
    );
    assert.throws(() => parseFabricCliArgs(["up", "--dir"], {}), new FabricCliUsageError("--dir needs a value"));
  });

  it("parses --client-auth (and OPSLEDGER_FABRIC_CLIENT_AUTH) for fabric:up only", () => {
    assert.equal(parseFabricCliArgs(["up", "--client-auth"], {})?.clientAuth, true);
    assert.equal(parseFabricCliArgs(["up"], { OPSLEDGER_FABRIC_CLIENT_AUTH: "1" })?.clientAuth, true);
    assert.equal(parseFabricCliArgs(["up"], { OPSLEDGER_FABRIC_CLIENT_AUTH: "0" })?.clientAuth, false);
    assert.equal(parseFabricCliArgs(["down"], { OPSLEDGER_FABRIC_CLIENT_AUTH: "true" })?.clientAuth, false);
    assert.throws(
      () => parseFabricCliArgs(["down", "--client-auth"], {}),
      new FabricCliUsageError("--client-auth applies to fabric:up only"),
    );
  });

  it("parses --consensus raft|bft (and OPSLEDGER_FABRIC_CONSENSUS), refusing bft on 2.5.x", () => {
    assert.equal(parseFabricCliArgs(["up", "--fabric", "3.1.5", "--consensus", "bft"], {})?.consensus, "BFT");
    assert.equal(parseFabricCliArgs(["up", "--fabric=3.1.5", "--consensus=BFT"], {})?.consensus, "BFT");
    assert.equal(parseFabricCliArgs(["up", "--consensus", "raft"], {})?.consensus, "etcdraft");
    assert.equal(
      parseFabricCliArgs(["up"], { OPSLEDGER_FABRIC_VERSION: "3.1.5", OPSLEDGER_FABRIC_CONSENSUS: "bft" })?.consensus,
      "BFT",
    );
    assert.equal(parseFabricCliArgs(["down"], { OPSLEDGER_FABRIC_CONSENSUS: "bft" })?.consensus, "etcdraft");
    assert.throws(
      () => parseFabricCliArgs(["up", "--consensus", "bft"], {}),
      new FabricCliUsageError(
        "--consensus bft needs --fabric 3.1.5 (SmartBFT and channel capability V3_0 are Fabric 3.x); Fabric 2.5.16 has Raft only",
      ),
    );
    assert.throws(
      () => parseFabricCliArgs(["up", "--consensus", "pbft"], {}),
      new FabricCliUsageError("--consensus must be raft or bft, got 'pbft'"),
    );
    assert.throws(
      () => parseFabricCliArgs(["down", "--consensus", "bft"], {}),
      new FabricCliUsageError("--consensus applies to fabric:up only"),
    );
  });

  it("parses --key-types by organization name or MSP id, and refuses what the network cannot make", () => {
    const env = { OPSLEDGER_FABRIC_KEY_TYPES: "org2=ecdsa-p384" };
    assert.deepEqual(
      parseFabricCliArgs(["up", "--fabric", "3.1.5", "--key-types", "org1=ed25519,Org2MSP=ecdsa-p384"], {}),
      {
        command: "up",
        version: "3.1.5",
        dir: DEFAULT_CLI_DIR,
        keyTypes: { Org1MSP: "ed25519", Org2MSP: "ecdsa-p384" },
        clientAuth: false,
        consensus: "etcdraft",
      },
    );
    assert.deepEqual(parseFabricCliArgs(["up"], env)?.keyTypes, { Org2MSP: "ecdsa-p384" });
    assert.deepEqual(parseFabricCliArgs(["down"], env)?.keyTypes, {});
    assert.throws(
      () => parseFabricCliArgs(["up", "--key-types", "org1=ed25519"], {}),
      new FabricCliUsageError("--key-types: ed25519 needs --fabric 3.1.5 (Fabric 2.5.16 has no V3_0 channels)"),
    );
    assert.throws(
      () => parseFabricCliArgs(["up", "--key-types", "org3=ed25519"], {}),
      new FabricCliUsageError("--key-types: 'org3' is not an organization; use org1 or org2"),
    );
    assert.throws(
      () => parseFabricCliArgs(["up", "--key-types", "org1=p384"], {}),
      new FabricCliUsageError(
        "--key-types: 'p384' is not a key type (for org1); use ecdsa-p256, ecdsa-p384, ed25519, as in org1=ed25519",
      ),
    );
    assert.throws(
      () => parseFabricCliArgs(["down", "--key-types", "org1=ed25519"], {}),
      new FabricCliUsageError("--key-types applies to fabric:up only"),
    );
  });
});
