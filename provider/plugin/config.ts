/**
 * The plugin's settings, from Configure: the provider instance's own inputs under the keys the dynamic face reads from
 * stack config (CONFIG_KEYS of provider/runtime/settings-reader.ts). The default provider's inputs are the stack's
 * `opsledger:*` config; an explicit `opsledger:index:Provider`'s are its arguments, and (as with Pulumi's own providers)
 * no `opsledger:*` stack config fills what they leave out. One plugin process serves one provider instance, so the
 * process-wide context of provider/resources holds that instance's settings, exactly as it holds the stack's on the
 * dynamic face; the one settings reader (provider/runtime/settings-reader.ts) resolves them with the environment.
 */
import { configureSettings, providerClient } from "../runtime/context";
import type { EndpointCaller } from "../functions/google-reads";
import { parseUrn } from "../runtime/urn";
import { checkExplicitSettings } from "../runtime/resource-settings";
import { CONFIG_KEYS, CONFIG_NAMESPACE } from "../runtime/settings-reader";
import { UNKNOWN, unwrapDeep } from "./secrets";

/** A setting's text: strings as they are, numbers and lists as the stack config would hold them. */
function text(value: unknown): string | undefined {
  const v = unwrapDeep(value);
  if (v === undefined || v === null || v === "") return undefined;
  return typeof v === "string" ? v : JSON.stringify(v);
}

/**
 * Whether a provider URN is a default provider's: the engine's own test (IsDefaultProvider in Pulumi's
 * pkg/resource/deploy/providers: a provider whose name starts with "default").
 */
export function isDefaultProviderUrn(urn: string): boolean {
  return parseUrn(urn).name.startsWith("default");
}

/**
 * Applies a Configure request: `args` (the provider's inputs, keys without namespace; secrets may arrive wrapped),
 * `variables` (`opsledger:config:<key>` → value, the older form of the same) and the provider's URN.
 */
export function configurePlugin(
  args: Readonly<Record<string, unknown>>,
  variables: Readonly<Record<string, string>>,
  urn?: string,
): void {
  const settings: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value =
      text(args[key]) ??
      text(variables[`${CONFIG_NAMESPACE}:config:${key}`]) ??
      text(variables[`${CONFIG_NAMESPACE}:${key}`]);
    if (value !== undefined) settings[key] = value;
  }
  const known = urn !== undefined && urn !== "";
  if (known && !isDefaultProviderUrn(urn)) {
    configureSettings({ explicit: settings });
    return;
  }
  // The default provider's inputs are the stack config. An engine that sends no URN does not say which instance this
  // is: its settings are read as stack config (as they always were), but PULUMI_CONFIG, which the engine gives every
  // instance, is left alone so that it cannot fill an explicit provider's settings.
  const prefix = `${CONFIG_NAMESPACE}:`;
  configureSettings({
    stackConfig: (key) => (key.startsWith(prefix) ? settings[key.slice(prefix.length)] : undefined),
    ...(known ? {} : { withoutPulumiConfig: true }),
  });
}

/**
 * CheckConfig: an explicit provider's settings checked as the client will read them, before any request. A bad value
 * is one failure naming the setting and the fix (the client's own message); values not known yet (preview) are left
 * to Configure. The environment is not consulted: only what the program wrote is judged here.
 */
export function checkSettings(news: Readonly<Record<string, unknown>>): { property: string; reason: string }[] {
  const explicit: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = text(news[key]);
    if (value !== undefined && value !== UNKNOWN) explicit[key] = value;
  }
  return checkExplicitSettings(explicit);
}

/** A version's numbers (`0.2.0-alpha.1` → [0, 2, 0]); undefined when it is not one. */
function versionNumbers(version: string): number[] | undefined {
  const m = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/**
 * CheckConfig's `version` input, the plugin version the program's SDK asked for (the engine puts it there): a plugin
 * older than that may lack what the SDK sends, so it is one failure naming both versions and the fix. The engine
 * itself only warns, and goes on with the older plugin it found.
 */
export function checkPluginVersion(
  news: Readonly<Record<string, unknown>>,
  pluginVersion: string,
): { property: string; reason: string }[] {
  const requested = text(news["version"]);
  const want = requested === undefined ? undefined : versionNumbers(requested);
  const have = versionNumbers(pluginVersion);
  if (requested === undefined || want === undefined || have === undefined) return [];
  const older = have.findIndex((n, i) => n !== want[i]);
  if (older < 0 || (have[older] ?? 0) > (want[older] ?? 0)) return [];
  return [
    {
      property: "version",
      reason:
        `the program's SDK asks for the opsledger plugin ${requested}, but this plugin is ${pluginVersion}: ` +
        `install the plugin the SDK names (pulumi plugin install resource opsledger ${requested.replace(/^v/, "")} --reinstall), ` +
        `or use the SDK of version ${pluginVersion}`,
    },
  ];
}

/** The endpoint caller of this plugin's provider: its settings, then the environment. */
export function pluginCaller(): EndpointCaller {
  return (id, params) => providerClient().call(id, params);
}
