/** Shared set-up of the client's integration tests: an in-process sandbox and clients pointed at it. */
import { clearGoogleAuthCache } from "../../../provider/google/auth";
import { createGoogleClient } from "../../../provider/google/client";
import { clearQuotaPacers } from "../../../provider/google/quota-pacer";
import { resolveGoogleSettings } from "../../../provider/google/settings";
import type { GoogleClient, GoogleClientOptions } from "../../../provider/google/client";
import type { RetryInfoEvent } from "../../../provider/google/retry";
import type { GoogleSettingsInput } from "../../../provider/google/settings";
import { startGoogleSandbox } from "../../../sandbox/google";
import type { GoogleSandbox, GoogleSandboxOptions, RequestLogEntry } from "../../../sandbox/google";

export const DEPLOYER = "deployer@sandbox-project.iam.gserviceaccount.com";
export const READER = "reader@sandbox-project.iam.gserviceaccount.com";
export const SCOPE = "https://www.googleapis.com/auth/";

/** Every scope the client requests for some endpoint (so one token can call all twelve). */
export const ALL_REQUESTED_SCOPES = [
  "cloud-platform",
  "compute",
  "compute.readonly",
  "ndev.cloudman.readonly",
  "chat.spaces.readonly",
  "display-video",
  "cloudkms",
].map((s) => SCOPE + s);

/** Routes of the token services (the sandbox logs them too); everything else is an API call of the client. */
const TOKEN_ROUTE = /^(oauth2|sts|iamcredentials)\./;

/** The sandbox's log of API requests, without the token-service requests. */
export function apiRequests(sandbox: GoogleSandbox): readonly RequestLogEntry[] {
  return sandbox.requests().filter((r) => r.route === undefined || !TOKEN_ROUTE.test(r.route));
}

/** The sandbox's log of token-service requests, as "route status". */
export function tokenRequests(sandbox: GoogleSandbox): string[] {
  return sandbox
    .requests()
    .filter((r) => r.route !== undefined && TOKEN_ROUTE.test(r.route))
    .map((r) => `${r.route ?? ""} ${r.status}`);
}

/** Starts one sandbox for a describe block and resets it (and the auth cache and quota pacers) before every test. */
export function useSandbox(options: GoogleSandboxOptions = {}): () => GoogleSandbox {
  let sandbox: GoogleSandbox | undefined;
  before(async () => {
    sandbox = await startGoogleSandbox(options);
  });
  beforeEach(() => {
    sandbox?.reset();
    clearGoogleAuthCache();
    clearQuotaPacers();
  });
  after(async () => {
    await sandbox?.close();
  });
  return () => {
    if (sandbox === undefined) throw new Error("sandbox not started");
    return sandbox;
  };
}

/** Explicit settings pointing every service root at the sandbox. */
export function sandboxEndpoints(sandbox: GoogleSandbox): Partial<GoogleSettingsInput> {
  const e = sandbox.endpoints;
  return {
    iamCustomEndpoint: e.iam,
    computeCustomEndpoint: e.compute,
    deploymentManagerCustomEndpoint: e.deploymentManager,
    workspaceEventsCustomEndpoint: e.workspaceEvents,
    displayVideoCustomEndpoint: e.displayVideo,
    kmsCustomEndpoint: e.kms,
    iamCredentialsCustomEndpoint: e.iamCredentials,
    oauth2CustomEndpoint: e.oauth2,
  };
}

export interface TestClient {
  readonly client: GoogleClient;
  readonly delays: number[];
  readonly retries: RetryInfoEvent[];
  readonly warnings: string[];
}

export type TestClientOptions = Partial<GoogleClientOptions> & {
  /**
   * The client's clock stands still except for the waits it records (each one moves it on by its length), so a
   * wait computed from a deadline is exact instead of a millisecond short when the wall clock ticked in between.
   */
  readonly manualClock?: boolean;
};

/** A client against the sandbox; retry waits are recorded, not slept. */
export function sandboxClient(
  sandbox: GoogleSandbox,
  settings: Partial<GoogleSettingsInput>,
  { manualClock = false, ...options }: TestClientOptions = {},
): TestClient {
  const delays: number[] = [];
  const retries: RetryInfoEvent[] = [];
  const warnings: string[] = [];
  let clock = Date.now();
  const client = createGoogleClient({
    settings: resolveGoogleSettings({ explicit: { ...sandboxEndpoints(sandbox), ...settings } }),
    ...(manualClock ? { now: () => clock } : {}),
    sleep: (ms) => {
      delays.push(ms);
      clock += ms;
      return Promise.resolve();
    },
    onRetry: (info) => retries.push(info),
    onWarning: (message) => warnings.push(message),
    ...options,
  });
  return { client, delays, retries, warnings };
}

/** A client holding a fixed access token minted by the sandbox. */
export function tokenClient(
  sandbox: GoogleSandbox,
  principal: string,
  scopes: readonly string[] = ALL_REQUESTED_SCOPES,
  options: TestClientOptions = {},
): TestClient {
  return sandboxClient(sandbox, { accessToken: sandbox.mintToken({ principal, scopes }) }, options);
}
