/**
 * IAM Credentials v1 `generateAccessToken`: service-account impersonation. The caller (bearer token, scope iam or
 * cloud-platform) needs `iam.serviceAccounts.getAccessToken` on the first delegate, each delegate on the next,
 * and the last one on the target; the new token belongs to the target with the requested scopes.
 */
import { wholeSecondsTimestamp } from "../clock";
import { iamPermissionDenied, invalidField, notFound } from "../google-errors";
import { checkKnownFields, parseJsonObject } from "../request-checks";
import { ok, type RouteResult } from "../results";
import type { RequestContext, Route } from "../route-table";
import { IAM_CREDENTIALS_SCOPES, normalizeScope } from "../scopes";
import { DEFAULT_TOKEN_LIFETIME_SECONDS } from "./token-store";

export const GET_ACCESS_TOKEN_PERMISSION = "iam.serviceAccounts.getAccessToken";
/** generateAccessToken's default upper bound without the lifetime-extension org policy. */
const MAX_LIFETIME_SECONDS = 3600;
const DELEGATE = /^projects\/-\/serviceAccounts\/([^/]+)$/;

/** Resolves an account path segment (email or unique id) to a seeded service account email. */
function resolveAccount(context: RequestContext, account: string): string | undefined {
  const found = context.state.seedData.serviceAccounts.find((sa) => sa.email === account || sa.uniqueId === account);
  return found?.email;
}

function parseLifetime(value: unknown): number | "invalid" {
  if (value === undefined || value === null) return DEFAULT_TOKEN_LIFETIME_SECONDS;
  if (typeof value !== "string") return "invalid";
  const m = /^([0-9]+)(?:\.[0-9]{1,9})?s$/.exec(value);
  const seconds = m === null ? Number.NaN : Number(m[1]);
  return Number.isFinite(seconds) && seconds >= 1 && seconds <= MAX_LIFETIME_SECONDS ? seconds : "invalid";
}

/** A repeated string field; ProtoJSON reads `null` as the field's default, the empty list (google-auth sends it). */
function stringList(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === "string")) return undefined;
  return value;
}

function generateAccessToken(context: RequestContext): RouteResult {
  const { project, account } = context.params as { project: string; account: string };
  const email = resolveAccount(context, account);
  if (email === undefined) return notFound(`Not found; Gaia id not found for email ${account}`);
  const accountProject = context.state.seedData.serviceAccounts.find((sa) => sa.email === email)?.projectId;
  if (project !== "-" && project !== accountProject) {
    return invalidField(
      "name",
      `Invalid resource name 'projects/${project}/serviceAccounts/${account}': use 'projects/-'.`,
    );
  }
  const parsed = parseJsonObject(context.body);
  if (!parsed.ok) return parsed.failure;
  const unknown = checkKnownFields(parsed.value, ["scope", "lifetime", "delegates"]);
  if (unknown !== undefined) return unknown;
  const scopes = stringList(parsed.value["scope"]);
  if (scopes === undefined || scopes.length === 0) {
    return invalidField("scope", "Scope required: 'scope' must list at least one OAuth scope.");
  }
  const lifetime = parseLifetime(parsed.value["lifetime"]);
  if (lifetime === "invalid") {
    return invalidField(
      "lifetime",
      `Invalid value for 'lifetime': ${JSON.stringify(parsed.value["lifetime"])}. It must be a duration between 1s and ${MAX_LIFETIME_SECONDS}s, for example "3600s".`,
    );
  }
  const delegatePaths = stringList(parsed.value["delegates"]);
  if (delegatePaths === undefined) return invalidField("delegates", "'delegates' must be a list of strings.");
  const chain: string[] = [];
  for (const path of delegatePaths) {
    const delegate = DELEGATE.exec(path)?.[1];
    if (delegate === undefined) {
      return invalidField("delegates", `Invalid delegate '${path}': use 'projects/-/serviceAccounts/<email>'.`);
    }
    const delegateEmail = resolveAccount(context, delegate);
    if (delegateEmail === undefined) return notFound(`Not found; Gaia id not found for email ${delegate}`);
    chain.push(delegateEmail);
  }
  chain.push(email);
  let caller = context.principal;
  for (const target of chain) {
    const resource = `projects/-/serviceAccounts/${target}`;
    if (!context.state.hasPermission(caller, GET_ACCESS_TOKEN_PERMISSION, resource)) {
      return iamPermissionDenied(GET_ACCESS_TOKEN_PERMISSION, resource);
    }
    caller = target;
  }
  const { token, grant } = context.env.tokens.issue(email, scopes.map(normalizeScope), lifetime);
  return ok({ accessToken: token, expireTime: wholeSecondsTimestamp(grant.expiresAtMs) });
}

export const IAM_CREDENTIALS_ROUTES: readonly Route[] = [
  {
    id: "iamcredentials.serviceAccounts.generateAccessToken",
    service: "iamCredentials",
    method: "POST",
    template: "/v1/projects/{project}/serviceAccounts/{account}:generateAccessToken",
    api: () => ({
      service: "iamcredentials.googleapis.com",
      method: "google.iam.credentials.v1.IAMCredentials.GenerateAccessToken",
    }),
    scopes: IAM_CREDENTIALS_SCOPES,
    body: "json",
    queryParams: [],
    invalidReason: "badRequest",
    handle: generateAccessToken,
  },
];
