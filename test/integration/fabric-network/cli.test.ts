import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { peer } from "@hyperledger/fabric-protos";
import { openFabricNetwork, readNetworkFile, stopNetwork } from "../../../sandbox/fabric-network";
import type { FabricNetworkDescription, FabricProcessRecord } from "../../../sandbox/fabric-network";
import { isRunning } from "../../../sandbox/fabric-network/processes";
import { healthy, portAnswers } from "../../../sandbox/fabric-network/readiness";
import { NETWORK_START_TIMEOUT_MS, submit, waitForBlock } from "../../helpers/fabric-network-client";

const CLI = join(__dirname, "../../../sandbox/fabric-network/cli.js");

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { timeout: NETWORK_START_TIMEOUT_MS }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
    });
  });
}

/** Whether a node serves now: a peer's or orderer's /healthz answers 200, a chaincode server accepts connections. */
async function serves(description: FabricNetworkDescription, p: FabricProcessRecord): Promise<boolean> {
  if (p.role === "chaincode") return portAnswers(p.ports["listen"] ?? 0);
  const ca =
    p.role === "orderer"
      ? description.ordererTlsRootCertPath
      : (description.organizations.find((o) => o.mspId === p.mspId)?.tlsRootCertPath ?? "");
  return healthy(`https://127.0.0.1:${String(p.ports["operations"] ?? 0)}`, readFileSync(ca, "utf8"));
}

describe("npm run fabric:up / fabric:down (sandbox/fabric-network/cli.ts)", () => {
  let parent: string;
  before(() => {
    parent = mkdtempSync(join(tmpdir(), "opsledger-fabric-cli-"));
  });
  after(async function () {
    this.timeout(60_000);
    // A fabric:up network has no watchdog: if an assertion failed before fabric:down, stop it here.
    if (existsSync(join(parent, "net", "network.json"))) await stopNetwork(join(parent, "net"));
    rmSync(parent, { recursive: true, force: true });
  });

  it("leaves a network running after up, prints its settings, and down stops exactly its processes", async function () {
    this.timeout(NETWORK_START_TIMEOUT_MS + 60_000);
    const dir = join(parent, "net");
    const up = await cli("up", "--dir", dir);
    assert.equal(up.code, 0, up.stderr);

    const description = readNetworkFile(dir);
    assert.equal(description.owner, null, "a fabric:up network belongs to no process");
    // The command has exited (execFile reported it). A node bound to it would die with it, or at its next write or
    // request: so the nodes serve a transaction first — endorsed by both organizations' peers and chaincode servers,
    // ordered, committed by both peers — and every one of the seven then still runs its recorded command and answers.
    const network = openFabricNetwork(dir); // not owned: close() only forgets the handle
    try {
      const created = await submit(network, "Org1MSP", "CreateAsset", ["outlived-fabric-up", "yes"]);
      assert.equal(created.status.code, peer.TxValidationCode.VALID);
      await waitForBlock(network, "Org2MSP", created.status.blockNumber);
    } finally {
      await network.close();
    }
    assert.equal(description.processes.length, 7);
    assert.deepEqual(
      description.processes.filter((p) => !isRunning(p)).map((p) => p.name),
      [],
      "every node outlived the command",
    );
    const answering = await Promise.all(description.processes.map((p) => serves(description, p)));
    assert.deepEqual(
      description.processes.filter((_, i) => !answering[i]).map((p) => p.name),
      [],
      "every node still answers after serving a transaction without the command",
    );
    for (const org of description.organizations) {
      assert.ok(
        up.stdout.includes(`${org.mspId} gateway ${org.gatewayAddress} (TLS; server name ${org.tlsServerName})`),
      );
      assert.ok(up.stdout.includes(org.client.certificatePath) && up.stdout.includes(org.client.privateKeyPath));
      assert.ok(up.stdout.includes(`root CA (trustedRootCertificates.${org.mspId}): ${org.caCertificatePath}`));
    }
    for (const o of description.orderers) assert.ok(up.stdout.includes(`${o.address}  admin ${o.adminAddress}`));
    assert.ok(
      up.stdout.includes(`pulumi config set ledgerGateway ${description.organizations[0]?.gatewayAddress ?? "?"}`),
    );

    const again = await cli("up", "--dir", dir);
    assert.equal(again.code, 1);
    assert.match(
      again.stderr,
      /is not empty: give a new folder, or stop the network there first \(npm run fabric:down\)/,
    );

    const down = await cli("down", "--dir", dir);
    assert.equal(down.code, 0, down.stderr);
    assert.deepEqual(down.stdout.trim().split("\n"), [
      ...["assets.org1", "assets.org2", "peer0.org1", "peer0.org2"].map((n) => `${n}.example.com: stopped`),
      ...["orderer0", "orderer1", "orderer2"].map((n) => `${n}.example.com: stopped`),
      `removed ${dir}`,
    ]);
    assert.deepEqual(
      description.processes.filter((p) => isRunning(p)).map((p) => p.name),
      [],
    );
    assert.equal(existsSync(dir), false);

    const nothing = await cli("down", "--dir", dir);
    assert.equal(nothing.code, 1);
    assert.match(nothing.stderr, /no network to stop in/);
  });
});
