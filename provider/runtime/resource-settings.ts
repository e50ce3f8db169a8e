/**
 * The settings of one resource's explicit provider (the TypeScript SDK's `opsledger.Provider`). They travel as the
 * secret `__settings` input and are kept in state with the resource, and while a call of that resource runs they take
 * the place of the stack's `opsledger:*` config (the environment still fills what they leave out), as an explicit
 * provider's inputs do on the plugin face. Decision: docs/decisions/0029-typescript-explicit-providers.md.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { ConfigError } from "../errors";
import { resolveSettings } from "./settings-reader";
import type { ExplicitSettings } from "./settings-reader";

/** The plumbing input (and state property) that carries a resource's explicit settings. */
export const SETTINGS_INPUT = "__settings";

const current = new AsyncLocalStorage<ExplicitSettings>();

/** Runs `fn` with `settings` as the explicit settings of every call it makes (none: the stack's config applies). */
export function runWithSettings<T>(settings: ExplicitSettings | undefined, fn: () => T): T {
  return settings === undefined ? current.exit(fn) : current.run(settings, fn);
}

/** The explicit settings of the resource whose call is running, if it was given an `opsledger.Provider`. */
export function currentExplicitSettings(): ExplicitSettings | undefined {
  return current.getStore();
}

/** The `__settings` object of a resource's inputs or state, if any. */
export function settingsOf(properties: unknown): ExplicitSettings | undefined {
  if (typeof properties !== "object" || properties === null) return undefined;
  const value = (properties as Record<string, unknown>)[SETTINGS_INPUT];
  return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
}

/**
 * Checks settings a program wrote as the client will read them, the environment aside: one entry per bad setting,
 * naming it and the fix (the client's own message). Shared by the plugin's CheckConfig and the SDK's Provider.
 */
export function checkExplicitSettings(explicit: ExplicitSettings): { property: string; reason: string }[] {
  try {
    resolveSettings({ explicit, env: {} });
    return [];
  } catch (e) {
    if (e instanceof ConfigError) return [{ property: e.setting, reason: e.message }];
    throw e;
  }
}
