/**
 * Explicit providers for TypeScript programs: `new opsledger.Provider("org-b", { accessToken, ... })`, passed as
 * `{ provider: orgB }` in the options of a resource or a data source, so one program acts in several organizations
 * with several credentials. It is a settings holder of this package, not a `pulumi.ProviderResource`: that would need
 * the resource plugin, and a TypeScript program needs nothing beyond `npm install`
 * (docs/decisions/0029-typescript-explicit-providers.md). A resource carries the settings as a secret `__settings`
 * input, kept in state with it (so refresh and destroy use them), and ignored by diff; a data source, which runs in
 * the program, calls Google with them. Either way they replace the stack's `opsledger:*` config for that call, and the
 * environment fills what they leave out, as with an explicit provider of the plugin.
 */
import * as pulumi from "@pulumi/pulumi";
import type { GoogleSettingsInput } from "../provider/google";
import { checkExplicitSettings } from "../provider/runtime/resource-settings";
import { CONFIG_KEYS, type ExplicitSettings } from "../provider/runtime/settings-reader";

/** The settings an explicit provider takes: the keys of the `opsledger:*` stack config, each an Input. */
export type ProviderArgs = { [K in keyof GoogleSettingsInput]?: pulumi.Input<GoogleSettingsInput[K]> };

const BRAND: unique symbol = Symbol.for("pulumi-opsledger:Provider") as never;

/** Throws the field-and-fix message of the first bad setting (the same check as the stack config's). */
function check(name: string, settings: ExplicitSettings): void {
  const bad = checkExplicitSettings(settings)[0];
  if (bad !== undefined) throw new Error(`opsledger.Provider ${name}: ${bad.reason}`);
}

/** Settings of one organization or credential: pass it as `{ provider }` to resources and data sources. */
export class Provider {
  /** The name given to the constructor (used in error messages). */
  readonly name: string;
  /** The settings as written, known and checked, as a secret Output (never printed). */
  readonly settings: pulumi.Output<ExplicitSettings>;
  /** Marks an opsledger.Provider (see isInstance). */
  readonly [BRAND] = true;

  /**
   * @param name a name for messages, for example "org-b".
   * @param args the settings (credentials and accessToken are made secret). A setting written as a plain value is
   *   checked here, one computed later when it is known: a bad one fails naming it and the fix, before any request.
   */
  constructor(name: string, args: ProviderArgs = {}) {
    this.name = name;
    const unknown = Object.keys(args).filter((k) => !(CONFIG_KEYS as readonly string[]).includes(k));
    if (unknown.length > 0) {
      throw new Error(
        `opsledger.Provider ${name}: unknown setting '${unknown[0] ?? ""}'; the settings are the opsledger:* stack config keys: ${CONFIG_KEYS.join(", ")}`,
      );
    }
    const plain: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(args) as [string, unknown][]) {
      if (value !== undefined && !pulumi.Output.isInstance(value) && !(value instanceof Promise)) plain[key] = value;
    }
    check(name, plain);
    this.settings = pulumi.secret(
      pulumi.output(args).apply((resolved) => {
        const entries = Object.entries(resolved) as [string, unknown][];
        const settings: ExplicitSettings = Object.fromEntries(
          entries.filter(([, v]) => v !== undefined && v !== null && v !== ""),
        );
        check(name, settings);
        return settings;
      }),
    );
  }

  /** Whether `value` is an opsledger.Provider (also one of another copy of this package). */
  static isInstance(value: unknown): value is Provider {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[BRAND] === true;
  }
}

/** A resource's or data source's `provider` option: an opsledger.Provider, or a Pulumi provider resource as before. */
export type ProviderOption = pulumi.ProviderResource | Provider;

/** The options of this package's resources: Pulumi's, with `provider` widened to take an opsledger.Provider. */
export interface ResourceOptions extends Omit<pulumi.CustomResourceOptions, "provider"> {
  provider?: ProviderOption;
}

/** The options of this package's data sources: Pulumi's, with `provider` widened to take an opsledger.Provider. */
export interface InvokeOptions extends Omit<pulumi.InvokeOptions, "provider"> {
  provider?: ProviderOption;
}

/** The settings of an opsledger.Provider in `options`, once known (undefined: the stack's config applies). */
export function explicitSettings(
  options: { provider?: ProviderOption } | undefined,
): Promise<ExplicitSettings | undefined> {
  const provider = options?.provider;
  if (!Provider.isInstance(provider)) return Promise.resolve(undefined);
  return new Promise((resolve) => {
    provider.settings.apply((s) => {
      resolve(s);
      return s;
    });
  });
}
