import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { SCOPES } from "../../../provider/google/scopes";
import {
  DEFAULT_ENDPOINT_ROOTS,
  DEFAULT_MAX_CONCURRENT_REQUESTS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  durationText,
  parseDurationMs,
  resolveGoogleSettings,
} from "../../../provider/google/settings";
import { configError } from "../../helpers/config-error";

function config(values: Record<string, string>): (key: string) => string | undefined {
  return (key) => values[key];
}

describe("resolveGoogleSettings", () => {
  it("applies the defaults when nothing is set", () => {
    const settings = resolveGoogleSettings({});
    assert.deepEqual(settings.endpoints, DEFAULT_ENDPOINT_ROOTS);
    assert.equal(settings.requestTimeoutMs, DEFAULT_REQUEST_TIMEOUT_MS);
    assert.equal(settings.requestTimeoutMs, 60_000);
    assert.equal(settings.maxConcurrentRequests, DEFAULT_MAX_CONCURRENT_REQUESTS);
    assert.equal(settings.maxConcurrentRequests, 8);
    assert.deepEqual(settings.workspaceEventsScopes, [SCOPES.chatSpacesReadonly]);
    assert.equal(settings.displayVideoApiVersion, undefined);
    assert.equal(settings.credentials, undefined);
    assert.equal(settings.accessToken, undefined);
    assert.deepEqual(settings.impersonateServiceAccountDelegates, []);
    assert.deepEqual(settings.endpoints, {
      iam: "https://iam.googleapis.com",
      compute: "https://compute.googleapis.com",
      deploymentManager: "https://deploymentmanager.googleapis.com",
      workspaceEvents: "https://workspaceevents.googleapis.com",
      displayVideo: "https://displayvideo.googleapis.com",
      kms: "https://cloudkms.googleapis.com",
      iamCredentials: "https://iamcredentials.googleapis.com",
      oauth2: "https://oauth2.googleapis.com",
    });
  });

  it("prefers explicit over stack config over environment over defaults", () => {
    const env = {
      GOOGLE_PROJECT: "env-project",
      GOOGLE_BILLING_PROJECT: "env-billing",
      OPSLEDGER_DISPLAY_VIDEO_API_VERSION: "v2",
    };
    const cfg = config({ project: "config-project", billingProject: "config-billing" });
    const settings = resolveGoogleSettings({ explicit: { project: "explicit-project" }, config: cfg, env });
    assert.equal(settings.project, "explicit-project");
    assert.equal(settings.billingProject, "config-billing");
    assert.equal(settings.displayVideoApiVersion, "v2");
    assert.deepEqual(settings.origins, {
      project: "explicit:project",
      billingProject: "opsledger:billingProject",
      displayVideoApiVersion: "env:OPSLEDGER_DISPLAY_VIDEO_API_VERSION",
    });
  });

  it("reads the environment variable lists in Terraform's order", () => {
    assert.equal(resolveGoogleSettings({ env: { GCLOUD_PROJECT: "c", CLOUDSDK_CORE_PROJECT: "d" } }).project, "c");
    assert.equal(resolveGoogleSettings({ env: { GOOGLE_CLOUD_PROJECT: "b", GCLOUD_PROJECT: "c" } }).project, "b");
    const creds = resolveGoogleSettings({
      env: { GCLOUD_KEYFILE_JSON: "/k2.json", GOOGLE_CLOUD_KEYFILE_JSON: "/k1.json" },
    });
    assert.equal(creds.credentials, "/k1.json");
    assert.equal(creds.origins.credentials, "env:GOOGLE_CLOUD_KEYFILE_JSON");
    const env = {
      GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.env-token",
      GOOGLE_IMPERSONATE_SERVICE_ACCOUNT: "sa@p.iam.gserviceaccount.com",
    };
    const fromEnv = resolveGoogleSettings({ env });
    assert.equal(fromEnv.accessToken, "ya29.env-token");
    assert.equal(fromEnv.impersonateServiceAccount, "sa@p.iam.gserviceaccount.com");
  });

  it("reads every custom endpoint from its environment variable", () => {
    const settings = resolveGoogleSettings({
      env: {
        GOOGLE_IAM_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/iam",
        GOOGLE_COMPUTE_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/compute",
        GOOGLE_DEPLOYMENT_MANAGER_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/deploymentmanager",
        GOOGLE_WORKSPACE_EVENTS_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/workspaceevents",
        GOOGLE_DISPLAY_VIDEO_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/displayvideo",
        GOOGLE_KMS_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/cloudkms",
        GOOGLE_IAM_CREDENTIALS_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/iamcredentials",
        GOOGLE_OAUTH2_CUSTOM_ENDPOINT: "http://127.0.0.1:5555/oauth2",
      },
    });
    assert.deepEqual(settings.endpoints, {
      iam: "http://127.0.0.1:5555/iam",
      compute: "http://127.0.0.1:5555/compute",
      deploymentManager: "http://127.0.0.1:5555/deploymentmanager",
      workspaceEvents: "http://127.0.0.1:5555/workspaceevents",
      displayVideo: "http://127.0.0.1:5555/displayvideo",
      kms: "http://127.0.0.1:5555/cloudkms",
      iamCredentials: "http://127.0.0.1:5555/iamcredentials",
      oauth2: "http://127.0.0.1:5555/oauth2",
    });
  });

  it("strips a pulumi-gcp style version path and trailing slashes from custom endpoints", () => {
    const settings = resolveGoogleSettings({
      config: config({
        computeCustomEndpoint: "https://compute.googleapis.com/compute/v1/",
        iamCustomEndpoint: "https://iam.googleapis.com/v1/",
        deploymentManagerCustomEndpoint: "https://www.googleapis.com/deploymentmanager/v2/",
        workspaceEventsCustomEndpoint: "https://workspaceevents.googleapis.com/v1beta",
        displayVideoCustomEndpoint: "https://displayvideo.googleapis.com/v4/",
        kmsCustomEndpoint: "https://cloudkms.googleapis.com/v1/",
        iamCredentialsCustomEndpoint: "https://iamcredentials.googleapis.com/v1/",
        oauth2CustomEndpoint: "http://127.0.0.1:9/oauth2/token",
      }),
    });
    assert.deepEqual(settings.endpoints, {
      iam: "https://iam.googleapis.com",
      compute: "https://compute.googleapis.com",
      deploymentManager: "https://www.googleapis.com",
      workspaceEvents: "https://workspaceevents.googleapis.com",
      displayVideo: "https://displayvideo.googleapis.com",
      kms: "https://cloudkms.googleapis.com",
      iamCredentials: "https://iamcredentials.googleapis.com",
      oauth2: "http://127.0.0.1:9/oauth2",
    });
    assert.equal(
      resolveGoogleSettings({ explicit: { computeCustomEndpoint: "http://127.0.0.1:5555/compute///" } }).endpoints
        .compute,
      "http://127.0.0.1:5555/compute",
    );
  });

  it("rejects a malformed custom endpoint with a ConfigError naming the setting", () => {
    const bad = configError(() =>
      resolveGoogleSettings({ config: config({ computeCustomEndpoint: "compute.googleapis.com" }) }),
    );
    assert.equal(bad.setting, "opsledger:computeCustomEndpoint");
    assert.equal(
      bad.message,
      "opsledger:computeCustomEndpoint 'compute.googleapis.com' is not a usable endpoint: it must be an http(s) " +
        "service root without user credentials, such as https://compute.googleapis.com",
    );
    const withQuery = configError(() =>
      resolveGoogleSettings({ env: { GOOGLE_IAM_CUSTOM_ENDPOINT: "https://iam.googleapis.com/?key=abc" } }),
    );
    assert.equal(withQuery.setting, "GOOGLE_IAM_CUSTOM_ENDPOINT");
    assert.equal(
      withQuery.message,
      "GOOGLE_IAM_CUSTOM_ENDPOINT must not have a query string or fragment: give the service root, such as https://iam.googleapis.com",
    );
    const withUser = configError(() =>
      resolveGoogleSettings({ explicit: { oauth2CustomEndpoint: "https://user:hunter2secret@oauth2.example.com" } }),
    );
    assert.equal(withUser.setting, "oauth2CustomEndpoint");
    assert.ok(!withUser.message.includes("hunter2secret"), withUser.message);
  });

  it("rejects accessToken and credentials set at the same level without echoing them", () => {
    const error = configError(() =>
      resolveGoogleSettings({
        config: config({ credentials: '{"private_key":"PEMSECRET"}', accessToken: "ya29.SECRET" }),
      }),
    );
    assert.equal(error.setting, "opsledger:credentials");
    assert.equal(
      error.message,
      "opsledger:credentials and opsledger:accessToken are both set: set only one of them (a credential file or JSON, or a ready access token)",
    );
    const envError = configError(() =>
      resolveGoogleSettings({ env: { GOOGLE_CREDENTIALS: "/k.json", GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.SECRET" } }),
    );
    assert.equal(envError.setting, "GOOGLE_CREDENTIALS");
  });

  it("lets the higher level decide the credential source when the levels differ", () => {
    const settings = resolveGoogleSettings({
      config: config({ credentials: "/from-config.json" }),
      env: { GOOGLE_OAUTH_ACCESS_TOKEN: "ya29.env" },
    });
    assert.equal(settings.credentials, "/from-config.json");
    assert.equal(settings.accessToken, undefined);
    const explicit = resolveGoogleSettings({
      explicit: { accessToken: "ya29.explicit" },
      env: { GOOGLE_CREDENTIALS: "/k.json" },
    });
    assert.equal(explicit.accessToken, "ya29.explicit");
    assert.equal(explicit.credentials, undefined);
  });

  it("keeps credentials and the access token out of JSON and inspect output", () => {
    const settings = resolveGoogleSettings({ explicit: { accessToken: "ya29.TOPSECRET-TOKEN" } });
    assert.equal(settings.accessToken, "ya29.TOPSECRET-TOKEN");
    assert.ok(!JSON.stringify(settings).includes("TOPSECRET"));
    assert.ok(!inspect(settings, { depth: 5 }).includes("TOPSECRET"));
  });

  it("writes milliseconds as the duration parseDurationMs reads, in the largest whole unit", () => {
    assert.deepEqual(
      [1_200_000, 7_200_000, 90_000, 1500, 500].map((ms) => durationText(ms)),
      ["20m", "2h", "90s", "1500ms", "500ms"],
    );
    for (const ms of [1_200_000, 7_200_000, 90_000, 1500, 500]) assert.equal(parseDurationMs(durationText(ms)), ms);
  });

  it("parses requestTimeout durations and rejects bad ones", () => {
    assert.equal(resolveGoogleSettings({ config: config({ requestTimeout: "1m30s" }) }).requestTimeoutMs, 90_000);
    assert.equal(parseDurationMs("500ms"), 500);
    assert.equal(parseDurationMs("1.5s"), 1500);
    assert.equal(parseDurationMs("2h"), 7_200_000);
    assert.equal(parseDurationMs("60"), undefined);
    const error = configError(() => resolveGoogleSettings({ config: config({ requestTimeout: "soon" }) }));
    assert.equal(
      error.message,
      `opsledger:requestTimeout 'soon' must be a positive duration such as "60s", "1m30s" or "500ms"`,
    );
  });

  it("rejects an unknown Display & Video 360 version", () => {
    const error = configError(() => resolveGoogleSettings({ env: { OPSLEDGER_DISPLAY_VIDEO_API_VERSION: "v5" } }));
    assert.equal(error.setting, "OPSLEDGER_DISPLAY_VIDEO_API_VERSION");
    assert.equal(
      error.message,
      "OPSLEDGER_DISPLAY_VIDEO_API_VERSION 'v5' is not a Display & Video 360 API version: use v4 (v1, v2 and v3 are sunset)",
    );
  });

  it("parses delegates as a JSON array or a comma list and requires the impersonated account", () => {
    const target = { impersonateServiceAccount: "t@p.iam.gserviceaccount.com" };
    assert.deepEqual(
      resolveGoogleSettings({
        explicit: { ...target, impersonateServiceAccountDelegates: '["a@p.iam.gserviceaccount.com"]' },
      }).impersonateServiceAccountDelegates,
      ["a@p.iam.gserviceaccount.com"],
    );
    assert.deepEqual(
      resolveGoogleSettings({ explicit: { ...target, impersonateServiceAccountDelegates: "a@x.com, b@y.com" } })
        .impersonateServiceAccountDelegates,
      ["a@x.com", "b@y.com"],
    );
    const error = configError(() =>
      resolveGoogleSettings({ config: config({ impersonateServiceAccountDelegates: "a@x.com" }) }),
    );
    assert.equal(
      error.message,
      "opsledger:impersonateServiceAccountDelegates is set but impersonateServiceAccount is not: set the account to impersonate",
    );
  });

  it("expands workspaceEventsScopes and rejects scopes the endpoint does not accept", () => {
    assert.deepEqual(
      resolveGoogleSettings({
        config: config({ workspaceEventsScopes: '["chat.messages.readonly","meetings.space.readonly"]' }),
      }).workspaceEventsScopes,
      [SCOPES.chatMessagesReadonly, SCOPES.meetingsSpaceReadonly],
    );
    const error = configError(() => resolveGoogleSettings({ config: config({ workspaceEventsScopes: "compute" }) }));
    assert.ok(
      error.message.startsWith(
        "opsledger:workspaceEventsScopes has 'https://www.googleapis.com/auth/compute', which workspaceevents.subscriptions.get does not accept; use one of: https://www.googleapis.com/auth/chat.bot, ",
      ),
      error.message,
    );
  });

  it("validates maxConcurrentRequests", () => {
    assert.equal(resolveGoogleSettings({ config: config({ maxConcurrentRequests: "3" }) }).maxConcurrentRequests, 3);
    const error = configError(() => resolveGoogleSettings({ explicit: { maxConcurrentRequests: 0 } }));
    assert.equal(error.message, "maxConcurrentRequests must be a whole number from 1 to 10000, got '0'");
  });

  it("takes the Application Default Credentials inputs from the environment", () => {
    const settings = resolveGoogleSettings({
      env: { GOOGLE_APPLICATION_CREDENTIALS: "/adc.json", HOME: "/home/u" },
    });
    assert.deepEqual(settings.applicationDefault, {
      credentialsFile: "/adc.json",
      gcloudConfigDir: "/home/u/.config/gcloud",
    });
    assert.deepEqual(resolveGoogleSettings({ env: { CLOUDSDK_CONFIG: "/cfg", HOME: "/home/u" } }).applicationDefault, {
      gcloudConfigDir: "/cfg",
    });
  });
});
