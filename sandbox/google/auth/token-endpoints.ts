/**
 * The OAuth token endpoints: STS token exchange (external_account), the oauth2 token endpoint (JWT-bearer for
 * service-account keys, refresh_token for authorized_user). Both answer errors with RFC 6749 bodies
 * `{error, error_description}`; messages copy Google's where known.
 */
import { oauthFailure, ok, type RouteResult } from "../results";
import type { RequestContext, Route } from "../route-table";
import { normalizeScope, SCOPE_PREFIX } from "../scopes";
import { decodeJwt, numericClaim, stringClaim, verifyRs256 } from "./jwt";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "./token-store";

export const TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange";
export const JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer";
export const ACCESS_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:access_token";
const SUBJECT_TOKEN_TYPES: readonly string[] = [
  "urn:ietf:params:oauth:token-type:jwt",
  "urn:ietf:params:oauth:token-type:id_token",
];
/** Audiences google-auth-library and other clients put in JWT-bearer assertions (it hard-codes the first). */
const GOOGLE_TOKEN_AUDIENCES: readonly string[] = [
  "https://oauth2.googleapis.com/token",
  "https://www.googleapis.com/oauth2/v4/token",
  "https://accounts.google.com/o/oauth2/token",
];
/** Leeway for iat/exp checks. */
const CLOCK_SKEW_SECONDS = 300;
const DEFAULT_SCOPE = `${SCOPE_PREFIX}cloud-platform`;

/** Reads a form (or JSON object) body into a map. */
export function readForm(context: RequestContext): Map<string, string> {
  if (context.contentType.includes("application/json")) {
    try {
      const value: unknown = JSON.parse(context.body);
      if (typeof value === "object" && value !== null) {
        return new Map(
          Object.entries(value).flatMap(([k, v]) => (typeof v === "string" ? [[k, v] as [string, string]] : [])),
        );
      }
    } catch {
      return new Map();
    }
    return new Map();
  }
  return new Map(new URLSearchParams(context.body));
}

function splitScopes(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,]+/)
    .filter((s) => s !== "")
    .map(normalizeScope);
}

/** The audience the sandbox's workload identity provider answers to. */
export function federationAudience(context: RequestContext): string {
  const f = context.state.seedData.federation;
  return `//iam.googleapis.com/projects/${f.projectNumber}/locations/global/workloadIdentityPools/${f.poolId}/providers/${f.providerId}`;
}

/** The principal of a federated subject. */
export function federatedPrincipal(context: RequestContext, subject: string): string {
  const f = context.state.seedData.federation;
  return `principal://iam.googleapis.com/projects/${f.projectNumber}/locations/global/workloadIdentityPools/${f.poolId}/subject/${subject}`;
}

function stsExchange(context: RequestContext): RouteResult {
  const form = readForm(context);
  const grantType = form.get("grant_type");
  if (grantType !== TOKEN_EXCHANGE_GRANT) {
    return oauthFailure(400, "unsupported_grant_type", `Invalid value for "grant_type": ${grantType ?? "(missing)"}.`);
  }
  const audience = form.get("audience") ?? "";
  if (!/^\/\/iam\.googleapis\.com\/(projects|locations)\//.test(audience)) {
    return oauthFailure(
      400,
      "invalid_request",
      'Invalid value for "audience". This value should be the full resource name of the Identity Provider. See https://cloud.google.com/iam/docs/reference/sts/rest/v1/TopLevel/token for the list of possible formats.',
    );
  }
  if (audience !== federationAudience(context)) {
    return oauthFailure(
      400,
      "invalid_target",
      `The target service indicated by the "audience" parameters is invalid. This might either be because the pool or provider is disabled or deleted or because it doesn't exist.`,
    );
  }
  const subjectTokenType = form.get("subject_token_type") ?? "";
  if (!SUBJECT_TOKEN_TYPES.includes(subjectTokenType)) {
    return oauthFailure(
      400,
      "invalid_request",
      `Invalid value for "subject_token_type": ${subjectTokenType || "(missing)"}.`,
    );
  }
  const requested = form.get("requested_token_type") ?? "";
  if (requested !== ACCESS_TOKEN_TYPE) {
    return oauthFailure(
      400,
      "invalid_request",
      `Invalid value for "requested_token_type": ${requested || "(missing)"}.`,
    );
  }
  const jwt = decodeJwt(form.get("subject_token") ?? "");
  if (jwt === undefined) return oauthFailure(400, "invalid_grant", "The subject token is not a valid JWT.");
  if (!verifyRs256(jwt, context.env.keys.identityProvider.publicKey)) {
    return oauthFailure(
      400,
      "invalid_grant",
      "Invalid JWT signature: the subject token was not signed by the identity provider.",
    );
  }
  const issuer = stringClaim(jwt, "iss");
  if (issuer !== context.env.idpIssuer) {
    return oauthFailure(
      400,
      "invalid_grant",
      `The issuer in ID Token ${issuer ?? "(missing)"} does not match the expected ones.`,
    );
  }
  const tokenAudience = stringClaim(jwt, "aud");
  if (tokenAudience !== `https:${audience}`) {
    return oauthFailure(
      400,
      "invalid_grant",
      `The audience in ID Token [${tokenAudience ?? ""}] does not match the expected audience.`,
    );
  }
  const nowSeconds = Math.floor(context.nowMs / 1000);
  const exp = numericClaim(jwt, "exp") ?? 0;
  const iat = numericClaim(jwt, "iat") ?? Number.POSITIVE_INFINITY;
  if (exp <= nowSeconds) return oauthFailure(400, "invalid_grant", "The ID Token has expired.");
  if (iat > nowSeconds + CLOCK_SKEW_SECONDS) {
    return oauthFailure(400, "invalid_grant", `ID Token issued at ${iat} is in the future.`);
  }
  const subject = stringClaim(jwt, "sub") ?? "";
  if (subject === "") return oauthFailure(400, "invalid_grant", "The ID Token has no subject.");
  const scopes = splitScopes(form.get("scope"));
  const lifetime = Math.min(DEFAULT_TOKEN_LIFETIME_SECONDS, exp - nowSeconds);
  const principal = federatedPrincipal(context, subject);
  const { token } = context.env.tokens.issue(principal, scopes.length > 0 ? scopes : [DEFAULT_SCOPE], lifetime);
  return ok({ access_token: token, issued_token_type: ACCESS_TOKEN_TYPE, token_type: "Bearer", expires_in: lifetime });
}

function jwtBearer(context: RequestContext, form: Map<string, string>): RouteResult {
  const assertion = form.get("assertion");
  if (assertion === undefined || assertion === "") {
    return oauthFailure(400, "invalid_request", "Missing required parameter: assertion");
  }
  const jwt = decodeJwt(assertion);
  if (jwt === undefined) return oauthFailure(400, "invalid_grant", "Invalid JWT: the assertion is not a compact JWS.");
  const issuer = stringClaim(jwt, "iss") ?? "";
  const key = context.state.serviceAccountExists(issuer) ? context.env.keys.findServiceAccountKey(issuer) : undefined;
  if (key === undefined) return oauthFailure(400, "invalid_grant", "Invalid grant: account not found");
  const kid = jwt.header["kid"];
  if ((kid !== undefined && kid !== key.keyId) || !verifyRs256(jwt, key.publicKey)) {
    return oauthFailure(400, "invalid_grant", "Invalid JWT Signature.");
  }
  const audience = stringClaim(jwt, "aud") ?? "";
  if (![...GOOGLE_TOKEN_AUDIENCES, `${context.env.endpoints.oauth2}/token`].includes(audience)) {
    return oauthFailure(
      400,
      "invalid_grant",
      `Invalid JWT: Failed audience check. The right audience is ${GOOGLE_TOKEN_AUDIENCES[0] ?? ""}`,
    );
  }
  const nowSeconds = Math.floor(context.nowMs / 1000);
  const iat = numericClaim(jwt, "iat");
  const exp = numericClaim(jwt, "exp");
  if (
    iat === undefined ||
    exp === undefined ||
    exp - iat > 3600 ||
    iat > nowSeconds + CLOCK_SKEW_SECONDS ||
    exp < nowSeconds - CLOCK_SKEW_SECONDS
  ) {
    return oauthFailure(
      400,
      "invalid_grant",
      "Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.",
    );
  }
  const subject = stringClaim(jwt, "sub");
  if (subject !== undefined && subject !== issuer) {
    return oauthFailure(
      401,
      "unauthorized_client",
      "Client is unauthorized to retrieve access tokens using this method, or client not authorized for any of the scopes requested.",
    );
  }
  if (jwt.claims["target_audience"] !== undefined) {
    return oauthFailure(400, "invalid_request", "ID tokens (target_audience) are not issued by the sandbox.");
  }
  const scopes = splitScopes(stringClaim(jwt, "scope"));
  if (scopes.length === 0) {
    return oauthFailure(400, "invalid_scope", "Invalid OAuth scope or ID token audience provided.");
  }
  const lifetime = DEFAULT_TOKEN_LIFETIME_SECONDS - 1;
  const { token } = context.env.tokens.issue(issuer, scopes, lifetime);
  return ok({ access_token: token, expires_in: lifetime, token_type: "Bearer" });
}

function refreshToken(context: RequestContext, form: Map<string, string>): RouteResult {
  const clientId = form.get("client_id") ?? "";
  const client = context.state.seedData.oauthClients.find((c) => c.clientId === clientId);
  if (client === undefined) return oauthFailure(401, "invalid_client", "The OAuth client was not found.");
  if (form.get("client_secret") !== client.clientSecret) return oauthFailure(401, "invalid_client", "Unauthorized");
  const refresh = client.refreshTokens.find((r) => r.refreshToken === form.get("refresh_token"));
  if (refresh === undefined) return oauthFailure(400, "invalid_grant", "Token has been expired or revoked.");
  const granted = refresh.scopes.map(normalizeScope);
  const requested = splitScopes(form.get("scope"));
  if (requested.some((s) => !granted.includes(s))) {
    return oauthFailure(400, "invalid_scope", "Some requested scopes were invalid or exceed the granted scopes.");
  }
  const scopes = requested.length > 0 ? requested : granted;
  const lifetime = DEFAULT_TOKEN_LIFETIME_SECONDS - 1;
  const { token } = context.env.tokens.issue(refresh.principal, scopes, lifetime);
  return ok({ access_token: token, expires_in: lifetime, scope: scopes.join(" "), token_type: "Bearer" });
}

function oauth2Token(context: RequestContext): RouteResult {
  const form = readForm(context);
  const grantType = form.get("grant_type");
  if (grantType === undefined || grantType === "") {
    return oauthFailure(400, "invalid_request", "Missing required parameter: grant_type");
  }
  if (grantType === JWT_BEARER_GRANT) return jwtBearer(context, form);
  if (grantType === "refresh_token") return refreshToken(context, form);
  return oauthFailure(400, "unsupported_grant_type", `Invalid grant_type: ${grantType}`);
}

export const TOKEN_ROUTES: readonly Route[] = [
  {
    id: "sts.token",
    service: "sts",
    method: "POST",
    template: "/v1/token",
    api: () => ({ service: "sts.googleapis.com", method: "google.identity.sts.v1.SecurityTokenService.ExchangeToken" }),
    scopes: undefined,
    body: "form",
    queryParams: [],
    invalidReason: "badRequest",
    handle: stsExchange,
  },
  {
    id: "oauth2.token",
    service: "oauth2",
    method: "POST",
    template: "/token",
    api: () => ({ service: "oauth2.googleapis.com", method: "oauth2.token" }),
    scopes: undefined,
    body: "form",
    queryParams: [],
    invalidReason: "badRequest",
    handle: oauth2Token,
  },
];
