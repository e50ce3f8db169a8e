/**
 * The HTTP face of the core: reads a request, routes it (control plane or API), enforces auth and the shared
 * checks, applies faults, renders the result and logs the request. Only this file touches node:http objects.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { setTimeout as delay } from "node:timers/promises";
import { IAM_CREDENTIALS_ROUTES } from "./auth/iam-credentials";
import { TOKEN_ROUTES } from "./auth/token-endpoints";
import { handleControlPlane } from "./control-plane";
import type { SandboxCore } from "./core";
import { DEFAULT_FAULT_LATENCY_MS, faultError, type FiredFault } from "./faults";
import {
  credentialsMissing,
  googleError,
  insufficientScopes,
  invalidCredentials,
  invalidField,
  unknownHost,
  unknownRoute,
  userProjectDenied,
} from "./google-errors";
import { COMPUTE_ROUTES } from "./handlers-compute";
import { DISPLAY_VIDEO_ROUTES } from "./handlers-display-video";
import { IAM_ROUTES } from "./handlers-iam";
import { KMS_ROUTES } from "./handlers-kms";
import { RESOURCE_ROUTES } from "./handlers-resources";
import { checkEmptyBody, checkQuery } from "./request-checks";
import { render, type RouteResult } from "./results";
import { RouteTable, SERVICE_PREFIXES, type Route, type RouteMatch } from "./route-table";
import type { RequestLogEntry } from "./types";

/** What the caller needs on the project it names in x-goog-user-project (roles/serviceusage.serviceUsageConsumer). */
export const USE_PROJECT_PERMISSION = "serviceusage.services.use";

/** Requests with larger bodies get 413. */
export const MAX_REQUEST_BODY_BYTES = 1_048_576;

/** Every API route the sandbox serves. */
export const ROUTES: readonly Route[] = [
  ...IAM_ROUTES,
  ...COMPUTE_ROUTES,
  ...RESOURCE_ROUTES,
  ...DISPLAY_VIDEO_ROUTES,
  ...KMS_ROUTES,
  ...TOKEN_ROUTES,
  ...IAM_CREDENTIALS_ROUTES,
];

const TABLE = new RouteTable(ROUTES);

class BodyTooLargeError extends Error {}

/** Query parameters that carry credentials; the request log keeps their names, not their values. */
const SECRET_QUERY_PARAMS: ReadonlySet<string> = new Set(["access_token", "oauth_token", "key"]);

function redactQuery(params: URLSearchParams): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of params) query[name] = SECRET_QUERY_PARAMS.has(name) ? "REDACTED" : value;
  return query;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BODY_BYTES) throw new BodyTooLargeError();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString("utf8");
}

function send(res: ServerResponse, result: RouteResult): number {
  return sendBody(res, result).status;
}

function sendBody(res: ServerResponse, result: RouteResult): { status: number; body: string } {
  const rendered = render(result, !/[?&]prettyPrint=false(?:&|$)/.test(res.req.url ?? ""));
  res.writeHead(rendered.status, { ...rendered.headers, "content-length": Buffer.byteLength(rendered.body) });
  res.end(rendered.body);
  return { status: rendered.status, body: rendered.body };
}

function bearerToken(req: IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m?.[1] ?? "";
}

interface Authenticated {
  readonly principal: string;
  readonly failure?: RouteResult;
}

/** Checks the bearer token of a route that needs one; `principal` is set whenever the token is valid. */
function authenticate(
  core: SandboxCore,
  route: Route,
  params: Record<string, string>,
  req: IncomingMessage,
): Authenticated {
  if (route.scopes === undefined) return { principal: "" };
  const api = route.api(params);
  const token = bearerToken(req);
  if (token === undefined) return { principal: "", failure: credentialsMissing(api) };
  const lookup = token === "" ? ({ kind: "unknown" } as const) : core.tokens.lookup(token);
  if (lookup.kind === "unknown") {
    return { principal: "", failure: invalidCredentials(api, "ACCESS_TOKEN_TYPE_UNSUPPORTED") };
  }
  if (lookup.kind === "expired") return { principal: "", failure: invalidCredentials(api, "ACCESS_TOKEN_EXPIRED") };
  const principal = lookup.grant.principal;
  if (!route.scopes.some((s) => lookup.grant.scopes.has(s))) {
    return { principal, failure: insufficientScopes(api, route.scopes) };
  }
  return { principal };
}

function handleApi(
  core: SandboxCore,
  route: Route,
  params: Record<string, string>,
  req: IncomingMessage,
  url: URL,
  body: string,
): { result: RouteResult; principal: string } {
  const auth = authenticate(core, route, params, req);
  if (auth.failure !== undefined) return { result: auth.failure, principal: auth.principal };
  // The quota project must be one the caller may bill, checked by the front end before the API sees the request.
  const userProject = req.headers["x-goog-user-project"];
  if (
    route.scopes !== undefined &&
    typeof userProject === "string" &&
    !core.state().hasPermission(auth.principal, USE_PROJECT_PERMISSION, `projects/${userProject}`)
  ) {
    return { result: userProjectDenied(userProject, route.api(params).service), principal: auth.principal };
  }
  // Rate quotas are the front end's: after authentication (they are the caller's project's), before the API.
  const overQuota = core.rateQuotas.admit(route, route.method, core.clock.now());
  if (overQuota !== undefined) return { result: overQuota, principal: auth.principal };
  const failure = checkQuery(route, url.searchParams) ?? checkEmptyBody(route, body);
  if (failure !== undefined) return { result: failure, principal: auth.principal };
  const state = core.state();
  let result: RouteResult;
  try {
    result = route.handle({
      method: route.method,
      params,
      query: url.searchParams,
      body,
      contentType: req.headers["content-type"] ?? "",
      principal: auth.principal,
      nowMs: core.clock.now(),
      state,
      env: core.env,
    });
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    result = googleError({
      httpStatus: 500,
      message: `Internal error encountered (${detail}).`,
      reason: "backendError",
    });
  }
  return { result, principal: auth.principal };
}

/** What the request log keeps of the headers Google's front end records: the host, reason and quota project. */
function headerFields(req: IncomingMessage, host: string | undefined): Partial<RequestLogEntry> {
  const reason = req.headers["x-goog-request-reason"];
  const userProject = req.headers["x-goog-user-project"];
  return {
    ...(host === undefined ? {} : { host }),
    ...(typeof reason === "string" ? { requestReason: reason } : {}),
    ...(typeof userProject === "string" ? { userProject } : {}),
  };
}

async function serveApi(
  core: SandboxCore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  host: UniverseHost,
): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const query = redactQuery(url.searchParams);
  const fields = headerFields(req, host.kind === "loopback" ? undefined : host.host);
  const log = (entry: Partial<RequestLogEntry> & { status: number }, responseBody = ""): void => {
    core.logRequest({ method, path: url.pathname, query, ...fields, ...entry }, responseBody);
  };
  if (host.kind === "foreign") {
    // Google's front end serves no such host: a name outside the universe, or a service it does not have.
    log({ status: send(res, unknownHost(host.host, url.pathname, core.universeDomain)) });
    return;
  }
  let body: string;
  try {
    body = await readBody(req);
  } catch (e) {
    if (!(e instanceof BodyTooLargeError)) throw e;
    const status = send(
      res,
      googleError({ httpStatus: 413, message: "Request entity too large.", reason: "badRequest" }),
    );
    log({ status });
    return;
  }
  const match = TABLE.match(method, url.pathname);
  core.notify({
    phase: "received",
    method,
    path: url.pathname,
    ...(match.kind === "none" ? {} : { route: match.route.id }),
  });
  if (match.kind === "none") {
    log({ status: send(res, unknownRoute(method, url.pathname)) });
    return;
  }
  const route = match.route;
  core.enter(route.service);
  try {
    await serveRoute(core, req, res, url, match, log, body);
  } finally {
    core.leave(route.service);
  }
}

async function serveRoute(
  core: SandboxCore,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  match: Exclude<RouteMatch, { kind: "none" }>,
  log: (entry: Partial<RequestLogEntry> & { status: number }, responseBody?: string) => void,
  body: string,
): Promise<void> {
  const method = (req.method ?? "GET").toUpperCase();
  const route = match.route;
  if (match.kind === "badEncoding") {
    const failure = invalidField("", `Invalid percent-encoding in the URL path segment '${match.segment}'.`);
    log({ status: send(res, failure), route: route.id });
    return;
  }
  const params = { ...match.params };
  const fired: FiredFault | undefined = core.faults.pick(route.id, method);
  const faultFields = fired === undefined ? {} : { fault: fired.label };
  const latencyMs = fired?.rule.kind === "latency" ? (fired.rule.latencyMs ?? DEFAULT_FAULT_LATENCY_MS) : 0;
  if (latencyMs > 0 && fired?.phase === "before") await delay(latencyMs);
  if (fired !== undefined && fired.phase === "before" && fired.rule.kind !== "latency" && !corrupts(fired)) {
    if (fired.rule.kind === "drop") {
      req.socket.destroy();
      log({ status: 0, route: route.id, ...faultFields });
      return;
    }
    log({ status: send(res, faultError(fired.rule, route.api(params))), route: route.id, ...faultFields });
    return;
  }
  const handled = handleApi(core, route, params, req, url, body);
  const { principal } = handled;
  const result = fired !== undefined && corrupts(fired) ? corruptChecksums(handled.result) : handled.result;
  if (latencyMs > 0 && fired?.phase === "after") await delay(latencyMs);
  const principalField = principal === "" ? {} : { principal };
  if (fired !== undefined && fired.phase === "after" && fired.rule.kind !== "latency" && !corrupts(fired)) {
    if (fired.rule.kind === "drop") {
      req.socket.destroy();
      log({ status: 0, route: route.id, ...principalField, ...faultFields });
      return;
    }
    const status = send(res, faultError(fired.rule, route.api(params)));
    log({ status, route: route.id, ...principalField, ...faultFields });
    return;
  }
  const sent = sendBody(res, result);
  log({ status: sent.status, route: route.id, ...principalField, ...faultFields }, sent.body);
}

const corrupts = (fired: FiredFault): boolean => fired.rule.kind === "corruptChecksum";
/** The CRC32C fields an integrity-checking client verifies (Cloud KMS). */
const CHECKSUM_FIELDS = ["signatureCrc32c", "pemCrc32c"] as const;

/** A JSON answer whose checksum fields are off by one (mod 2^32): the "corruptChecksum" fault. */
function corruptChecksums(result: RouteResult): RouteResult {
  if (result.kind !== "json" || typeof result.body !== "object" || result.body === null) return result;
  const body = { ...(result.body as Record<string, unknown>) };
  for (const field of CHECKSUM_FIELDS) {
    const value = body[field];
    if (typeof value === "string") body[field] = String((Number(value) + 1) % 2 ** 32);
  }
  return { ...result, body };
}

type UniverseHost =
  | { readonly kind: "loopback" }
  | { readonly kind: "service"; readonly host: string; readonly prefix: string }
  | { readonly kind: "foreign"; readonly host: string };

const SERVICE_BY_HOST_LABEL: ReadonlyMap<string, string> = new Map(
  Object.values(SERVICE_PREFIXES).map((prefix) => [prefix.slice(1), prefix]),
);

/**
 * Where a Host header points: a service of the sandbox's universe (`<service>.<universe>`), a service host of another
 * universe (`compute.elsewhere.example`), or the sandbox itself (127.0.0.1, localhost, any other name: path roots).
 */
function universeHost(header: string | undefined, universeDomain: string): UniverseHost {
  const host = (header ?? "").replace(/:\d+$/, "").toLowerCase();
  const dot = host.indexOf(".");
  const prefix = dot > 0 ? SERVICE_BY_HOST_LABEL.get(host.slice(0, dot)) : undefined;
  if (prefix === undefined || /^[\d.]+$/.test(host)) return { kind: "loopback" };
  return host.slice(dot + 1) === universeDomain ? { kind: "service", host, prefix } : { kind: "foreign", host };
}

/** The request listener of the sandbox's server. */
export function createRequestListener(core: SandboxCore): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const host = universeHost(req.headers.host, core.universeDomain);
    // A universe host's paths are relative to its service root: the same routes as under the sandbox's path prefix.
    const url = new URL((host.kind === "service" ? host.prefix : "") + (req.url ?? "/"), "http://127.0.0.1");
    const task =
      host.kind === "loopback" && (url.pathname === "/_sandbox" || url.pathname.startsWith("/_sandbox/"))
        ? readBody(req).then((body) =>
            send(res, handleControlPlane(core, (req.method ?? "GET").toUpperCase(), url, body)),
          )
        : serveApi(core, req, res, url, host);
    task.catch((e: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const message = e instanceof BodyTooLargeError ? "Request entity too large." : "Internal error encountered.";
      send(
        res,
        googleError({ httpStatus: e instanceof BodyTooLargeError ? 413 : 500, message, reason: "backendError" }),
      );
    });
  };
}
