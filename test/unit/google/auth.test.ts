import { strict as assert } from "node:assert";
import { ConfigError } from "../../../provider/errors";
import { clearGoogleAuthCache, createGoogleTokenSource } from "../../../provider/google/auth";
import { createGoogleClient } from "../../../provider/google/client";
import { resolveGoogleSettings } from "../../../provider/google/settings";
import type { GoogleSettingsInput } from "../../../provider/google/settings";
import { scriptedAxios } from "./helpers";

const PEM =
  ["BEGIN", "END"]
    .map((w) => `${"-".repeat(5)}${w} PRIVATE KEY${"-".repeat(5)}`)
    .join("\nMIIEvQIBADANBgkqSECRETKEYMATERIAL\n") + "\n";

function source(
  explicit: Partial<GoogleSettingsInput>,
  env: Record<string, string> = {},
  files: Record<string, string> = {},
) {
  const reads: string[] = [];
  /** Every look-up of the credential chain, in order: "exists <path>", "read <path>", "metadata server". */
  const lookups: string[] = [];
  const tokens = createGoogleTokenSource({
    settings: resolveGoogleSettings({ explicit, env }),
    readFile: (path) => {
      reads.push(path);
      lookups.push(`read ${path}`);
      const content = files[path];
      if (content === undefined) {
        const error = new Error(`ENOENT: no such file or directory, open '${path}'`) as Error & { code: string };
        error.code = "ENOENT";
        return Promise.reject(error);
      }
      return Promise.resolve(content);
    },
    fileExists: (path) => {
      lookups.push(`exists ${path}`);
      return Promise.resolve(files[path] !== undefined);
    },
    metadataAvailable: () => {
      lookups.push("metadata server");
      return Promise.resolve(false);
    },
  });
  return { tokens, reads, lookups };
}

async function configError(promise: Promise<unknown>): Promise<ConfigError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  assert.fail("expected a ConfigError");
}

const SCOPES = ["https://www.googleapis.com/auth/compute.readonly"];

describe("token source", () => {
  beforeEach(() => {
    clearGoogleAuthCache();
  });

  it("returns a fixed access token as is and does not offer refreshes", async () => {
    const { tokens } = source({ accessToken: "ya29.fixed-token" });
    assert.equal(tokens.refreshable, false);
    assert.equal(await tokens.getAccessToken(SCOPES), "ya29.fixed-token");
  });

  it("rejects credential JSON without the fields its type needs, without echoing the key", async () => {
    const json = JSON.stringify({ type: "service_account", private_key: PEM });
    const error = await configError(source({ credentials: json }).tokens.getAccessToken(SCOPES));
    assert.equal(error.setting, "credentials");
    assert.equal(error.message, "credentials: the service_account credential has no 'client_email' field");
    assert.ok(!error.message.includes("SECRET"));
  });

  it("rejects an unsupported credential type and unparseable JSON", async () => {
    const unknown = await configError(
      source({ credentials: '{"type":"gdch_service_account"}' }).tokens.getAccessToken(SCOPES),
    );
    assert.equal(
      unknown.message,
      "credentials: unsupported credential type 'gdch_service_account'; expected service_account, authorized_user, " +
        "external_account, external_account_authorized_user or impersonated_service_account",
    );
    const broken = await configError(
      source({ credentials: `{"private_key": "${PEM.slice(0, 40)}` }).tokens.getAccessToken(SCOPES),
    );
    assert.equal(broken.message, "credentials: the credential JSON is not a JSON object");
    assert.ok(!broken.message.includes("SECRET"));
  });

  it("reads a credential path and reports an unreadable file by path and code", async () => {
    const { tokens, reads } = source({}, { GOOGLE_CREDENTIALS: "/keys/missing.json" });
    const error = await configError(tokens.getAccessToken(SCOPES));
    assert.deepEqual(reads, ["/keys/missing.json"]);
    assert.equal(error.setting, "GOOGLE_CREDENTIALS");
    assert.equal(error.message, "GOOGLE_CREDENTIALS: cannot read the credential file '/keys/missing.json' (ENOENT)");
  });

  it("rejects an external_account file whose token_url is plain http to a remote host", async () => {
    const file = JSON.stringify({
      type: "external_account",
      audience: "//iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p/providers/q",
      subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
      token_url: "http://sts.attacker.example/v1/token",
      credential_source: { file: "/tmp/token" },
    });
    const error = await configError(
      source({}, { GOOGLE_APPLICATION_CREDENTIALS: "/adc.json" }, { "/adc.json": file }).tokens.getAccessToken(SCOPES),
    );
    assert.equal(
      error.message,
      "GOOGLE_APPLICATION_CREDENTIALS: the credential's token_url must be an https URL (http only for a loopback host)",
    );
  });

  it("looks for the gcloud well-known file, then the metadata server, then gives up with a ConfigError", async () => {
    const { tokens, reads, lookups } = source({}, { HOME: "/home/u" });
    const error = await configError(tokens.getAccessToken(SCOPES));
    assert.deepEqual(reads, []);
    assert.deepEqual(lookups, [
      "exists /home/u/.config/gcloud/application_default_credentials.json",
      "metadata server",
    ]);
    assert.equal(error.setting, "credentials");
    assert.equal(
      error.message,
      "No Google credentials found: set opsledger:credentials (a key file path or its JSON) or opsledger:accessToken, " +
        "set GOOGLE_APPLICATION_CREDENTIALS, or run 'gcloud auth application-default login'",
    );
    const wellKnown = source(
      {},
      { HOME: "/home/u" },
      { "/home/u/.config/gcloud/application_default_credentials.json": "{}" },
    );
    const fromFile = await configError(wellKnown.tokens.getAccessToken(SCOPES));
    assert.deepEqual(wellKnown.reads, ["/home/u/.config/gcloud/application_default_credentials.json"]);
    // The well-known file wins: the metadata server is not asked.
    assert.deepEqual(wellKnown.lookups, [
      "exists /home/u/.config/gcloud/application_default_credentials.json",
      "read /home/u/.config/gcloud/application_default_credentials.json",
    ]);
    assert.ok(fromFile.message.includes("unsupported credential type (missing)"), fromFile.message);
  });

  it("lets a credential ConfigError through the client unchanged, before any request", async () => {
    const transport = scriptedAxios([{ status: 200, body: {} }]);
    const client = createGoogleClient({
      settings: resolveGoogleSettings({ explicit: { credentials: '{"type":"nope"}' } }),
      axios: transport.axios,
    });
    const error = await configError(client.call("compute.firewallPolicies.get", { firewallPolicy: "1" }));
    assert.equal(error.setting, "credentials");
    assert.equal(transport.requests.length, 0);
  });
});
