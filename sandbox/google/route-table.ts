/**
 * The route model: what a route declares (service, method, path template, accepted scopes, body rule, query
 * parameters) and how a request path is matched against the table. Templates use the real API paths relative to
 * the service root; `{name}` captures one percent-encoded path segment (or part of one, as in `{pool}:getIamPolicy`).
 */
import type { ApiMethod } from "./google-errors";
import type { RouteResult } from "./results";
import type { SandboxState } from "./state";
import type { GoogleSandboxEndpoints, MoveOutcome } from "./types";
import type { KeyRing } from "./auth/key-ring";
import type { TokenStore } from "./auth/token-store";

/** The path prefix of each service root under the sandbox URL. */
export const SERVICE_PREFIXES: Readonly<Record<keyof GoogleSandboxEndpoints, string>> = {
  iam: "/iam",
  compute: "/compute",
  deploymentManager: "/deploymentmanager",
  workspaceEvents: "/workspaceevents",
  displayVideo: "/displayvideo",
  kms: "/cloudkms",
  sts: "/sts",
  iamCredentials: "/iamcredentials",
  oauth2: "/oauth2",
};

/** What handlers may use besides the state. */
export interface SandboxEnv {
  readonly endpoints: GoogleSandboxEndpoints;
  readonly moveDurationMs: number;
  readonly tokens: TokenStore;
  readonly keys: KeyRing;
  /** `iss` of the subject tokens the sandbox's identity provider signs. */
  readonly idpIssuer: string;
  /** The outcome the next accepted move gets. */
  moveOutcome(): MoveOutcome;
}

export interface RequestContext {
  readonly method: string;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** The raw request body as text. */
  readonly body: string;
  readonly contentType: string;
  /** The principal of the bearer token; "" on routes without bearer auth. */
  readonly principal: string;
  readonly nowMs: number;
  readonly state: SandboxState;
  readonly env: SandboxEnv;
}

export interface Route {
  /** For example "compute.firewallPolicies.move". */
  readonly id: string;
  readonly service: keyof GoogleSandboxEndpoints;
  readonly method: "GET" | "POST" | "DELETE";
  /** Path relative to the service root, for example "/v1beta/subscriptions/{subscription}". */
  readonly template: string;
  /** Extra constraints on captured parameters; a mismatch means the route does not match (404). */
  readonly paramPatterns?: Readonly<Record<string, RegExp>>;
  /** ErrorInfo service and method, for auth errors. */
  readonly api: (params: Readonly<Record<string, string>>) => ApiMethod;
  /** Accepted scopes (any one); undefined = the route takes no bearer token (token endpoints). */
  readonly scopes: readonly string[] | undefined;
  /** "empty": a non-empty body is a 400. "json": a JSON object (or nothing). "form": urlencoded. */
  readonly body: "empty" | "json" | "form";
  /** Query parameters the method declares (standard ones are always accepted). */
  readonly queryParams: readonly string[];
  /** Legacy errors[].reason for a bad argument: "invalid" (compute, DM) or "badRequest". */
  readonly invalidReason: "invalid" | "badRequest";
  readonly handle: (context: RequestContext) => RouteResult;
}

/** Query parameters every Google API accepts (discovery `parameters`). */
export const STANDARD_QUERY_PARAMS: ReadonlySet<string> = new Set([
  "$.xgafv",
  "access_token",
  "alt",
  "callback",
  "fields",
  "key",
  "oauth_token",
  "prettyPrint",
  "quotaUser",
  "uploadType",
  "upload_protocol",
  "userIp",
]);

interface CompiledRoute {
  readonly route: Route;
  readonly prefix: string;
  readonly regex: RegExp;
  readonly names: readonly string[];
}

export type RouteMatch =
  | { readonly kind: "matched"; readonly route: Route; readonly params: Readonly<Record<string, string>> }
  | { readonly kind: "badEncoding"; readonly route: Route; readonly segment: string }
  | { readonly kind: "none" };

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

function compile(route: Route): CompiledRoute {
  const names: string[] = [];
  const pattern = route.template
    .split(/(\{[A-Za-z]+\})/)
    .map((part) => {
      const name = /^\{([A-Za-z]+)\}$/.exec(part)?.[1];
      if (name === undefined) return escapeRegex(part);
      names.push(name);
      return "([^/]+)";
    })
    .join("");
  return { route, prefix: SERVICE_PREFIXES[route.service], regex: new RegExp(`^${pattern}$`), names };
}

/** A matcher over a fixed table. */
export class RouteTable {
  private readonly compiled: readonly CompiledRoute[];

  constructor(routes: readonly Route[]) {
    this.compiled = routes.map(compile);
  }

  /**
   * Matches a raw (still percent-encoded) path; the method must match too. A path is first matched under its
   * service prefix (`/compute/compute/v1/...`), then as is (`/compute/v1/...`): the API paths of the eight services
   * do not overlap, and googleapis-common resolves a method's absolute path against the origin of `rootUrl`,
   * dropping the prefix.
   */
  match(method: string, rawPath: string): RouteMatch {
    return this.matchUnder(method, rawPath, true) ?? this.matchUnder(method, rawPath, false) ?? { kind: "none" };
  }

  private matchUnder(method: string, rawPath: string, prefixed: boolean): RouteMatch | undefined {
    for (const c of this.compiled) {
      if (c.route.method !== method) continue;
      if (prefixed && !rawPath.startsWith(c.prefix + "/")) continue;
      const m = c.regex.exec(prefixed ? rawPath.slice(c.prefix.length) : rawPath);
      if (m === null) continue;
      const params: Record<string, string> = {};
      let bad: string | undefined;
      c.names.forEach((name, i) => {
        const raw = m[i + 1] ?? "";
        try {
          params[name] = decodeURIComponent(raw);
        } catch {
          bad ??= raw;
        }
      });
      if (bad !== undefined) return { kind: "badEncoding", route: c.route, segment: bad };
      const patterns = c.route.paramPatterns ?? {};
      if (Object.entries(patterns).some(([name, re]) => !re.test(params[name] ?? ""))) continue;
      return { kind: "matched", route: c.route, params };
    }
    return undefined;
  }
}
