/**
 * Per-process context of the dynamic providers: the stack configuration received through `configure()`, the Google
 * client built from it, and the log sink. Nothing here is ever serialized into state: the serialized providers are
 * short stubs that `require()` this module inside the provider process (see sdk/provider-stubs.ts).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { configValue, resolveSettings } from "./settings-reader";
import type { ExplicitSettings, SettingsSources, StackConfigReader } from "./settings-reader";
import { cachedGoogleClient } from "./client-cache";
import { sendToEngine } from "./engine-log";
import { currentExplicitSettings } from "./resource-settings";
import type { GoogleClient, GoogleSettings } from "../google";

/** What this process's provider was configured with: the stack config, or an explicit provider's settings (plugin). */
interface Configured {
  readonly stackConfig?: StackConfigReader;
  readonly explicit?: ExplicitSettings;
  /** PULUMI_CONFIG is not read (a plugin's Configure that does not say whether its provider is the default one). */
  readonly withoutPulumiConfig?: boolean;
}

let configured: Configured = {};

/** Stores the stack config the engine sends a dynamic provider (secrets arrive unwrapped, and stay in memory). */
export function configureProvider(req: dynamic.ConfigureRequest): void {
  configured = { stackConfig: (key) => req.config.get(key) };
}

/**
 * Stores the settings of the plugin's provider instance (its Configure): the default provider's stack config, or an
 * explicit provider's own arguments.
 */
export function configureSettings(settings: Configured): void {
  configured = settings;
}

/**
 * The sources of the settings in force for this call: the resource's explicit provider settings (resource-settings.ts)
 * or the process's provider's, the stack config delivered by configure() with PULUMI_CONFIG behind it, the environment.
 */
function currentSources(): SettingsSources {
  return {
    stackConfig: configured.stackConfig,
    pulumiConfigEnv: configured.withoutPulumiConfig === true ? undefined : process.env["PULUMI_CONFIG"],
    explicit: currentExplicitSettings() ?? configured.explicit,
    env: process.env,
  };
}

/**
 * Any stack config value by key (`key` of the program's project, or `<namespace>:<key>`): what configure() delivered,
 * else PULUMI_CONFIG. Used for values a resource names by key (a PKCS#11 PIN), so that they are never stored.
 */
export function stackConfigValue(key: string): string | undefined {
  return configValue(currentSources(), key);
}

/** The sources reported as passed over (an unreadable PULUMI_CONFIG), each warned about once per process. */
const warned = new Set<string>();

/** The settings in force for this call, resolved by the one settings reader (provider/runtime/settings-reader.ts). */
export function providerSettings(): GoogleSettings {
  const resolved = resolveSettings(currentSources());
  for (const skipped of resolved.skipped) {
    if (warned.has(skipped)) continue;
    warned.add(skipped);
    log("warning", skipped);
  }
  return resolved.google;
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
