/**
 * The cost of the Google client over bare axios: the same firewallPolicies.get requests, at the same concurrency,
 * against one in-process sandbox. The client adds validation, URL building from the endpoint table, the token source,
 * the per-service limiter, the per-attempt timeout signal and error parsing; bare axios does one GET with a header.
 * Prints nothing; the caller prints the result.
 */
import axios from "axios";
import { clearGoogleAuthCache, createGoogleClient, resolveGoogleSettings } from "../provider/google";
import { fixture, startGoogleSandbox } from "../sandbox/google";

export interface ClientOverheadOptions {
  /** Requests per side. @default DEFAULT_BENCH_REQUESTS */
  requests: number;
  /** Requests in flight at once, on both sides. @default DEFAULT_BENCH_CONCURRENCY */
  concurrency: number;
}

export interface ClientOverheadResult {
  name: string;
  /** Wall time of all requests through the client. */
  clientMs: number;
  /** Wall time of the same requests with bare axios. */
  axiosMs: number;
  /** clientMs / axiosMs. */
  ratio: number;
}

export const DEFAULT_BENCH_REQUESTS = 2000;
export const DEFAULT_BENCH_CONCURRENCY = 16;
/** Requests sent on both sides before timing, so connection set-up and JIT warm-up do not count. */
const WARM_UP_REQUESTS = 50;
/** Timed rounds per side. */
const ROUNDS = 2;

/** Runs `total` tasks with at most `concurrency` in flight; resolves with the elapsed wall time. */
async function timed(total: number, concurrency: number, task: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      next++;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return performance.now() - started;
}

export async function benchClientOverhead(options: Partial<ClientOverheadOptions> = {}): Promise<ClientOverheadResult> {
  const requests = options.requests ?? DEFAULT_BENCH_REQUESTS;
  const concurrency = options.concurrency ?? DEFAULT_BENCH_CONCURRENCY;
  const sandbox = await startGoogleSandbox();
  try {
    clearGoogleAuthCache();
    const token = sandbox.mintToken({
      principal: fixture.DEPLOYER,
      scopes: ["https://www.googleapis.com/auth/compute.readonly"],
    });
    const policy = fixture.FIXTURE_FIREWALL_POLICY_IDS.baselineEgress;
    const http = axios.create();
    const client = createGoogleClient({
      settings: resolveGoogleSettings({
        explicit: {
          accessToken: token,
          computeCustomEndpoint: sandbox.endpoints.compute,
          // The same concurrency on both sides: the limiter must not be what is measured.
          maxConcurrentRequests: concurrency,
        },
      }),
      axios: http,
    });
    const url = `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/${policy}`;
    const bare = (): Promise<unknown> => http.get(url, { headers: { Authorization: `Bearer ${token}` } });
    const viaClient = (): Promise<unknown> => client.call("compute.firewallPolicies.get", { firewallPolicy: policy });

    await timed(WARM_UP_REQUESTS, concurrency, bare);
    await timed(WARM_UP_REQUESTS, concurrency, viaClient);
    // Interleaved rounds, best of each: the sandbox and the JIT warm up as the run goes on, which would otherwise
    // favour whichever side runs last.
    let axiosMs = Infinity;
    let clientMs = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
      axiosMs = Math.min(axiosMs, await timed(requests, concurrency, bare));
      clientMs = Math.min(clientMs, await timed(requests, concurrency, viaClient));
    }
    return {
      name: `client overhead: ${requests} compute.firewallPolicies.get, concurrency ${concurrency}`,
      clientMs: Math.round(clientMs),
      axiosMs: Math.round(axiosMs),
      ratio: Math.round((clientMs / axiosMs) * 100) / 100,
    };
  } finally {
    await sandbox.close();
  }
}
