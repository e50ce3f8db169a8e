/**
 * The one settings reader of both faces. Every place that needs the provider's settings (the dynamic providers'
 * configure() and their PULUMI_CONFIG fallback, the plugin's Configure and CheckConfig, an opsledger.Provider's
 * settings, the data sources in the program, a value named by a stack config key such as a PKCS#11 PIN) hands its
 * sources to resolveSettings or configValue, explicitly: nothing here reads process.env or a process-wide setting.
 *
 * Precedence, per setting, as Pulumi's own providers have it:
 * - an explicit provider (the plugin's `pulumi:providers:opsledger` resource, the TypeScript SDK's `opsledger.Provider`):
 *   its own arguments, then the environment, then defaults; the stack's `opsledger:*` config is not read (Pulumi:
 *   "Configuration file settings are only used by the default provider");
 * - the default provider: the `opsledger:*` stack config, then the environment, then defaults. The engine delivers the
 *   stack config twice, with the same values: through configure()/Configure (`stackConfig`) and as the PULUMI_CONFIG
 *   JSON in the provider's environment (`pulumiConfigEnv`: the whole stack config for a dynamic provider, the package's
 *   own keys for the plugin, which the engine passes to every instance); the delivered copy wins, PULUMI_CONFIG covers
 *   the keys it does not hold.
 * The environment variables and the parsing rules are provider/google/settings.ts's (resolveGoogleSettings).
 */
import { GOOGLE_SETTING_KEYS, resolveGoogleSettings } from "../google";
import type { GoogleSettings, GoogleSettingsInput } from "../google";

/** The namespace of this package's stack config keys (`opsledger:<key>`). */
export const CONFIG_NAMESPACE = "opsledger";

/** A setting's name: a stack config key without its namespace, and an explicit provider's argument. */
export type SettingKey = keyof GoogleSettingsInput;

/**
 * The settings this package reads, once (GOOGLE_SETTING_KEYS): the `opsledger:*` stack config keys, an explicit
 * provider's arguments on both faces, and the schema's config section (scripts/gen-schema.ts).
 */
export const CONFIG_KEYS: readonly SettingKey[] = GOOGLE_SETTING_KEYS;

/** Settings as a program wrote them for an explicit provider (GoogleSettingsInput's keys and value types). */
export type ExplicitSettings = Readonly<Partial<GoogleSettingsInput>>;

/**
 * Reads one stack config value by its full key (`<namespace>:<key>`); undefined when it is not set. Strings are used
 * as they are, other values (a number, a list from YAML) as their JSON text, as stack config holds them.
 */
export type StackConfigReader = (key: string) => unknown;

/** Where the settings may come from; each caller passes what its face has. */
export interface SettingsSources {
  /** The stack config delivered to this process: configure()'s request, the plugin default provider's Configure. */
  readonly stackConfig?: StackConfigReader | undefined;
  /** The PULUMI_CONFIG text the engine puts in a provider's environment (a JSON object; see pulumiConfigKeys). */
  readonly pulumiConfigEnv?: string | undefined;
  /** An explicit provider's own arguments: when given, the `opsledger:*` stack config is not read. */
  readonly explicit?: ExplicitSettings | undefined;
  /** The environment: the GOOGLE_* variables, Application Default Credentials' inputs, OPSLEDGER_*. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The settings in force and where each came from. */
export interface ResolvedSettings {
  /** The resolved client settings (credentials and accessToken non-enumerable, as resolveGoogleSettings makes them). */
  readonly google: GoogleSettings;
  /**
   * For each setting that was set, where its value came from, in words for messages: "project from the explicit
   * provider", "opsledger:project from stack config", "opsledger:project from stack config (PULUMI_CONFIG)",
   * "GOOGLE_CLOUD_PROJECT". Settings left to their defaults are absent.
   */
  readonly sources: Readonly<Partial<Record<SettingKey, string>>>;
  /** Sources that could not be read and were passed over (the environment still applied), in words, never values. */
  readonly skipped: readonly string[];
}

/** The words for a PULUMI_CONFIG that is not a JSON object (its text is never repeated: it holds secrets). */
export const UNPARSEABLE_PULUMI_CONFIG =
  "PULUMI_CONFIG is not a JSON object, so the stack config it should carry was not read (the environment variables " +
  "still apply); it is set by the Pulumi engine: run the provider through `pulumi`, or unset it";

type Parsed = { readonly values: Readonly<Record<string, unknown>> } | { readonly error: string };

let lastParsed: { readonly text: string; readonly parsed: Parsed } | undefined;

/** PULUMI_CONFIG's values by key; the last text's parse is kept (the engine sets it once per process). */
function parsePulumiConfig(text: string): Parsed {
  if (lastParsed?.text === text) return lastParsed.parsed;
  let parsed: Parsed;
  try {
    const value: unknown = JSON.parse(text);
    parsed =
      typeof value === "object" && value !== null && !Array.isArray(value)
        ? { values: value as Record<string, unknown> }
        : { error: UNPARSEABLE_PULUMI_CONFIG };
  } catch {
    // The parser's message quotes the text, which holds the stack's decrypted secrets: never pass it on.
    parsed = { error: UNPARSEABLE_PULUMI_CONFIG };
  }
  lastParsed = { text, parsed };
  return parsed;
}

/** A stack config value as text: strings as they are, numbers, booleans and lists as JSON; unset as undefined. */
function configText(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  return typeof value === "string" ? value : JSON.stringify(value);
}

interface Found {
  readonly value: string;
  readonly from: "stack config" | "PULUMI_CONFIG";
}

/**
 * The keys PULUMI_CONFIG may hold a full key under: a dynamic provider's holds the whole stack config by full key
 * (`opsledger:project`, or `opsledger:config:project` from older engines); a resource plugin's holds its own package's
 * config without the namespace (`project`).
 */
function pulumiConfigKeys(key: string): string[] {
  const separator = key.indexOf(":");
  if (separator < 0) return [key];
  const [namespace, bare] = [key.slice(0, separator), key.slice(separator + 1)];
  return [key, `${namespace}:config:${bare}`, ...(namespace === CONFIG_NAMESPACE ? [bare] : [])];
}

/** One full key from the delivered stack config, else from PULUMI_CONFIG. */
function lookupConfig(sources: SettingsSources, key: string, skipped: Set<string>): Found | undefined {
  const delivered = configText(sources.stackConfig?.(key));
  if (delivered !== undefined) return { value: delivered, from: "stack config" };
  if (sources.pulumiConfigEnv === undefined || sources.pulumiConfigEnv === "") return undefined;
  const parsed = parsePulumiConfig(sources.pulumiConfigEnv);
  if ("error" in parsed) {
    skipped.add(parsed.error);
    return undefined;
  }
  for (const candidate of pulumiConfigKeys(key)) {
    const value = configText(parsed.values[candidate]);
    if (value !== undefined) return { value, from: "PULUMI_CONFIG" };
  }
  return undefined;
}

/** The project whose config a key without namespace belongs to, as the engine names it to the provider process. */
function projectOf(env: SettingsSources["env"]): string | undefined {
  const project = env["PULUMI_PROJECT"] ?? env["PULUMI_NODEJS_PROJECT"];
  return project === "" ? undefined : project;
}

/**
 * Resolves the settings in force from the given sources (see the file's comment for the precedence). Bad values are
 * ConfigErrors naming the setting as the user wrote it (`project`, `opsledger:project`, `GOOGLE_CLOUD_PROJECT`) and the
 * fix, and never quoting a secret; an unreadable PULUMI_CONFIG is passed over and reported in `skipped`.
 */
export function resolveSettings(sources: SettingsSources): ResolvedSettings {
  const skipped = new Set<string>();
  const fromConfig = new Map<string, Found["from"]>();
  const explicit = sources.explicit;
  const google =
    explicit === undefined
      ? resolveGoogleSettings({
          config: (key) => {
            const found = lookupConfig(sources, `${CONFIG_NAMESPACE}:${key}`, skipped);
            if (found !== undefined) fromConfig.set(key, found.from);
            return found?.value;
          },
          env: sources.env,
        })
      : resolveGoogleSettings({ explicit, env: sources.env });
  const described: Partial<Record<SettingKey, string>> = {};
  for (const [key, origin] of Object.entries(google.origins) as [SettingKey, string][]) {
    described[key] = describeOrigin(key, origin, fromConfig.get(key));
  }
  return { google, sources: Object.freeze(described), skipped: Object.freeze([...skipped]) };
}

function describeOrigin(key: SettingKey, origin: string, from: Found["from"] | undefined): string {
  if (origin.startsWith("env:")) return origin.slice("env:".length);
  if (origin.startsWith("explicit:")) return `${key} from the explicit provider`;
  return from === "PULUMI_CONFIG" ? `${origin} from stack config (PULUMI_CONFIG)` : `${origin} from stack config`;
}

/**
 * One stack config value named by its key (`<namespace>:<key>`, or `<key>` of the program's project): for values a
 * resource names by key (a PKCS#11 PIN's `pinConfig`) so that they are never stored. Any namespace may be read,
 * whatever provider the resource has: the key is the resource's own input, not a provider setting.
 */
export function configValue(
  sources: Pick<SettingsSources, "stackConfig" | "pulumiConfigEnv" | "env">,
  key: string,
): string | undefined {
  const project = projectOf(sources.env);
  const full = key.includes(":") || project === undefined ? key : `${project}:${key}`;
  return lookupConfig(sources, full, new Set())?.value;
}
