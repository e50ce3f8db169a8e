/**
 * Waiting on real signals: a port that accepts connections, an operations endpoint that answers /healthz, a Prometheus
 * gauge, a command's answer. `waitFor` polls a probe (with a short, growing pause between tries: these are other
 * processes' states, which send no events) until it yields a value, fails fast when `abort` reports a reason (a
 * process died), and otherwise times out with the last failure in the message.
 */
import { request } from "node:https";
import { connect } from "node:net";

export interface WaitOptions {
  readonly timeoutMs: number;
  /** A reason to stop waiting at once (e.g. "peer0 exited with 2: <log tail>"), or undefined to keep waiting. */
  readonly abort?: () => string | undefined;
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Polls `probe` until it returns a value other than undefined. */
export async function waitFor<T>(what: string, probe: () => Promise<T | undefined>, options: WaitOptions): Promise<T> {
  const deadline = Date.now() + options.timeoutMs;
  let last = "no answer yet";
  let pause = 50;
  for (;;) {
    const reason = options.abort?.();
    if (reason !== undefined) throw new Error(`while waiting for ${what}: ${reason}`);
    try {
      const value = await probe();
      if (value !== undefined) return value;
    } catch (e) {
      last = message(e);
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${options.timeoutMs} ms waiting for ${what}: ${last}`);
    await delay(pause);
    pause = Math.min(pause * 1.5, 500);
  }
}

/** Resolves true when 127.0.0.1:`port` accepts a TCP connection, false when it refuses. */
export function portAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port });
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** A TLS client certificate and key (PEM). */
export interface ClientTls {
  readonly certPem: string;
  readonly keyPem: string;
}

/** GET over TLS trusting `caPem`, presenting `client` when given; resolves with the status and body. */
export function httpsGet(
  url: string,
  caPem: string,
  client?: ClientTls,
  timeoutMs = 5000,
): Promise<{ status: number; body: string }> {
  const tls = client === undefined ? {} : { cert: client.certPem, key: client.keyPem };
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "GET", ca: caPem, ...tls, timeout: timeoutMs }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => {
        resolve({ status: res.statusCode ?? 0, body });
      });
      res.on("error", reject);
    });
    req.on("timeout", () => req.destroy(new Error(`GET ${url} timed out after ${timeoutMs} ms`)));
    req.on("error", reject);
    req.end();
  });
}

/** The value of a Prometheus gauge with exactly these labels in a /metrics text, or undefined. */
export function gaugeValue(
  metrics: string,
  name: string,
  labels: Readonly<Record<string, string>>,
): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(",");
  for (const line of metrics.split("\n")) {
    if (!line.startsWith(name)) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{([^}]*)\})?\s+(\S+)/.exec(line);
    if (m?.[1] !== name) continue;
    const have = (m[2] ?? "")
      .split(",")
      .filter((p) => p !== "")
      .sort()
      .join(",");
    if (have === wanted) return Number(m[3]);
  }
  return undefined;
}

/**
 * Whether an orderer's operations endpoint reports it Raft leader of `channel` (consensus_etcdraft_is_leader). With
 * TLS on, Fabric serves /metrics only to a client presenting a certificate its ClientRootCAs trust.
 */
export async function isRaftLeader(
  operationsUrl: string,
  caPem: string,
  client: ClientTls,
  channel: string,
): Promise<boolean> {
  const { status, body } = await httpsGet(`${operationsUrl}/metrics`, caPem, client);
  if (status !== 200) throw new Error(`${operationsUrl}/metrics answered ${status}`);
  return gaugeValue(body, "consensus_etcdraft_is_leader", { channel }) === 1;
}

/**
 * The consenter ID an orderer's operations endpoint names as BFT leader of `channel`
 * (consensus_smartbft_view_leader_id), or undefined while it names none.
 */
export async function bftLeaderId(
  operationsUrl: string,
  caPem: string,
  client: ClientTls,
  channel: string,
): Promise<number | undefined> {
  const { status, body } = await httpsGet(`${operationsUrl}/metrics`, caPem, client);
  if (status !== 200) throw new Error(`${operationsUrl}/metrics answered ${status}`);
  const id = gaugeValue(body, "consensus_smartbft_view_leader_id", { channel });
  return id === undefined || id <= 0 ? undefined : id;
}

/** Resolves true when a node's operations endpoint answers /healthz with 200 (Fabric's own health checks pass). */
export async function healthz(operationsUrl: string, caPem: string): Promise<true> {
  const { status, body } = await httpsGet(`${operationsUrl}/healthz`, caPem);
  if (status !== 200) throw new Error(`${operationsUrl}/healthz answered ${status}: ${body}`);
  return true;
}

/** Whether /healthz answers 200 (false for any failure). */
export function healthy(operationsUrl: string, caPem: string): Promise<boolean> {
  return healthz(operationsUrl, caPem).catch(() => false);
}
