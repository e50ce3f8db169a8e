/**
 * Per-process context of the dynamic providers: the stack configuration received through `configure()`, the Google
 * client built from it, and the log sink. Nothing here is ever serialized into state: the serialized providers are
 * short stubs that `require()` this module inside the provider process (see sdk/provider-stubs.ts).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { GOOGLE_SETTING_KEYS, resolveGoogleSettings } from "../google";
import { cachedGoogleClient } from "./client-cache";
import { sendToEngine } from "./engine-log";
import { currentExplicitSettings } from "./resource-settings";
import type { GoogleClient, GoogleSettings, GoogleSettingsInput } from "../google";

/**
 * The stack configuration keys this package reads (without the `opsledger:` namespace): the Google settings' one list
 * (GOOGLE_SETTING_KEYS in provider/google/settings.ts), so a new setting reaches every face at once.
 */
export const CONFIG_KEYS: readonly (keyof GoogleSettingsInput)[] = GOOGLE_SETTING_KEYS;

let stackConfig: Readonly<Record<string, string>> | undefined;
let fullConfig: dynamic.ConfigureRequest["config"] | undefined;

/** Stores the `opsledger:*` stack configuration sent by the engine (secrets arrive unwrapped, and stay in memory). */
export function configureProvider(req: dynamic.ConfigureRequest): void {
  fullConfig = req.config;
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

/**
 * Any stack config value by key (`key` of the program's project, or `<namespace>:<key>`): what configure() delivered,
 * else PULUMI_CONFIG. Used for values a resource names by key (a PKCS#11 PIN), so that they are never stored.
 */
export function stackConfigValue(key: string): string | undefined {
  if (fullConfig !== undefined) return fullConfig.get(key);
  const project = process.env["PULUMI_PROJECT"] ?? process.env["PULUMI_NODEJS_PROJECT"] ?? "";
  const full = key.includes(":") ? key : `${project}:${key}`;
  try {
    const parsed = JSON.parse(process.env["PULUMI_CONFIG"] ?? "{}") as Record<string, unknown>;
    const value = parsed[full] ?? parsed[full.replace(":", ":config:")];
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The settings in force for this call: the resource's explicit provider settings (resource-settings.ts) or else the
 * stack config, then the environment at call time, then defaults.
 */
export function providerSettings(): GoogleSettings {
  const explicit = currentExplicitSettings();
  if (explicit !== undefined) return resolveGoogleSettings({ explicit, env: process.env });
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
 * Reports a message about a resource. With its URN, the message goes to the engine attached to that resource (it
 * appears under the resource in the CLI's diagnostics); without one, or when the engine cannot be reached, it is a
 * line on the provider's stdout/stderr, which the engine shows as a loose diagnostic. Callers never pass secrets here.
 */
export function log(level: "info" | "warning", message: string, urn?: string): void {
  if (urn === undefined) {
    printLine(level, message);
    return;
  }
  track(
    sendToEngine({ severity: level, message, urn, ephemeral: false }).then((sent) => {
      if (!sent) printLine(level, message);
    }),
  );
}

/**
 * The current state of a long wait, shown on the resource's own row while it updates (an ephemeral status, replaced
 * by the next one). Falls back to a plain line when the engine cannot be reached.
 */
export function status(urn: string, message: string): void {
  track(
    sendToEngine({ severity: "info", message, urn, ephemeral: true }).then((sent) => {
      if (!sent) printLine("info", message);
    }),
  );
}

/** Messages on their way to the engine. */
const inFlight = new Set<Promise<void>>();

function track(p: Promise<void>): void {
  inFlight.add(p);
  void p.finally(() => inFlight.delete(p));
}

/**
 * Waits until every message reported so far has reached the engine (or been printed, when it cannot be reached):
 * bounded by ENGINE_LOG_DEADLINE_MS. The provider entries (the dynamic providers' dispatch, the plugin's answers)
 * call it before they answer the engine: a message sent without waiting raced the answer, and the engine, done with
 * the resource (or the whole refresh), could print its summary or stop the provider first and lose the message.
 */
export async function flushLogs(): Promise<void> {
  while (inFlight.size > 0) await Promise.all([...inFlight]);
}

function printLine(level: "info" | "warning", message: string): void {
  if (level === "warning") process.stderr.write(`warning: [opsledger] ${message}\n`);
  else process.stdout.write(`[opsledger] ${message}\n`);
}
