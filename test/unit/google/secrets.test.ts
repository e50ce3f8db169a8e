import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import axios, { AxiosError, AxiosHeaders } from "axios";
import type { InternalAxiosRequestConfig } from "axios";
import { ApiError } from "../../../provider/errors/google/api-error";
import { AuthError } from "../../../provider/errors/google/auth-error";
import { createGoogleClient } from "../../../provider/google/client";
import { redactText, redactUrl } from "../../../provider/errors/google/redact";
import type { TokenSource } from "../../../provider/google/auth";
import { testSettings } from "./helpers";

const TOKEN = "ya29.a0AfB_SECRET-access-token-value";
const QUERY_KEY = "AIzaSyQUERY-SECRET-KEY";

/** Everything a person or a log could see of an error: message, stack, JSON, and a deep inspect with hidden fields. */
function everything(error: unknown): string {
  return [
    String(error),
    error instanceof Error ? (error.stack ?? "") : "",
    JSON.stringify(error),
    inspect(error, { showHidden: true, depth: 8 }),
  ].join("\n");
}

const fixedToken: TokenSource = { refreshable: false, getAccessToken: () => Promise.resolve(TOKEN) };

async function caught(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  assert.fail("expected a failure");
}

describe("secrets", () => {
  it("keeps a token from the Authorization header and a URL query out of a transport failure", async () => {
    const instance = axios.create({
      adapter: (config: InternalAxiosRequestConfig) => {
        const auth = String(config.headers.get("Authorization"));
        const message = `connect ECONNRESET while sending Authorization: ${auth} to ${config.url ?? ""}?access_token=${TOKEN}&key=${QUERY_KEY}`;
        return Promise.reject(new AxiosError(message, "ECONNRESET", config));
      },
    });
    const client = createGoogleClient({
      settings: testSettings(),
      axios: instance,
      tokenSource: fixedToken,
      retry: { maxAttempts: 1 },
    });
    const error = await caught(client.call("compute.firewallPolicies.get", { firewallPolicy: "1" }));
    assert.ok(error instanceof ApiError);
    assert.equal(error.httpStatus, 0);
    const seen = everything(error);
    assert.ok(!seen.includes("SECRET"), seen);
    assert.ok(error.message.includes("[REDACTED]"), error.message);
  });

  it("redacts a token a server echoes back in its error body", async () => {
    const instance = axios.create({
      adapter: (config: InternalAxiosRequestConfig) =>
        Promise.resolve({
          data: JSON.stringify({
            error: {
              code: 400,
              message: `Bad header Authorization: Bearer ${TOKEN}`,
              status: "INVALID_ARGUMENT",
              errors: [{ message: `token ${TOKEN} rejected`, reason: "badRequest" }],
            },
          }),
          status: 400,
          statusText: "Bad Request",
          headers: new AxiosHeaders(),
          config,
        }),
    });
    const client = createGoogleClient({ settings: testSettings(), axios: instance, tokenSource: fixedToken });
    const error = await caught(client.call("compute.firewallPolicies.get", { firewallPolicy: "1" }));
    assert.ok(error instanceof ApiError);
    assert.ok(!everything(error).includes("SECRET"));
    assert.equal(error.serverMessage, "Bad header Authorization: Bearer [REDACTED]");
    assert.equal(error.errors[0]?.message, "token [REDACTED] rejected");
  });

  it("strips secret query parameters and user credentials from an ApiError url", () => {
    const error = new ApiError({
      service: "compute",
      endpoint: "compute.firewallPolicies.get",
      method: "GET",
      url: `https://user:pw@compute.test/x?access_token=${TOKEN}&key=${QUERY_KEY}&oauth_token=abc&parentId=folders%2F1`,
      httpStatus: 500,
      serverMessage: `see https://compute.test/x?access_token=${TOKEN}`,
    });
    assert.equal(error.url, "https://compute.test/x?parentId=folders%2F1");
    assert.ok(!everything(error).includes("SECRET"));
  });

  it("keeps the failure of a token source free of credentials", async () => {
    const failing: TokenSource = {
      refreshable: true,
      getAccessToken: () =>
        Promise.reject(
          new AuthError({
            tokenUrl: `http://127.0.0.1:1/oauth2/token?assertion=eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.SECRETSIG`,
            httpStatus: 400,
            reason: "invalid_grant",
            serverMessage: "Invalid JWT eyJhbGciOiJSUzI1NiJ9.eyJpc3MiOiJ4In0.SECRETSIG for client_secret=SECRETVALUE",
          }),
        ),
    };
    const client = createGoogleClient({ settings: testSettings(), tokenSource: failing });
    const error = await caught(client.call("compute.firewallPolicies.get", { firewallPolicy: "1" }));
    assert.ok(error instanceof ApiError);
    assert.equal(error.service, "auth");
    assert.equal(error.url, "http://127.0.0.1:1/oauth2/token");
    assert.ok(!everything(error).includes("SECRET"), everything(error));
    assert.equal(
      error.message.split(". Provide valid credentials")[0],
      "compute.firewallPolicies.get firewall policy 1: 400 invalid_grant: could not obtain an access token from " +
        "http://127.0.0.1:1/oauth2/token: Invalid JWT [REDACTED] for client_secret=[REDACTED]",
    );
  });

  it("redacts bearer tokens, Google tokens, JWTs, private keys and secret fields from text", () => {
    assert.equal(redactText("Authorization: Bearer abc.def-ghi"), "Authorization: Bearer [REDACTED]");
    assert.equal(redactText("token ya29.A0abc_def"), "token [REDACTED]");
    assert.equal(redactText("jwt eyJhbGciOi.eyJzdWIi.c2ln end"), "jwt [REDACTED] end");
    assert.equal(
      redactText(
        `key ${"-".repeat(5)}BEGIN PRIVATE KEY${"-".repeat(5)}\nMIIB\n${"-".repeat(5)}END PRIVATE KEY${"-".repeat(5)} done`,
      ),
      "key [REDACTED] done",
    );
    assert.equal(redactText('{"refresh_token":"1//abc","x":"y"}'), '{"refresh_token":"[REDACTED]","x":"y"}');
    assert.equal(redactText("GET /x?alt=json&key=abc123&fields=a"), "GET /x?alt=json&key=[REDACTED]&fields=a");
    assert.equal(redactText("my opaque-secret-123 here", ["opaque-secret-123"]), "my [REDACTED] here");
    assert.equal(redactUrl("not a url?access_token=x"), "not a url");
  });
});
