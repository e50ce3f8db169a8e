/**
 * The service behind the run's shared Fabric networks (test/helpers/fabric-network-fixture.ts): an HTTP server on
 * 127.0.0.1 in mocha's main process that starts a named network the first time a worker asks for it and answers every
 * worker that asks, then or later, with the same network.json (or the same start failure). A request waits for the
 * start it needs: the answer is the event, so no worker polls. Pulumi-free and Fabric-free: the fixture hands it the
 * function that starts a network, and test/unit/fabric-network/shared-network-service.test.ts hands it a fake.
 *
 *   GET /networks/<name>   200 {"networkFile": "..."} | 500 {"error": "..."} | 404 {"error": "no shared network ..."}
 */
import * as http from "node:http";
import type { AddressInfo } from "node:net";

/** What the service keeps of a started network: its description file, and how to stop it. */
export interface ServedNetwork {
  readonly networkFile: string;
  close(): Promise<void>;
}

export interface NetworkService {
  /** http://127.0.0.1:<port>, for the workers (fabric-network-fixture.ts's SHARED_NETWORKS_ENV). */
  readonly url: string;
  /** The names asked for so far, in the order of their first request. */
  started(): string[];
  /** Stops answering, then closes every network it started (waiting for starts still running). */
  close(): Promise<void>;
}

/** Serves the networks `names` lists, each started by `start(name)` on its first request. */
export async function startNetworkService(
  names: readonly string[],
  start: (name: string) => Promise<ServedNetwork>,
): Promise<NetworkService> {
  const networks = new Map<string, Promise<ServedNetwork>>();
  const networkOf = (name: string): Promise<ServedNetwork> => {
    let network = networks.get(name);
    if (network === undefined) {
      network = start(name);
      // Answered to every asker; the rejection is never unhandled.
      network.catch(() => undefined);
      networks.set(name, network);
    }
    return network;
  };
  const answer = (res: http.ServerResponse, status: number, body: object): void => {
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  };

  const server = http.createServer((req, res) => {
    const match = /^\/networks\/([^/?]+)$/.exec(req.url ?? "");
    const name = match?.[1] === undefined ? undefined : decodeURIComponent(match[1]);
    if (req.method !== "GET" || name === undefined || !names.includes(name)) {
      answer(res, 404, { error: `no shared network ${JSON.stringify(name ?? req.url)}; known: ${names.join(", ")}` });
      return;
    }
    networkOf(name).then(
      (network) => {
        answer(res, 200, { networkFile: network.networkFile });
      },
      (error: unknown) => {
        answer(res, 500, { error: error instanceof Error ? error.message : String(error) });
      },
    );
  });
  // A request waits as long as its network takes to start (the start has its own timeout).
  server.requestTimeout = 0;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${String(port)}`,
    started: () => [...networks.keys()],
    close: async () => {
      await new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      });
      const settled = await Promise.allSettled(networks.values());
      networks.clear();
      const started = settled.flatMap((s) => (s.status === "fulfilled" ? [s.value] : []));
      await Promise.all(started.map((network) => network.close()));
    },
  };
}

/**
 * Asks the service at `url` for the network `name`, waiting for its start; rejects with the start's own error, or
 * after `timeoutMs` without an answer.
 */
export function requestNetwork(url: string, name: string, timeoutMs: number): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    const req = http.get(`${url}/networks/${encodeURIComponent(name)}`, { agent: false }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("error", reject);
      res.on("end", () => {
        clearTimeout(timer);
        let parsed: { networkFile?: string; error?: string };
        try {
          parsed = JSON.parse(body) as typeof parsed;
        } catch {
          reject(new Error(`the shared network service answered ${String(res.statusCode)}: ${body}`));
          return;
        }
        if (res.statusCode === 200 && parsed.networkFile !== undefined) resolve(parsed.networkFile);
        else reject(new Error(`shared Fabric network "${name}": ${parsed.error ?? body}`));
      });
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`shared Fabric network "${name}": no answer from ${url} in ${String(timeoutMs)} ms`));
    }, timeoutMs);
    req.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
