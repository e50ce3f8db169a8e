import assert from "node:assert/strict";
import { createSign, generateKeyPairSync } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { GoogleAuth, JWT, UserRefreshClient, gaxios } from "google-auth-library";
import { fixture, startGoogleSandbox, type GoogleSandbox } from "../../../sandbox/google";
import { call, DEPLOYER, READER, scope, str } from "./helpers";

const FEDERATED = `principal://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/sandbox-pool/subject/sandbox-ci`;
const AUDIENCE =
  "//iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/sandbox-pool/providers/sandbox-idp";

function form(values: Record<string, string>): { body: string; headers: Record<string, string> } {
  return {
    body: new URLSearchParams(values).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded" },
  };
}

function signWith(privateKey: Parameters<ReturnType<typeof createSign>["sign"]>[0], claims: object): string {
  const enc = (v: object) => Buffer.from(JSON.stringify(v)).toString("base64url");
  const input = `${enc({ alg: "RS256", typ: "JWT" })}.${enc(claims)}`;
  return `${input}.${createSign("RSA-SHA256").update(input).sign(privateKey).toString("base64url")}`;
}

/** Runs `fn` with console.warn silenced: GoogleAuth warns that `keyFile` and `fromJSON` are deprecated. */
async function quietly<T>(fn: () => Promise<T>): Promise<T> {
  const warn = console.warn;
  console.warn = () => undefined;
  try {
    return await fn();
  } finally {
    console.warn = warn;
  }
}

describe("Google sandbox token flows", () => {
  let sandbox: GoogleSandbox;
  let dir: string;

  before(async () => {
    sandbox = await startGoogleSandbox();
    dir = await mkdtemp(join(tmpdir(), "sandbox-auth-"));
  });
  after(async () => {
    await sandbox.close();
    await rm(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sandbox.reset();
  });

  const policyUrl = () => `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001`;

  it("writes an external_account file that google-auth-library turns into a working token (STS, then impersonation)", async () => {
    const keyFile = await sandbox.writeCredentialsFile(dir);
    const file = JSON.parse(await readFile(keyFile, "utf8")) as Record<string, unknown>;
    assert.deepEqual(file, {
      type: "external_account",
      audience: AUDIENCE,
      subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
      token_url: `${sandbox.endpoints.sts}/v1/token`,
      credential_source: { file: join(dir, "sandbox-subject-token.jwt"), format: { type: "text" } },
      universe_domain: "googleapis.com",
      service_account_impersonation_url: `${sandbox.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/${DEPLOYER}:generateAccessToken`,
    });
    const token = await quietly(() => new GoogleAuth({ keyFile, scopes: [scope("compute")] }).getAccessToken());
    assert.match(token ?? "", /^ya29\.sandbox\./);
    const res = await call(policyUrl(), { token: token ?? "" });
    assert.equal(res.status, 200);
    assert.deepEqual(
      sandbox.requests().map((r) => [r.route, r.status, r.principal]),
      [
        ["sts.token", 200, undefined],
        ["iamcredentials.serviceAccounts.generateAccessToken", 200, FEDERATED],
        ["compute.firewallPolicies.get", 200, DEPLOYER],
      ],
    );
  });

  it("uses the federated token directly when the file has no impersonation URL", async () => {
    const keyFile = await sandbox.writeCredentialsFile(join(dir, "direct"), { serviceAccount: null, subject: "ci-42" });
    const token = await quietly(() =>
      new GoogleAuth({ keyFile, scopes: [scope("compute.readonly")] }).getAccessToken(),
    );
    const res = await call(policyUrl(), { token: token ?? "" });
    assert.equal(res.status, 200);
    assert.equal(sandbox.requests().at(-1)?.principal, FEDERATED.replace("sandbox-ci", "ci-42"));
    const move = await call(
      `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001/move?parentId=folders/200000000001`,
      { method: "POST", token: token ?? "" },
    );
    assert.equal(move.status, 403, "compute.readonly is not enough to move");
  });

  it("answers STS requests it cannot honour with OAuth error bodies", async () => {
    const good = sandbox.issueSubjectToken("sandbox-ci");
    const base = {
      grant_type: "urn:ietf:params:oauth:grant-type:token-exchange",
      audience: AUDIENCE,
      subject_token_type: "urn:ietf:params:oauth:token-type:jwt",
      requested_token_type: "urn:ietf:params:oauth:token-type:access_token",
      scope: scope("cloud-platform"),
      subject_token: good,
    };
    const sts = (values: Record<string, string>) =>
      call(`${sandbox.endpoints.sts}/v1/token`, { method: "POST", ...form(values) });
    const ok = await sts(base);
    assert.equal(ok.status, 200);
    assert.deepEqual(Object.keys(ok.body), ["access_token", "issued_token_type", "token_type", "expires_in"]);
    assert.deepEqual(
      [ok.body.issued_token_type, ok.body.token_type, ok.body.expires_in],
      ["urn:ietf:params:oauth:token-type:access_token", "Bearer", 3600],
    );
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const goodClaims = JSON.parse(Buffer.from(good.split(".")[1] ?? "", "base64url").toString()) as object;
    const forged = signWith(other.privateKey, goodClaims);
    const cases: [Record<string, string>, number, unknown][] = [
      [
        { ...base, grant_type: "client_credentials" },
        400,
        { error: "unsupported_grant_type", error_description: 'Invalid value for "grant_type": client_credentials.' },
      ],
      [
        { ...base, audience: AUDIENCE.replace("sandbox-idp", "other-idp") },
        400,
        {
          error: "invalid_target",
          error_description:
            'The target service indicated by the "audience" parameters is invalid. This might either be because the pool or provider is disabled or deleted or because it doesn\'t exist.',
        },
      ],
      [
        { ...base, subject_token: forged },
        400,
        {
          error: "invalid_grant",
          error_description: "Invalid JWT signature: the subject token was not signed by the identity provider.",
        },
      ],
      [
        { ...base, requested_token_type: "urn:ietf:params:oauth:token-type:id_token" },
        400,
        {
          error: "invalid_request",
          error_description: 'Invalid value for "requested_token_type": urn:ietf:params:oauth:token-type:id_token.',
        },
      ],
    ];
    for (const [values, status, body] of cases) {
      const res = await sts(values);
      assert.deepEqual([res.status, res.body], [status, body]);
    }
  });

  it("takes google-auth for Python's impersonation body (delegates: null) and answers expireTime in whole seconds", async () => {
    const alice = sandbox.mintToken({ principal: fixture.FIXTURE_USER, scopes: ["cloud-platform"] });
    // What google.auth.impersonated_credentials sends when no delegates are configured.
    const res = await call(
      `${sandbox.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/${READER}:generateAccessToken`,
      {
        method: "POST",
        token: alice,
        body: `{"delegates": null, "scope": ["${scope("compute")}"], "lifetime": "3600s"}`,
      },
    );
    assert.equal(res.status, 200, JSON.stringify(res.body));
    // The form google-auth parses (`%Y-%m-%dT%H:%M:%SZ`), as IAM Credentials writes it: no fraction.
    assert.match(str(res.body.expireTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const lifetimeMs = Date.parse(str(res.body.expireTime)) - Date.now();
    assert.ok(lifetimeMs > 3_590_000 && lifetimeMs <= 3_600_000, `expires in ${lifetimeMs} ms`);
    const nullLifetime = await call(
      `${sandbox.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/${READER}:generateAccessToken`,
      { method: "POST", token: alice, body: `{"delegates": null, "scope": ["${scope("compute")}"], "lifetime": null}` },
    );
    assert.equal(nullLifetime.status, 200, JSON.stringify(nullLifetime.body));
    const nullScope = await call(
      `${sandbox.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/${READER}:generateAccessToken`,
      { method: "POST", token: alice, body: `{"delegates": null, "scope": null}` },
    );
    assert.equal(nullScope.status, 400);
  });

  it("impersonates a service account only along granted getAccessToken permissions", async () => {
    const alice = sandbox.mintToken({ principal: fixture.FIXTURE_USER, scopes: ["cloud-platform"] });
    const url = (email: string) =>
      `${sandbox.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/${email}:generateAccessToken`;
    const granted = await call(url(READER), {
      method: "POST",
      token: alice,
      body: '{"scope":["compute"],"lifetime":"600s"}',
    });
    assert.equal(granted.status, 200);
    assert.deepEqual(Object.keys(granted.body), ["accessToken", "expireTime"]);
    const lifetimeMs = Date.parse(str(granted.body.expireTime)) - Date.now();
    assert.ok(lifetimeMs > 590_000 && lifetimeMs <= 600_000, `expires in ${lifetimeMs} ms`);
    assert.equal((await call(policyUrl(), { token: str(granted.body.accessToken) })).status, 200);
    assert.equal(sandbox.requests().at(-1)?.principal, READER);

    const denied = await call(url(DEPLOYER), {
      method: "POST",
      token: alice,
      body: JSON.stringify({ scope: [scope("compute")], delegates: [`projects/-/serviceAccounts/${READER}`] }),
    });
    const message = `Permission 'iam.serviceAccounts.getAccessToken' denied on resource 'projects/-/serviceAccounts/${DEPLOYER}' (or it may not exist).`;
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.body, {
      error: {
        code: 403,
        message,
        errors: [{ message, domain: "global", reason: "forbidden" }],
        status: "PERMISSION_DENIED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "IAM_PERMISSION_DENIED",
            domain: "iam.googleapis.com",
            metadata: { permission: "iam.serviceAccounts.getAccessToken" },
          },
        ],
      },
    });
    const unknown = await call(url("ghost@sandbox-project.iam.gserviceaccount.com"), {
      method: "POST",
      token: alice,
      body: '{"scope":["compute"]}',
    });
    assert.deepEqual(
      [unknown.status, unknown.body.error?.message],
      [404, "Not found; Gaia id not found for email ghost@sandbox-project.iam.gserviceaccount.com"],
    );
    const tooLong = await call(url(READER), {
      method: "POST",
      token: alice,
      body: '{"scope":["compute"],"lifetime":"7200s"}',
    });
    assert.equal(tooLong.status, 400);
  });

  it("issues a token for a service-account key through google-auth-library's JWT client and a rewriting transporter", async () => {
    const key = sandbox.serviceAccountKey(DEPLOYER);
    assert.equal(key.token_uri, `${sandbox.endpoints.oauth2}/token`);
    assert.equal(key.client_email, DEPLOYER);
    assert.match(key.private_key, /^-{5}BEGIN PRIVATE KEY-{5}\n/);
    // google-auth-library ignores token_uri and always posts to oauth2.googleapis.com (its `GOOGLE_TOKEN_URL`): send it
    // here. Fail closed: a request the rewrite misses is refused here (and by the suite's egress guard), never sent.
    const transporter = new gaxios.Gaxios();
    const seen: string[] = [];
    transporter.interceptors.request.add({
      resolved: (options) => {
        seen.push(options.url.toString());
        if (options.url.toString() === "https://oauth2.googleapis.com/token") options.url = new URL(key.token_uri);
        const host = new URL(options.url).hostname;
        if (host !== "127.0.0.1") return Promise.reject(new Error(`the rewrite missed a request to ${host}`));
        return Promise.resolve(options);
      },
    });
    const client = new JWT({
      email: key.client_email,
      key: key.private_key,
      keyId: key.private_key_id,
      scopes: [scope("compute")],
      transporter,
    });
    const { token } = await client.getAccessToken();
    assert.deepEqual(seen, ["https://oauth2.googleapis.com/token"]);
    const move = await call(
      `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001/move?parentId=folders/200000000002`,
      { method: "POST", token: token ?? "" },
    );
    assert.deepEqual([move.status, move.body.user], [200, DEPLOYER]);
  });

  it("verifies JWT-bearer assertions against the service account's key", async () => {
    const key = sandbox.serviceAccountKey(READER);
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: READER, scope: scope("compute.readonly"), aud: key.token_uri, iat: now, exp: now + 3600 };
    const token = (assertion: string) =>
      call(key.token_uri, {
        method: "POST",
        ...form({ grant_type: "urn:ietf:params:oauth:grant-type:jwt-bearer", assertion }),
      });
    const ok = await token(signWith(key.private_key, claims));
    assert.deepEqual([ok.status, ok.body.token_type, ok.body.expires_in], [200, "Bearer", 3599]);
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey;
    const cases: [object, string, unknown][] = [
      [claims, "other", { error: "invalid_grant", error_description: "Invalid JWT Signature." }],
      [
        { ...claims, aud: "https://example.com/token" },
        "own",
        {
          error: "invalid_grant",
          error_description:
            "Invalid JWT: Failed audience check. The right audience is https://oauth2.googleapis.com/token",
        },
      ],
      [
        { ...claims, exp: now + 7200 },
        "own",
        {
          error: "invalid_grant",
          error_description:
            "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
        },
      ],
      [
        { ...claims, scope: "" },
        "own",
        { error: "invalid_scope", error_description: "Invalid OAuth scope or ID token audience provided." },
      ],
      [
        { ...claims, iss: "ghost@sandbox-project.iam.gserviceaccount.com" },
        "own",
        { error: "invalid_grant", error_description: "Invalid grant: account not found" },
      ],
    ];
    for (const [c, signer, body] of cases) {
      const res = await token(signWith(signer === "own" ? key.private_key : other, c));
      assert.deepEqual([res.status, res.body], [400, body]);
    }
  });

  it("refreshes an authorized_user token with UserRefreshClient pointed at the sandbox", async () => {
    const client = new UserRefreshClient({
      clientId: fixture.FIXTURE_OAUTH_CLIENT.clientId,
      clientSecret: fixture.FIXTURE_OAUTH_CLIENT.clientSecret,
      refreshToken: fixture.FIXTURE_OAUTH_CLIENT.refreshToken,
      endpoints: { oauth2TokenUrl: `${sandbox.endpoints.oauth2}/token` },
    });
    const { token } = await client.getAccessToken();
    assert.equal((await call(policyUrl(), { token: token ?? "" })).status, 200);
    assert.equal(sandbox.requests().at(-1)?.principal, fixture.FIXTURE_USER);
    const bad = await call(`${sandbox.endpoints.oauth2}/token`, {
      method: "POST",
      ...form({
        grant_type: "refresh_token",
        client_id: fixture.FIXTURE_OAUTH_CLIENT.clientId,
        client_secret: "wrong",
        refresh_token: fixture.FIXTURE_OAUTH_CLIENT.refreshToken,
      }),
    });
    assert.deepEqual([bad.status, bad.body], [401, { error: "invalid_client", error_description: "Unauthorized" }]);
    const revoked = await call(`${sandbox.endpoints.oauth2}/token`, {
      method: "POST",
      ...form({
        grant_type: "refresh_token",
        client_id: fixture.FIXTURE_OAUTH_CLIENT.clientId,
        client_secret: fixture.FIXTURE_OAUTH_CLIENT.clientSecret,
        refresh_token: "1//unknown",
      }),
    });
    assert.deepEqual(
      [revoked.status, revoked.body],
      [400, { error: "invalid_grant", error_description: "Token has been expired or revoked." }],
    );
  });
});
