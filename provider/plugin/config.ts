/**
 * The plugin's settings, from Configure: the provider instance's own inputs (an explicit `opsledger:index:Provider`,
 * or the default provider, whose inputs are the stack's `opsledger:*` config) under the keys the dynamic face reads
 * from stack config (CONFIG_KEYS of provider/runtime/context.ts). One plugin process serves one provider instance,
 * so the process-wide context of provider/resources holds that instance's settings, exactly as it holds the stack's
 * on the dynamic face; the environment fills what the settings leave out, as there.
 */
import { CONFIG_KEYS, configureProvider, providerClient } from "../runtime/context";
import type { EndpointCaller } from "../functions/google-reads";
import { checkExplicitSettings } from "../runtime/resource-settings";
import { UNKNOWN, unwrapDeep } from "./secrets";

/** A setting's text: strings as they are, numbers and lists as the stack config would hold them. */
function text(value: unknown): string | undefined {
  const v = unwrapDeep(value);
  if (v === undefined || v === null || v === "") return undefined;
  return typeof v === "string" ? v : JSON.stringify(v);
}

/** The stack configuration the engine put in the plugin's environment (PULUMI_CONFIG), for keys of other namespaces. */
function environmentConfig(key: string): string | undefined {
  try {
    const parsed = JSON.parse(process.env["PULUMI_CONFIG"] ?? "{}") as Record<string, unknown>;
    return text(parsed[key] ?? parsed[key.replace(":", ":config:")]);
  } catch {
    return undefined;
  }
}

/**
 * Applies a Configure request: `args` (the provider's inputs, keys without namespace; secrets may arrive wrapped) and
 * `variables` (`opsledger:config:<key>` → value, the older form of the same).
 */
export function configurePlugin(
  args: Readonly<Record<string, unknown>>,
  variables: Readonly<Record<string, string>>,
): void {
  const settings: Record<string, string> = {};
  for (const key of CONFIG_KEYS) {
    const value = text(args[key]) ?? text(variables[`opsledger:config:${key}`]) ?? text(variables[`opsledger:${key}`]);
    if (value !== undefined) settings[key] = value;
  }
  const get = (key: string): string | undefined => {
    const bare = key.startsWith("opsledger:") ? key.slice("opsledger:".length) : undefined;
    if (bare !== undefined && (CONFIG_KEYS as readonly string[]).includes(bare)) return settings[bare];
    return environmentConfig(key);
  };
  configureProvider({
    config: {
      get,
      require(key: string): string {
        const v = get(key);
        if (v === undefined) throw new Error(`pulumi-resource-opsledger: missing configuration ${key}`);
        return v;
      },
    },
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

/** The endpoint caller of this plugin's provider: its settings, then the environment. */
export function pluginCaller(): EndpointCaller {
  return (id, params) => providerClient().call(id, params);
}
