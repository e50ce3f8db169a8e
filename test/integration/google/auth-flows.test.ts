import { strict as assert } from "node:assert";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { isApiError } from "../../../provider/errors/google/api-error";
import { fixture } from "../../../sandbox/google";
import { DEPLOYER, READER, apiRequests, sandboxClient, tokenRequests, useSandbox } from "./helpers";

const POLICY = fixture.FIXTURE_FIREWALL_POLICY_IDS.platformDefault;
const TARGET = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;

describe("Google client against the sandbox: auth flows", () => {
  const sandbox = useSandbox({ moveDurationMs: 0 });
  let dir = "";

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "opsledger-google-auth-"));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("uses an access token as given", async () => {
    const token = sandbox().mintToken({ principal: READER, scopes: ["compute.readonly"] });
    const { client } = sandboxClient(sandbox(), { accessToken: token });
    const policy = await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.equal(policy.id, POLICY);
    assert.equal(sandbox().requests()[0]?.principal, READER);
  });

  it("impersonates with an access token as the source credential", async () => {
    const source = sandbox().mintToken({ principal: fixture.FIXTURE_USER, scopes: ["cloud-platform"] });
    const { client } = sandboxClient(sandbox(), { accessToken: source, impersonateServiceAccount: READER });
    const policy = await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.equal(policy.id, POLICY);
    assert.deepEqual(tokenRequests(sandbox()), ["iamcredentials.serviceAccounts.generateAccessToken 200"]);
    assert.equal(apiRequests(sandbox())[0]?.principal, READER);
  });

  it("exchanges an external_account file through STS and impersonates the deployer to move", async () => {
    const file = await sandbox().writeCredentialsFile(dir);
    const { client } = sandboxClient(sandbox(), { credentials: file });
    const operation = await client.call("compute.firewallPolicies.move", {
      firewallPolicy: POLICY,
      parentId: TARGET,
      requestId: "6fa459ea-ee8a-3ca4-894e-db77e160355e",
    });
    assert.equal(operation.user, DEPLOYER);
    assert.deepEqual(tokenRequests(sandbox()), [
      "sts.token 200",
      "iamcredentials.serviceAccounts.generateAccessToken 200",
    ]);
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => [r.route, r.principal, r.status]),
      [["compute.firewallPolicies.move", DEPLOYER, 200]],
    );
  });

  it("signs a service-account JWT at the oauth2 custom endpoint, one token per scope set for concurrent calls", async () => {
    const key = JSON.stringify(sandbox().serviceAccountKey(DEPLOYER));
    const { client } = sandboxClient(sandbox(), { credentials: key });
    const results = await Promise.all(
      [1, 2, 3, 4, 5].map(() => client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY })),
    );
    assert.deepEqual(
      results.map((p) => p.id),
      [POLICY, POLICY, POLICY, POLICY, POLICY],
    );
    // Five concurrent calls for the same scope share one token request.
    assert.deepEqual(tokenRequests(sandbox()), ["oauth2.token 200"]);
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => r.principal),
      [DEPLOYER, DEPLOYER, DEPLOYER, DEPLOYER, DEPLOYER],
    );
    // A different scope set is a different token; the same one again is served from the cache.
    await client.call("displayvideo.advertisers.creatives.get", {
      advertiserId: "2001",
      creativeId: "7001",
      apiVersion: "v4",
    });
    await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.deepEqual(tokenRequests(sandbox()), ["oauth2.token 200", "oauth2.token 200"]);
  });

  it("refreshes a service-account token once after a 401 and succeeds", async () => {
    const key = JSON.stringify(sandbox().serviceAccountKey(DEPLOYER));
    const { client, retries } = sandboxClient(sandbox(), { credentials: key });
    await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    sandbox().reset(); // forgets every issued token
    const policy = await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.equal(policy.id, POLICY);
    assert.deepEqual(
      apiRequests(sandbox()).map((r) => r.status),
      [401, 200],
    );
    assert.deepEqual(tokenRequests(sandbox()), ["oauth2.token 200"]);
    assert.deepEqual(
      retries.map((r) => r.reason),
      ["401 UNAUTHENTICATED: token refresh"],
    );
  });

  it("refreshes an authorized_user token at the oauth2 endpoint and impersonates through the iamCredentials endpoint", async () => {
    const user = JSON.stringify({
      type: "authorized_user",
      client_id: fixture.FIXTURE_OAUTH_CLIENT.clientId,
      client_secret: fixture.FIXTURE_OAUTH_CLIENT.clientSecret,
      refresh_token: fixture.FIXTURE_OAUTH_CLIENT.refreshToken,
    });
    const { client } = sandboxClient(sandbox(), { credentials: user, impersonateServiceAccount: READER });
    const policy = await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.equal(policy.id, POLICY);
    assert.deepEqual(tokenRequests(sandbox()), [
      "oauth2.token 200",
      "iamcredentials.serviceAccounts.generateAccessToken 200",
    ]);
    assert.equal(apiRequests(sandbox())[0]?.principal, READER);
  });

  it("reads an impersonated_service_account credential and impersonates through the iamCredentials endpoint", async () => {
    const credential = JSON.stringify({
      type: "impersonated_service_account",
      service_account_impersonation_url: `https://iamcredentials.googleapis.com/v1/projects/-/serviceAccounts/${READER}:generateAccessToken`,
      delegates: [],
      source_credentials: {
        type: "authorized_user",
        client_id: fixture.FIXTURE_OAUTH_CLIENT.clientId,
        client_secret: fixture.FIXTURE_OAUTH_CLIENT.clientSecret,
        refresh_token: fixture.FIXTURE_OAUTH_CLIENT.refreshToken,
      },
    });
    const { client } = sandboxClient(sandbox(), { credentials: credential });
    const policy = await client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY });
    assert.equal(policy.id, POLICY);
    // Only the email is taken from the URL: the token request goes to the configured iamCredentials root.
    assert.deepEqual(tokenRequests(sandbox()), [
      "oauth2.token 200",
      "iamcredentials.serviceAccounts.generateAccessToken 200",
    ]);
    assert.equal(apiRequests(sandbox())[0]?.principal, READER);
  });

  it("reports a refused impersonation as an auth ApiError with the permission to grant", async () => {
    const key = JSON.stringify(sandbox().serviceAccountKey(READER));
    const { client } = sandboxClient(sandbox(), { credentials: key, impersonateServiceAccount: DEPLOYER });
    await assert.rejects(client.call("compute.firewallPolicies.get", { firewallPolicy: POLICY }), (error: unknown) => {
      assert.ok(isApiError(error));
      assert.equal(error.service, "auth");
      assert.equal(error.httpStatus, 403);
      assert.equal(
        error.hint,
        `The source credential needs iam.serviceAccounts.getAccessToken on ${DEPLOYER} (roles/iam.serviceAccountTokenCreator)`,
      );
      assert.ok(!error.message.includes("PRIVATE KEY"));
      return true;
    });
    assert.deepEqual(tokenRequests(sandbox()), [
      "oauth2.token 200",
      "iamcredentials.serviceAccounts.generateAccessToken 403",
    ]);
    assert.deepEqual(apiRequests(sandbox()), []);
  });
});
