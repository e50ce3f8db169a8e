/**
 * Per-process context of the dynamic providers: the stack configuration received through `configure()`, the Google
 * client built from it, and the log sink. Nothing here is ever serialized into state: the serialized providers are
 * short stubs that `require()` this module inside the provider process (see sdk/provider-stubs.ts).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { resolveGoogleSettings } from "../google";
import { cachedGoogleClient } from "./client-cache";
import type { GoogleClient, GoogleSettings } from "../google";

/** The stack configuration keys this package reads (without the `opsledger:` namespace). */
export const CONFIG_KEYS = [
  "credentials",
  "accessToken",
  "impersonateServiceAccount",
  "impersonateServiceAccountDelegates",
  "project",
  "billingProject",
  "requestTimeout",
  "displayVideoApiVersion",
  "maxConcurrentRequests",
  "workspaceEventsScopes",
  "iamCustomEndpoint",
  "computeCustomEndpoint",
  "deploymentManagerCustomEndpoint",
  "workspaceEventsCustomEndpoint",
  "displayVideoCustomEndpoint",
  "iamCredentialsCustomEndpoint",
  "oauth2CustomEndpoint",
] as const;

let stackConfig: Readonly<Record<string, string>> | undefined;

/** Stores the `opsledger:*` stack configuration sent by the engine (secrets arrive unwrapped, and stay in memory). */
export function configureProvider(req: dynamic.ConfigureRequest): void {
  const values: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = req.config.get(`opsledger:${key}`);
    if (value !== undefined && value !== "") values[key] = value;
  }
  stackConfig = values;
}

/**
 * Reads the stack configuration: what `configure()` delivered, otherwise the PULUMI_CONFIG JSON the engine puts in the
 * provider's environment.
 */
function currentConfig(): Readonly<Record<string, string>> {
  if (stackConfig) return stackConfig;
  const raw = process.env["PULUMI_CONFIG"];
  const values: Record<string, string> = {};
  if (raw) {
    try {
      const parsed = JSON.parse(raw) as Record<string, unknown>;
      for (const key of CONFIG_KEYS) {
        const value = parsed[`opsledger:${key}`] ?? parsed[`opsledger:config:${key}`];
        if (typeof value === "string" && value !== "") values[key] = value;
      }
    } catch {
      // An unparseable PULUMI_CONFIG is ignored: the environment variables still apply.
    }
  }
  return values;
}

/** The settings in force for this call: stack config, then the environment at call time, then defaults. */
export function providerSettings(): GoogleSettings {
  const config = currentConfig();
  return resolveGoogleSettings({ config: (key) => config[key], env: process.env });
}

/** The Google client for the configuration in force now, built lazily inside the provider process. */
export function providerClient(): GoogleClient {
  return cachedGoogleClient(providerSettings(), (m) => {
    log("warning", m);
  });
}

/**
 * Writes a line to the provider's stdout/stderr; the engine shows dynamic-provider output as diagnostics in
 * `pulumi up` (stdout as info, stderr as info-to-stderr). Callers never pass secrets here.
 */
export function log(level: "info" | "warning", message: string): void {
  if (level === "warning") process.stderr.write(`warning: [opsledger] ${message}\n`);
  else process.stdout.write(`[opsledger] ${message}\n`);
}
