/**
 * Service roots: the hosts of each service within a universe (`https://<service>.<universe>`), and custom endpoints
 * normalized to a service root. Used by resolveGoogleSettings; plain data and pure functions.
 */
import { ConfigError } from "../errors";
import type { ServiceName } from "./endpoint-types";

/** Every service root the client knows: the six API services plus the two token services. */
export type EndpointRootName = ServiceName | "iamCredentials" | "oauth2";

/** Google's default universe: the domain of every public Google API host. */
export const DEFAULT_UNIVERSE_DOMAIN = "googleapis.com";

/**
 * The host name of each service root within a universe: `https://<name>.<universe>` (the hosts Google's discovery
 * documents give as rootUrl).
 */
export const SERVICE_HOST_NAMES: Readonly<Record<EndpointRootName, string>> = Object.freeze({
  iam: "iam",
  compute: "compute",
  deploymentManager: "deploymentmanager",
  workspaceEvents: "workspaceevents",
  displayVideo: "displayvideo",
  kms: "cloudkms",
  iamCredentials: "iamcredentials",
  oauth2: "oauth2",
});

/** The service roots of a universe, `https://<service>.<universe>`, as Terraform's BaseUrl and googleapis-common rewrite them. */
export function endpointRootsFor(universeDomain: string): Readonly<Record<EndpointRootName, string>> {
  const roots = {} as Record<EndpointRootName, string>;
  for (const service of Object.keys(SERVICE_HOST_NAMES) as EndpointRootName[]) {
    roots[service] = `https://${SERVICE_HOST_NAMES[service]}.${universeDomain}`;
  }
  return Object.freeze(roots);
}

/**
 * The Google hosts of the googleapis.com universe, as service roots (the API path is appended by the endpoint table).
 */
export const DEFAULT_ENDPOINT_ROOTS: Readonly<Record<EndpointRootName, string>> =
  endpointRootsFor(DEFAULT_UNIVERSE_DOMAIN);

/** Version paths a pulumi-gcp / Terraform style base URL ends in; stripped to get the service root. */
const VERSION_SUFFIXES: Readonly<Record<EndpointRootName, RegExp>> = {
  iam: /\/(?:v1|v2|v2beta|v3|v3beta)$/,
  compute: /\/compute\/(?:v1|beta|alpha)$/,
  deploymentManager: /\/deploymentmanager\/(?:v2|v2beta|alpha)$/,
  workspaceEvents: /\/(?:v1|v1beta)$/,
  displayVideo: /\/v[1-4]$/,
  kms: /\/v1$/,
  iamCredentials: /\/v1$/,
  oauth2: /\/token$/,
};

/**
 * A custom endpoint as a service root: http(s), no credentials, query or fragment, no trailing slash, and without a
 * pulumi-gcp style version path (`https://compute.googleapis.com/compute/v1/` -> `https://compute.googleapis.com`).
 */
export function normalizeEndpointRoot(service: EndpointRootName, value: string, settingName: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value.trim());
  } catch {
    url = undefined;
  }
  const hasUserInfo = url !== undefined && (url.username !== "" || url.password !== "");
  if (url === undefined || (url.protocol !== "http:" && url.protocol !== "https:") || hasUserInfo) {
    const shown = hasUserInfo ? "(a URL with user credentials)" : `'${value.trim().slice(0, 200)}'`;
    throw new ConfigError({
      setting: settingName,
      message:
        `${settingName} ${shown} is not a usable endpoint: it must be an http(s) service root without user ` +
        `credentials, such as ${DEFAULT_ENDPOINT_ROOTS[service]}`,
    });
  }
  if (url.search !== "" || url.hash !== "") {
    throw new ConfigError({
      setting: settingName,
      message: `${settingName} must not have a query string or fragment: give the service root, such as ${DEFAULT_ENDPOINT_ROOTS[service]}`,
    });
  }
  const path = url.pathname.replace(/\/+$/, "").replace(VERSION_SUFFIXES[service], "");
  return `${url.origin}${path}`;
}
