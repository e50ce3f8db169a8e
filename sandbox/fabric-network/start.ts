/**
 * startFabricNetwork(): a real Fabric network from a release's binaries, as native processes on 127.0.0.1 (no
 * Docker), in the order an operator brings one up (fabric-samples' test-network-nano-bash is the reference topology):
 *
 *  1. crypto material (cryptogen): an orderer organization and Org1MSP/Org2MSP, NodeOUs on; TLS certificates for
 *     127.0.0.1; a peer organization of another key type than P-256 as org-keys.ts says;
 *  2. the channel's genesis block (configtxgen; no system channel);
 *  3. the orderers (three etcdraft, or four BFT with `consensus: "BFT"`) and one peer per organization, each with its
 *     generated configuration, waited on until their operations endpoints answer /healthz;
 *  4. every orderer joins the channel (osnadmin, mutual TLS) and reports it active as a consenter; a leader (Raft's,
 *     or the BFT leader every orderer names);
 *  5. every peer joins the channel;
 *  6. the `assets` chaincode as a service: per organization a ccaas package and a chaincode server; installed on
 *     both peers, approved by both organizations and committed with AND('Org1MSP.peer','Org2MSP.peer'), waited on
 *     with `peer lifecycle chaincode querycommitted` (transactions ordered and committed: the ordering works);
 *  7. an endorsement through each organization's gateway that both organizations sign (discovery works both ways).
 * Org3MSP is prepared beside them (crypto, its peer's and chaincode server's configuration) but neither started nor in
 * the channel: joining-org.ts.
 *
 * With `clientAuth`, the peers require client TLS certificates (mutual TLS; node-config.ts): the admin CLI and the
 * readiness probe present their user's cryptogen TLS pair.
 *
 * Every wait is on a real signal. If any step fails, everything started is stopped, the folder is removed (kept when
 * OPSLEDGER_FABRIC_KEEP_FAILED=1) and the error names the step, with the log tail of a process that died.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { AdminTools } from "./admin-tools";
import { CHANNEL_PROFILE, configtxYaml, cryptoConfigYaml } from "./channel-config";
import { deployChaincode } from "./deploy-chaincode";
import { ensureFabric } from "./fabric-home";
import { endorseThroughGateway } from "./gateway-probe";
import { openFabricNetwork, readOrganization } from "./handle";
import { reissueMsp } from "./org-keys";
import { readNetworkFile, stopNetwork, updateProcess, writeNetworkFile } from "./network-file";
import { ordererYaml } from "./node-config";
import { freePorts } from "./ports";
import { logTail, startDetached, stopRecorded } from "./processes";
import { waitForChannelLeader } from "./consensus";
import { prepareJoiningOrganization } from "./joining-org";
import { preparePeerNode } from "./peer-node";
import { healthz, portAnswers, waitFor } from "./readiness";
import { resolveOptions } from "./start-options";
import type { Resolved } from "./start-options";
import { NetworkLayout, ORDERER_MSP_ID, PEER_ORGS, ordererName, peerName } from "./topology";
import * as T from "./types";
import { startWatchdog } from "./watchdog";

/** Creates the network folder: the one given (missing or empty), or a fresh one under the OS temp dir. */
function prepareDir(dir: string | undefined): string {
  if (dir === undefined) return mkdtempSync(join(tmpdir(), "opsledger-fabric-"));
  const abs = resolve(dir);
  if (existsSync(abs) && readdirSync(abs).length > 0)
    throw new Error(`${abs} is not empty: give a new folder, or stop the network there first (npm run fabric:down)`);
  mkdirSync(abs, { recursive: true });
  return abs;
}

/** How often a start is tried again when a node finds one of its ports taken. */
export const PORT_CONFLICT_RETRIES = 2;

/**
 * Starts a network (see the module comment). The ports are drawn before any node binds them (the genesis block names
 * them), so another program (another network starting at the same moment, say) may take one in between; the node
 * that loses exits with "address already in use", and the start is tried again with other ports and a new folder.
 */
export async function startFabricNetwork(options: T.FabricNetworkOptions = {}): Promise<T.FabricNetwork> {
  const o = resolveOptions(options);
  const fabricHome = resolve(o.fabricHome ?? (await ensureFabric(o.version)));
  for (let attempt = 0; ; attempt++) {
    try {
      return await startOnce(o, fabricHome);
    } catch (e) {
      const conflict = e instanceof Error && /address already in use/.test(e.message);
      if (!conflict || attempt >= PORT_CONFLICT_RETRIES) throw e;
      o.log("a port was taken by another program: starting again with other ports");
    }
  }
}

async function startOnce(o: Resolved, fabricHome: string): Promise<T.FabricNetwork> {
  const dir = prepareDir(o.dir);
  const layout = new NetworkLayout(dir);
  const deadline = Date.now() + o.startTimeoutMs;
  const timeoutMs = (): number => Math.max(1000, deadline - Date.now());
  const tools = new AdminTools(fabricHome);
  const exits = new Map<string, string>();
  let step = "preparing the folder";
  let watchdog: T.FabricProcessRecord | null = null;
  const abort = (): string | undefined => {
    const [name, how] = exits.entries().next().value ?? [];
    return name === undefined
      ? undefined
      : `${name} exited (${how}); the end of ${layout.log(name)}:\n${logTail(layout.log(name))}`;
  };
  const start = (record: T.FabricProcessRecord): void => {
    const started = startDetached(record);
    void started.exited.then((how) => exits.set(record.name, String(how)));
    updateProcess(dir, record.name, (r) => ({ ...r, pid: started.pid }));
  };
  try {
    mkdirSync(layout.logs, { recursive: true });
    step = "generating crypto material (cryptogen)";
    o.log(step);
    writeFileSync(layout.cryptoConfig, cryptoConfigYaml(o.keyTypes, o.ordererHosts));
    await tools.cryptogen(layout.cryptoConfig, layout.crypto);
    for (const org of PEER_ORGS) if (o.keyTypes.get(org.mspId) === "ecdsa-p384") reissueMsp(layout, org, "ecdsa-p384");

    // listen, admin, operations per orderer; listen, chaincode, operations per peer; one per chaincode server.
    const ports = await freePorts(o.ordererHosts.length * 3 + PEER_ORGS.length * 4);
    const take = (): number => ports.shift() ?? 0;
    const ordererPorts = o.ordererHosts.map(() => ({ listen: take(), admin: take(), operations: take() }));
    const peerPorts = PEER_ORGS.map(() => ({ listen: take(), chaincode: take(), operations: take() }));
    const chaincodePorts = PEER_ORGS.map(() => take());

    step = "writing the channel's genesis block (configtxgen)";
    o.log(step);
    mkdirSync(layout.configtxDir, { recursive: true });
    mkdirSync(join(layout.channelBlock, ".."), { recursive: true });
    const channelPorts = { orderers: ordererPorts.map((p) => p.listen), peers: peerPorts.map((p) => p.listen) };
    writeFileSync(join(layout.configtxDir, "configtx.yaml"), configtxYaml(layout, channelPorts, o));
    await tools.configtxgen(layout.configtxDir, CHANNEL_PROFILE, T.FABRIC_NETWORK_CHANNEL, layout.channelBlock);

    const env = (nodeDir: string): Record<string, string> => ({
      FABRIC_CFG_PATH: nodeDir,
      FABRIC_LOGGING_SPEC: o.logSpec,
    });
    const orderers: T.FabricOrderer[] = [];
    const processes: T.FabricProcessRecord[] = [];
    o.ordererHosts.forEach((host, i) => {
      const name = ordererName(host);
      const p = ordererPorts[i] ?? { listen: 0, admin: 0, operations: 0 };
      const nodeDir = layout.node(name);
      mkdirSync(nodeDir, { recursive: true });
      const tls = layout.ordererTls(name);
      const adminClientCa = layout.ordererTlsCa();
      const ordererConfig = {
        fabricHome,
        nodeDir,
        mspDir: layout.ordererMsp(name),
        mspId: ORDERER_MSP_ID,
        tls,
        adminClientCa,
        consensus: o.consensus,
        ports: p,
      };
      writeFileSync(join(nodeDir, "orderer.yaml"), ordererYaml(ordererConfig));
      const command = [join(fabricHome, "bin", "orderer")];
      processes.push({
        name,
        role: "orderer",
        mspId: ORDERER_MSP_ID,
        pid: null,
        ports: p,
        log: layout.log(name),
        command,
        cwd: nodeDir,
        env: env(nodeDir),
      });
      const operationsUrl = `https://127.0.0.1:${p.operations}`;
      orderers.push({
        name,
        address: `127.0.0.1:${p.listen}`,
        adminAddress: `127.0.0.1:${p.admin}`,
        operationsUrl,
        tlsServerName: name,
        ...(o.consensus === "BFT" ? { consenterId: i + 1 } : {}),
      });
    });
    const organizations: T.FabricOrganizationRecord[] = PEER_ORGS.map((org, i) => {
      const peer = preparePeerNode({
        layout,
        fabricHome,
        org,
        ports: peerPorts[i] ?? { listen: 0, chaincode: 0, operations: 0 },
        logSpec: o.logSpec,
        keyType: o.keyTypes.get(org.mspId) ?? "ecdsa-p256",
        ...(o.clientAuth ? { clientRootCAs: PEER_ORGS.map((other) => layout.orgTlsCa(other)) } : {}),
      });
      processes.push(peer.process);
      return peer.organization;
    });
    step = "preparing Org3MSP, the organization that joins later";
    const joining = await prepareJoiningOrganization({
      tools,
      layout,
      fabricHome,
      logSpec: o.logSpec,
      clientAuth: o.clientAuth,
    });
    const description: T.FabricNetworkDescription = {
      schema: 1,
      version: o.version,
      dir,
      fabricHome,
      owner: null,
      channel: T.FABRIC_NETWORK_CHANNEL,
      chaincode: {
        name: T.FABRIC_NETWORK_CHAINCODE,
        version: T.FABRIC_NETWORK_CHAINCODE_VERSION,
        sequence: 1,
        endorsementPolicy: T.FABRIC_NETWORK_ENDORSEMENT_POLICY,
        packageIds: {},
      },
      batchTimeoutMs: o.batchTimeoutMs,
      consensus: o.consensus,
      organizations,
      orderers,
      ordererTlsRootCertPath: layout.ordererTlsCa(),
      ordererAdminTls: { certPath: layout.ordererAdminTls().cert, keyPath: layout.ordererAdminTls().key },
      processes,
      joiningOrganizations: [joining],
    };
    writeNetworkFile(description);
    // Even a persistent network is guarded while it starts (Ctrl+C on fabric:up leaves nothing behind); it is
    // released once it is up.
    watchdog = startWatchdog(dir, layout.log("watchdog"));
    writeNetworkFile({ ...description, owner: { pid: process.pid, watchdog } });

    step = "starting the orderers and peers";
    o.log(`${step} (Fabric ${o.version})`);
    for (const record of processes) start(record);
    const ordererCa = layout.ordererTlsCa();
    const ordererCaPem = readFileSync(ordererCa, "utf8");
    await Promise.all([
      ...orderers.map(async (ord, i) => {
        await waitFor(`${ord.name} /healthz`, () => healthz(ord.operationsUrl, ordererCaPem), {
          timeoutMs: timeoutMs(),
          abort,
        });
        // The admin endpoint (channel participation API) comes up after the operations endpoint.
        const admin = ordererPorts[i]?.admin ?? 0;
        await waitFor(`${ord.name}'s admin endpoint`, async () => ((await portAnswers(admin)) ? true : undefined), {
          timeoutMs: timeoutMs(),
          abort,
        });
      }),
      ...PEER_ORGS.map(async (org, i) => {
        const url = `https://127.0.0.1:${peerPorts[i]?.operations ?? 0}`;
        const ca = readFileSync(layout.orgTlsCa(org), "utf8");
        await waitFor(`${peerName(org)} /healthz`, () => healthz(url, ca), { timeoutMs: timeoutMs(), abort });
        // The operations endpoint comes up before the peer's gRPC listener (`peer channel join` needs the latter).
        const listen = peerPorts[i]?.listen ?? 0;
        await waitFor(`${peerName(org)}'s endpoint`, async () => ((await portAnswers(listen)) ? true : undefined), {
          timeoutMs: timeoutMs(),
          abort,
        });
      }),
    ]);

    step = "joining the orderers to the channel (osnadmin)";
    o.log(step);
    const adminTls = layout.ordererAdminTls();
    const metricsClient = { certPem: readFileSync(adminTls.cert, "utf8"), keyPem: readFileSync(adminTls.key, "utf8") };
    const channel = T.FABRIC_NETWORK_CHANNEL;
    await Promise.all(
      orderers.map((ord) => tools.joinOrderer(ord.adminAddress, ordererCa, adminTls, channel, layout.channelBlock)),
    );
    await Promise.all(
      orderers.map((ord) =>
        waitFor(
          `${ord.name} to be an active consenter of ${channel}`,
          async () => {
            const c = await tools.ordererChannel(ord.adminAddress, ordererCa, adminTls, channel);
            if (c.status === "active" && c.consensusRelation === "consenter") return true;
            throw new Error(`status ${c.status}, relation ${c.consensusRelation}`);
          },
          { timeoutMs: timeoutMs(), abort },
        ),
      ),
    );
    step = o.consensus === "BFT" ? "waiting for a BFT leader" : "waiting for a Raft leader";
    await waitForChannelLeader(o.consensus, orderers, ordererCaPem, metricsClient, channel, {
      timeoutMs: timeoutMs(),
      abort,
    });

    step = "joining the peers to the channel";
    o.log(step);
    const admins = PEER_ORGS.map((org, i) => ({
      mspId: org.mspId,
      mspDir: layout.user(org, "Admin").mspDir,
      peerAddress: `127.0.0.1:${peerPorts[i]?.listen ?? 0}`,
      peerTlsCa: layout.orgTlsCa(org),
      configDir: layout.node(peerName(org)),
      tls: { cert: layout.user(org, "Admin").tlsCertificatePath, key: layout.user(org, "Admin").tlsPrivateKeyPath },
    }));
    // One after the other: a peer's first gossip handshake with the other organization's anchor peer fails while that
    // peer has not joined the channel ("Could not acquire policy manager"), and gossip retries only after
    // peer.gossip.reconnectInterval (25 s). Joined in turn, the second peer's handshake with the first succeeds.
    for (const admin of admins) await tools.peer(["channel", "join", "-b", layout.channelBlock], admin);

    step = "deploying the assets chaincode (ccaas)";
    o.log(step);
    const ordererTarget = { address: orderers[0]?.address ?? "", ca: ordererCa };
    const packageIds = await deployChaincode({
      tools,
      layout,
      admins,
      chaincodePorts,
      orderer: ordererTarget,
      channel,
      timeoutMs,
      abort,
      start,
    });

    step = "waiting for both gateways to gather endorsements from both organizations";
    o.log(step);
    const current = readNetworkFile(dir);
    writeNetworkFile({ ...current, chaincode: { ...current.chaincode, packageIds } });
    for (const record of organizations) {
      const org = readOrganization(record);
      await waitFor(
        `${org.peerName}'s gateway to endorse with Org1MSP and Org2MSP`,
        async () => {
          const endorsers = await endorseThroughGateway(org, channel, T.FABRIC_NETWORK_CHAINCODE);
          if (endorsers.join(",") === "Org1MSP,Org2MSP") return true;
          throw new Error(`endorsed by ${endorsers.join(", ")} only`);
        },
        { timeoutMs: timeoutMs(), abort },
      );
    }
    if (o.persistent) {
      await stopRecorded(watchdog, "SIGKILL");
      writeNetworkFile({ ...readNetworkFile(dir), owner: null });
    }
    o.log(`Fabric ${o.version} network ready in ${dir}`);
    return openFabricNetwork(dir, { owned: true });
  } catch (e) {
    const keep = process.env["OPSLEDGER_FABRIC_KEEP_FAILED"] === "1";
    try {
      if (watchdog !== null) await stopRecorded(watchdog, "SIGKILL");
      if (existsSync(layout.networkFile)) await stopNetwork(dir, { remove: !keep, signal: "SIGKILL" });
      else if (!keep) rmSync(dir, { recursive: true, force: true });
    } catch {
      // The original error matters more; leftovers are named in the message below.
    }
    const where = keep ? ` (folder kept: ${dir})` : "";
    throw new Error(
      `starting the Fabric ${o.version} network failed while ${step}${where}: ${e instanceof Error ? e.message : String(e)}`,
      { cause: e },
    );
  }
}
