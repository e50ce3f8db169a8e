/**
 * The FabricNetwork handle over a network.json. The process that started the network owns it (close() stops it);
 * any other process (a mocha worker, a script) opens the same file to connect, to stop/start/restart a given node or
 * to find the ordering leader (Raft's or BFT's), and its close() only forgets the handle. Process operations read network.json afresh and
 * write the new pid back, so a restart done by one process is seen by the others (one process at a time should
 * change a given network's processes).
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { networkFilePath, readNetworkFile, stopNetwork, updateProcess } from "./network-file";
import { isRunning, logTail, startDetached, stopRecorded } from "./processes";
import { bftLeaderId, healthy, isRaftLeader, portAnswers, waitFor } from "./readiness";
import type * as T from "./types";

/** How long startProcess waits for a restarted node to answer. */
export const DEFAULT_PROCESS_START_TIMEOUT_MS = 90_000;

function read(path: string): string {
  return readFileSync(path, "utf8");
}

/** An organization with its certificates and keys read from the network's folder. */
export function readOrganization(r: T.FabricOrganizationRecord): T.FabricOrganization {
  const identity = (f: T.FabricIdentityFiles): T.FabricIdentity => ({
    ...f,
    certificatePem: read(f.certificatePath),
    privateKeyPem: read(f.privateKeyPath),
    tlsCertificatePem: read(f.tlsCertificatePath),
    tlsPrivateKeyPem: read(f.tlsPrivateKeyPath),
  });
  return {
    ...r,
    tlsRootCertPem: read(r.tlsRootCertPath),
    caCertificatePem: read(r.caCertificatePath),
    client: identity(r.client),
    admin: identity(r.admin),
  };
}

export interface OpenOptions {
  /** This process started the network: close() stops it and removes its folder. @default false */
  readonly owned?: boolean;
}

/** A handle on the network described by `dirOrFile` (its folder or its network.json). */
export function openFabricNetwork(dirOrFile: string, options: OpenOptions = {}): T.FabricNetwork {
  const file = networkFilePath(resolve(dirOrFile));
  const description = readNetworkFile(file);
  const organizations = description.organizations.map(readOrganization);
  const joiningOrganizations = (description.joiningOrganizations ?? []).map((r) => ({ ...r, ...readOrganization(r) }));
  const ordererCa = read(description.ordererTlsRootCertPath);
  const metricsClient = {
    certPem: read(description.ordererAdminTls.certPath),
    keyPem: read(description.ordererAdminTls.keyPath),
  };
  let closed = false;

  const record = (name: string): T.FabricProcessRecord => {
    const processes = readNetworkFile(file).processes;
    const found = processes.find((p) => p.name === name);
    if (found === undefined)
      throw new Error(`no process named '${name}' in ${file}; known: ${processes.map((p) => p.name).join(", ")}`);
    return found;
  };
  const tlsCaOf = (r: T.FabricProcessRecord): string =>
    r.role === "orderer"
      ? ordererCa
      : ([...organizations, ...joiningOrganizations].find((o) => o.mspId === r.mspId)?.tlsRootCertPem ?? ordererCa);
  const answers = async (r: T.FabricProcessRecord): Promise<boolean> =>
    r.role === "chaincode"
      ? portAnswers(r.ports["listen"] ?? 0)
      : healthy(`https://127.0.0.1:${r.ports["operations"] ?? 0}`, tlsCaOf(r));

  const stopProcess = async (name: string, stop: T.StopProcessOptions = {}): Promise<void> => {
    const r = record(name);
    await stopRecorded(r, stop.signal ?? "SIGTERM");
    updateProcess(file, name, (p) => ({ ...p, pid: null }));
  };
  const startProcess = async (name: string): Promise<void> => {
    const r = record(name);
    if (isRunning(r)) throw new Error(`${name} is already running (pid ${String(r.pid)}); stop it first`);
    const started = startDetached(r);
    let exit: string | undefined;
    void started.exited.then((how) => (exit = String(how)));
    updateProcess(file, name, (p) => ({ ...p, pid: started.pid }));
    await waitFor(`${name} to answer again`, async () => ((await answers(r)) ? true : undefined), {
      timeoutMs: DEFAULT_PROCESS_START_TIMEOUT_MS,
      abort: () => (exit === undefined ? undefined : `${name} exited (${exit}):\n${logTail(r.log)}`),
    });
  };
  const raftLeader = async (): Promise<string | undefined> => {
    const current = readNetworkFile(file).processes.filter((p) => p.role === "orderer" && isRunning(p));
    const leaders = await Promise.all(
      current.map(async (p) => {
        const orderer = description.orderers.find((o) => o.name === p.name);
        if (orderer === undefined) return false;
        return isRaftLeader(orderer.operationsUrl, ordererCa, metricsClient, description.channel).catch(() => false);
      }),
    );
    const names = current.filter((_, i) => leaders[i]).map((p) => p.name);
    return names.length === 1 ? names[0] : undefined;
  };
  const consensus = description.consensus ?? "etcdraft";
  /** The BFT leader every running orderer names, if that orderer runs. */
  const bftLeader = async (): Promise<string | undefined> => {
    const running = readNetworkFile(file).processes.filter((p) => p.role === "orderer" && isRunning(p));
    const ids = await Promise.all(
      running.map(async (p) => {
        const orderer = description.orderers.find((o) => o.name === p.name);
        if (orderer === undefined) return undefined;
        return bftLeaderId(orderer.operationsUrl, ordererCa, metricsClient, description.channel).catch(() => undefined);
      }),
    );
    const first = ids[0];
    if (first === undefined || !ids.every((id) => id === first)) return undefined;
    const name = description.orderers.find((o) => o.consenterId === first)?.name;
    return running.some((p) => p.name === name) ? name : undefined;
  };
  const leader = (): Promise<string | undefined> => (consensus === "BFT" ? bftLeader() : raftLeader());
  const waitForLeader =
    (kind: string, find: () => Promise<string | undefined>) =>
    (wait: { readonly except?: string; readonly timeoutMs?: number } = {}): Promise<string> =>
      waitFor(
        wait.except === undefined ? `a ${kind} leader` : `a ${kind} leader other than ${wait.except}`,
        async () => {
          const found = await find();
          return found !== undefined && found !== wait.except ? found : undefined;
        },
        { timeoutMs: wait.timeoutMs ?? 60_000 },
      );

  return {
    version: description.version,
    dir: description.dir,
    networkFile: file,
    channel: description.channel,
    chaincode: description.chaincode.name,
    endorsementPolicy: description.chaincode.endorsementPolicy,
    consensus,
    organizations,
    joiningOrganizations,
    orderers: description.orderers,
    caCertificates: Object.fromEntries(organizations.map((o) => [o.mspId, o.caCertificatePem])),
    organization(mspId) {
      const org = organizations.find((o) => o.mspId === mspId);
      if (org === undefined)
        throw new Error(`no organization '${mspId}'; known: ${organizations.map((o) => o.mspId).join(", ")}`);
      return org;
    },
    processes: () => readNetworkFile(file).processes,
    stopProcess,
    startProcess,
    async restartProcess(name, stop) {
      await stopProcess(name, stop);
      await startProcess(name);
    },
    raftLeader,
    waitForRaftLeader: waitForLeader("Raft", raftLeader),
    leader,
    waitForLeader: waitForLeader(consensus === "BFT" ? "BFT" : "Raft", leader),
    async close() {
      if (closed) return;
      closed = true;
      if (options.owned !== true) return;
      const watchdog = readNetworkFile(file).owner?.watchdog;
      // The watchdog first: it must not race us to the folder once it sees our pipe close.
      if (watchdog) await stopRecorded(watchdog, "SIGKILL");
      await stopNetwork(file);
    },
  };
}
