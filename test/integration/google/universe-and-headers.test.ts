import { strict as assert } from "node:assert";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import axios from "axios";
import type { AxiosInstance } from "axios";
import { ConfigError } from "../../../provider/errors";
import { isApiError } from "../../../provider/errors/google/api-error";
import { createGoogleClient } from "../../../provider/google/client";
import { resolveGoogleSettings } from "../../../provider/google/settings";
import type { GoogleClient } from "../../../provider/google/client";
import type { GoogleSettingsInput } from "../../../provider/google/settings";
import { fixture, type GoogleSandbox } from "../../../sandbox/google";
import { ALL_REQUESTED_SCOPES, DEPLOYER, READER, apiRequests, sandboxClient, useSandbox } from "./helpers";

const POLICY = fixture.FIXTURE_FIREWALL_POLICY_IDS.platformDefault;
const UNIVERSE = "sovereign.test";

/**
 * A transport that plays DNS for a universe: each request keeps its URL's host as the Host header (what the sandbox
 * routes on) and goes to the sandbox's port; the URLs the client built are recorded.
 */
function universeTransport(sandbox: GoogleSandbox): { axios: AxiosInstance; urls: string[] } {
  const urls: string[] = [];
  const instance = axios.create();
  instance.interceptors.request.use((config) => {
    const url = new URL(config.url ?? "");
    urls.push(`${url.protocol}//${url.host}${url.pathname}`);
    config.headers.set("Host", url.host);
    config.url = `${sandbox.url}${url.pathname}${url.search}`;
    return config;
  });
  return { axios: instance, urls };
}

/** A client with no custom endpoint: every host comes from the universe. */
function universeClient(
  sandbox: GoogleSandbox,
  settings: Partial<GoogleSettingsInput>,
): {
  client: GoogleClient;
  urls: string[];
} {
  const transport = universeTransport(sandbox);
  const client = createGoogleClient({
    settings: resolveGoogleSettings({ explicit: settings }),
    axios: transport.axios,
    sleep: () => Promise.resolve(),
  });
  return { client, urls: transport.urls };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  return assert.fail("expected the call to fail");
}

describe("Google client against the sandbox: request reason and quota project headers", () => {
  const sandbox = useSandbox({ moveDurationMs: 0 });

  it("sends X-Goog-Request-Reason and the quota project, which the sandbox records", async () => {
    const token = sandbox().mintToken({ principal: READER, scopes: ["compute.readonly"] });
    const { client } = sandboxClient(sandbox(), {
      accessToken: token,
      requestReason: "change CHG-1207: move edge policies",
      billingProject: fixture.FIXTURE_PROJECT,
    });
    await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => [r.route, r.status, r.requestReason, r.userProject]),
      [["compute.firewallPolicies.get", 200, "change CHG-1207: move edge policies", fixture.FIXTURE_PROJECT]],
    );
  });

  it("is refused USER_PROJECT_DENIED for a quota project the caller may not bill, as Google's front end does", async () => {
    const token = sandbox().mintToken({ principal: READER, scopes: ["compute.readonly"] });
    const { client } = sandboxClient(sandbox(), { accessToken: token, billingProject: "someone-elses-project" });
    const error = await rejection(client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY }));
    assert.ok(isApiError(error));
    assert.deepEqual(
      [error.httpStatus, error.rpcStatus, error.reason, error.errorMetadata],
      [
        403,
        "PERMISSION_DENIED",
        "USER_PROJECT_DENIED",
        { consumer: "projects/someone-elses-project", service: "compute.googleapis.com" },
      ],
    );
    assert.match(error.message, /Caller does not have required permission to use project someone-elses-project/);
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => [r.status, r.userProject]),
      [[403, "someone-elses-project"]],
    );
  });

  it("bills the project with userProjectOverride true and nothing with false, as Terraform does", async () => {
    const token = sandbox().mintToken({ principal: READER, scopes: ["compute.readonly"] });
    const base = { accessToken: token, project: fixture.FIXTURE_PROJECT };
    await sandboxClient(sandbox(), { ...base, userProjectOverride: true }).client.call("compute.firewallPolicies.get", {
      firewallPolicy: POLICY,
    });
    await sandboxClient(sandbox(), {
      ...base,
      billingProject: "not-billed",
      userProjectOverride: "false",
    }).client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => [r.status, r.userProject ?? null, r.requestReason ?? null]),
      [
        [200, fixture.FIXTURE_PROJECT, null],
        [200, null, null],
      ],
    );
  });
});

describe("Google client against the sandbox: a universe domain", () => {
  const sandbox = useSandbox({ moveDurationMs: 0, universeDomain: UNIVERSE });
  const googleSandbox = useSandbox({ moveDurationMs: 0 });
  let dir = "";

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "opsledger-universe-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("calls every API at <service>.<universe>, which the sandbox serves", async () => {
    const token = sandbox().mintToken({ principal: DEPLOYER, scopes: ALL_REQUESTED_SCOPES });
    const { client, urls } = universeClient(sandbox(), { accessToken: token, universeDomain: UNIVERSE });
    await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    await client.call("iam.workforcePools.getIamPolicy", {
      resource: "locations/global/workforcePools/sandbox-contractors",
    });
    await client.call("deploymentmanager.deployments.get", {
      project: fixture.FIXTURE_PROJECT,
      deployment: "web-stack",
    });
    assert.deepEqual(
      urls.map((u) => new URL(u).host),
      ["compute.sovereign.test", "iam.sovereign.test", "deploymentmanager.sovereign.test"],
    );
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => [r.host, r.route, r.status]),
      [
        ["compute.sovereign.test", "compute.firewallPolicies.get", 200],
        ["iam.sovereign.test", "iam.workforcePools.getIamPolicy", 200],
        ["deploymentmanager.sovereign.test", "deploymentmanager.deployments.get", 200],
      ],
    );
  });

  it("answers 404 for a host of another universe, as no front end serves it", async () => {
    const token = sandbox().mintToken({ principal: READER, scopes: ["compute.readonly"] });
    const { client } = universeClient(sandbox(), { accessToken: token, universeDomain: "elsewhere.test" });
    const error = await rejection(client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY }));
    assert.ok(isApiError(error));
    assert.equal(error.httpStatus, 404);
    assert.deepEqual(
      sandbox()
        .requests()
        .map((r) => [r.host, r.status, r.route ?? null]),
      [["compute.elsewhere.test", 404, null]],
    );
  });

  it("takes a credential of its universe: tokens from the file's endpoints, API calls in the universe", async () => {
    const file = await sandbox().writeCredentialsFile(join(dir, "sovereign"));
    const { client } = universeClient(sandbox(), { credentials: file, universeDomain: UNIVERSE });
    const policy = await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.equal(policy.id, POLICY);
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => [r.host, r.principal, r.status]),
      [["compute.sovereign.test", DEPLOYER, 200]],
    );
  });

  it("refuses a googleapis.com credential in another universe before any request", async () => {
    const file = await googleSandbox().writeCredentialsFile(join(dir, "google"));
    const { client } = universeClient(sandbox(), { credentials: file, universeDomain: UNIVERSE });
    const error = await rejection(client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY }));
    assert.ok(error instanceof ConfigError);
    assert.equal(error.setting, "universeDomain");
    assert.equal(
      error.message,
      "credentials: the credential is for 'googleapis.com', but the configured universe domain is " +
        "'sovereign.test' (universeDomain): set universeDomain (opsledger:universeDomain or " +
        "GOOGLE_CLOUD_UNIVERSE_DOMAIN) to 'googleapis.com', or use a credential of sovereign.test",
    );
    assert.deepEqual([sandbox().requests(), googleSandbox().requests()], [[], []]);
  });

  it("refuses a credential of another universe when none is configured, before any request", async () => {
    const key = JSON.stringify(sandbox().serviceAccountKey(DEPLOYER));
    const { client } = sandboxClient(googleSandbox(), { credentials: key });
    const error = await rejection(client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY }));
    assert.ok(error instanceof ConfigError);
    assert.equal(
      error.message,
      "credentials: the credential is for 'sovereign.test', but the configured universe domain is the default, " +
        "googleapis.com (universeDomain is not set): set universeDomain (opsledger:universeDomain or " +
        "GOOGLE_CLOUD_UNIVERSE_DOMAIN) to 'sovereign.test', or use a credential of googleapis.com",
    );
    assert.deepEqual([sandbox().requests(), googleSandbox().requests()], [[], []]);
  });

  it("refuses a universe domain that is not a domain before any request", () => {
    const token = googleSandbox().mintToken({ principal: READER, scopes: ["compute.readonly"] });
    let error: unknown;
    try {
      sandboxClient(googleSandbox(), { accessToken: token, universeDomain: "https://sovereign.test" });
    } catch (e) {
      error = e;
    }
    assert.ok(error instanceof ConfigError);
    assert.equal(
      error.message,
      "universeDomain 'https://sovereign.test' is not a universe domain: give the bare domain of the universe's " +
        "API hosts, such as googleapis.com (no scheme, port, path or leading dot)",
    );
    assert.deepEqual(googleSandbox().requests(), []);
  });
});
