/** Test doubles for the Google client: a scripted axios transport, a recording sleep, a seeded random, fixed tokens. */
import axios, { AxiosError, AxiosHeaders } from "axios";
import type { AxiosInstance, InternalAxiosRequestConfig } from "axios";
import { resolveGoogleSettings } from "../../../provider/google/settings";
import type { TokenSource } from "../../../provider/google/auth";
import type { GoogleSettings, GoogleSettingsInput } from "../../../provider/google/settings";

export const ROOT = "https://svc.test";

/** Settings whose every service root is ROOT/<service>, with a fixed access token. */
export function testSettings(extra: Partial<GoogleSettingsInput> = {}): GoogleSettings {
  return resolveGoogleSettings({
    explicit: {
      accessToken: "test-access-token-0001",
      iamCustomEndpoint: `${ROOT}/iam`,
      computeCustomEndpoint: `${ROOT}/compute`,
      deploymentManagerCustomEndpoint: `${ROOT}/dm`,
      workspaceEventsCustomEndpoint: `${ROOT}/we`,
      displayVideoCustomEndpoint: `${ROOT}/dv`,
      kmsCustomEndpoint: `${ROOT}/kms`,
      ...extra,
    },
  });
}

export interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly data: unknown;
}

/** What the scripted transport does for one request: answer with a status, or fail like a broken connection. */
export type Scripted =
  | { readonly status: number; readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> }
  | { readonly networkError: string; readonly message?: string };

/** An axios instance whose adapter plays `script` in order (the last entry repeats) and records every request. */
export function scriptedAxios(script: readonly Scripted[]): { axios: AxiosInstance; requests: RecordedRequest[] } {
  const requests: RecordedRequest[] = [];
  const instance = axios.create({
    adapter: (config: InternalAxiosRequestConfig) => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(config.headers.toJSON())) if (typeof v === "string") headers[k] = v;
      requests.push({
        method: (config.method ?? "get").toUpperCase(),
        url: config.url ?? "",
        headers,
        data: config.data,
      });
      const step = script[Math.min(requests.length - 1, script.length - 1)];
      if (step === undefined) return Promise.reject(new Error("empty script"));
      if ("networkError" in step) {
        return Promise.reject(new AxiosError(step.message ?? step.networkError, step.networkError, config));
      }
      const body = step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
      return Promise.resolve({
        data: body,
        status: step.status,
        statusText: String(step.status),
        headers: new AxiosHeaders(step.headers ?? {}),
        config,
      });
    },
  });
  return { axios: instance, requests };
}

/** A sleep that records each requested delay and returns at once (rejecting if the signal is aborted). */
export function recordingSleep(): { sleep: (ms: number, signal?: AbortSignal) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms, signal) => {
      delays.push(ms);
      return signal?.aborted === true ? Promise.reject(new Error("aborted")) : Promise.resolve();
    },
  };
}

/** mulberry32, the benchmark's deterministic PRNG in [0, 1). */
export { seededRandom } from "../../../bench/waiter-schedule";

/** A token source handing out numbered tokens; `refresh` with a rejectedToken moves to the next number. */
export function countingTokens(refreshable = true): TokenSource & { calls: { scopes: string[]; rejected?: string }[] } {
  let n = 1;
  const calls: { scopes: string[]; rejected?: string }[] = [];
  return {
    refreshable,
    calls,
    getAccessToken: (scopes, options) => {
      calls.push({
        scopes: [...scopes],
        ...(options?.rejectedToken === undefined ? {} : { rejected: options.rejectedToken }),
      });
      if (options?.rejectedToken !== undefined) n++;
      return Promise.resolve(`token-number-${n}`);
    },
  };
}

/** A Google error body (the google.rpc.Status envelope). */
export function googleError(
  code: number,
  status: string,
  message: string,
  extra: { errors?: unknown[]; details?: unknown[] } = {},
): unknown {
  return { error: { code, message, status, ...extra } };
}
