/**
 * The one settings reader (provider/runtime/settings-reader.ts): every combination of its four sources, an unreadable
 * PULUMI_CONFIG, secrets kept out of its errors and notes, the by-key reader; and both faces reaching it (the dynamic
 * face's configure() and `__settings`, the plugin's Configure of a default and of an explicit provider).
 */
import { strict as assert } from "node:assert";
import { inspect } from "node:util";
import { configurePlugin, isDefaultProviderUrn } from "../../../provider/plugin/config";
import {
  configureProvider,
  configureSettings,
  providerSettings,
  stackConfigValue,
} from "../../../provider/runtime/context";
import { runWithSettings } from "../../../provider/runtime/resource-settings";
import {
  CONFIG_KEYS,
  UNPARSEABLE_PULUMI_CONFIG,
  configValue,
  resolveSettings,
} from "../../../provider/runtime/settings-reader";
import type { SettingsSources } from "../../../provider/runtime/settings-reader";
import { configError } from "../../helpers/config-error";

type Source = "explicit" | "stackConfig" | "pulumiConfigEnv" | "env";
const SOURCES: readonly Source[] = ["explicit", "stackConfig", "pulumiConfigEnv", "env"];

/** Each source setting `project` to its own value. */
const PROJECT: Readonly<Record<Source, string>> = {
  explicit: "explicit-project",
  stackConfig: "configure-project",
  pulumiConfigEnv: "pulumi-config-project",
  env: "env-project",
};

/** Where the project comes from, in the words resolveSettings reports. */
const WORDS: Readonly<Record<Source, string>> = {
  explicit: "project from the explicit provider",
  stackConfig: "opsledger:project from stack config",
  pulumiConfigEnv: "opsledger:project from stack config (PULUMI_CONFIG)",
  env: "GOOGLE_CLOUD_PROJECT",
};

/** Sources holding `project` in the chosen ones, and the stack config reads they saw. */
function sourcesWith(chosen: readonly Source[]): { sources: SettingsSources; reads: string[] } {
  const reads: string[] = [];
  const has = (s: Source): boolean => chosen.includes(s);
  const sources: SettingsSources = {
    ...(has("explicit") ? { explicit: { project: PROJECT.explicit } } : {}),
    ...(has("stackConfig")
      ? {
          stackConfig: (key: string) => {
            reads.push(key);
            return key === "opsledger:project" ? PROJECT.stackConfig : undefined;
          },
        }
      : {}),
    ...(has("pulumiConfigEnv")
      ? { pulumiConfigEnv: JSON.stringify({ "opsledger:project": PROJECT.pulumiConfigEnv, "other:key": "x" }) }
      : {}),
    env: has("env") ? { GOOGLE_CLOUD_PROJECT: PROJECT.env } : {},
  };
  return { sources, reads };
}

/** Every subset of the four sources: none, each alone, the six pairs, the four triples, all four. */
function subsets(): Source[][] {
  const all: Source[][] = [];
  for (let mask = 0; mask < 1 << SOURCES.length; mask++) all.push(SOURCES.filter((_, i) => (mask & (1 << i)) !== 0));
  return all;
}

/** Pulumi's precedence: an explicit provider's arguments, else the stack config (configure's, then PULUMI_CONFIG's), then the environment. */
function winner(chosen: readonly Source[]): Source | undefined {
  return SOURCES.find((s) => chosen.includes(s));
}

describe("resolveSettings (provider/runtime/settings-reader.ts): the one settings reader", () => {
  it("takes each setting from the first source that sets it, for every combination of the four sources", () => {
    const table = subsets().map((chosen) => {
      const { google, sources } = resolveSettings(sourcesWith(chosen).sources);
      return [chosen.join("+") || "(none)", google.project ?? null, sources.project ?? null];
    });
    const expected = subsets().map((chosen) => {
      const w = winner(chosen);
      return [chosen.join("+") || "(none)", w === undefined ? null : PROJECT[w], w === undefined ? null : WORDS[w]];
    });
    assert.equal(table.length, 16);
    assert.deepEqual(table, expected);
  });

  it("reads no opsledger:* stack config for an explicit provider: what it leaves out comes from the environment", () => {
    const { sources, reads } = sourcesWith(["stackConfig", "pulumiConfigEnv", "env"]);
    const resolved = resolveSettings({ ...sources, explicit: { requestReason: "CHG-1" } });
    assert.equal(resolved.google.project, PROJECT.env);
    assert.equal(resolved.google.requestReason, "CHG-1");
    assert.deepEqual(resolved.sources, {
      project: "GOOGLE_CLOUD_PROJECT",
      requestReason: "requestReason from the explicit provider",
    });
    assert.deepEqual(reads, []);
  });

  it("lets the delivered stack config win key by key, PULUMI_CONFIG (either spelling) covering the keys it lacks", () => {
    const resolved = resolveSettings({
      stackConfig: (key) => (key === "opsledger:project" ? "configure-project" : undefined),
      pulumiConfigEnv: JSON.stringify({
        "opsledger:project": "pulumi-config-project",
        "opsledger:config:requestReason": "older spelling",
        "opsledger:maxConcurrentRequests": 3,
      }),
      env: { CLOUDSDK_CORE_REQUEST_REASON: "env reason" },
    });
    assert.equal(resolved.google.project, "configure-project");
    assert.equal(resolved.google.requestReason, "older spelling");
    assert.equal(resolved.google.maxConcurrentRequests, 3);
    assert.deepEqual(resolved.sources, {
      project: "opsledger:project from stack config",
      requestReason: "opsledger:requestReason from stack config (PULUMI_CONFIG)",
      maxConcurrentRequests: "opsledger:maxConcurrentRequests from stack config (PULUMI_CONFIG)",
    });
    assert.deepEqual(resolved.skipped, []);
  });

  it("reads the plugin's PULUMI_CONFIG (its package's keys, no namespace) for a default provider, not an explicit one", () => {
    const pulumiConfigEnv = JSON.stringify({ project: "plugin-project", requestReason: "stack reason" });
    const asDefault = resolveSettings({ pulumiConfigEnv, env: {} });
    assert.equal(asDefault.google.project, "plugin-project");
    assert.equal(asDefault.sources.requestReason, "opsledger:requestReason from stack config (PULUMI_CONFIG)");
    const asExplicit = resolveSettings({ pulumiConfigEnv, explicit: { project: "org-b" }, env: {} });
    assert.equal(asExplicit.google.project, "org-b");
    assert.equal(asExplicit.google.requestReason, undefined);
    assert.equal(configValue({ pulumiConfigEnv, env: {} }, "opsledger:requestReason"), "stack reason");
    assert.equal(configValue({ pulumiConfigEnv, env: {} }, "other:requestReason"), undefined);
  });

  it("passes over an unparseable PULUMI_CONFIG, says so without quoting it, and still applies the environment", () => {
    for (const text of ['{"opsledger:accessToken":"ya29.PULUMI-CONFIG-SECRET"', '["ya29.PULUMI-CONFIG-SECRET"]']) {
      const resolved = resolveSettings({ pulumiConfigEnv: text, env: { GOOGLE_CLOUD_PROJECT: "env-project" } });
      assert.equal(resolved.google.project, "env-project");
      assert.equal(resolved.google.accessToken, undefined);
      assert.deepEqual(resolved.skipped, [UNPARSEABLE_PULUMI_CONFIG]);
      assert.ok(!inspect(resolved, { depth: 9 }).includes("PULUMI-CONFIG-SECRET"));
      assert.equal(configValue({ pulumiConfigEnv: text, env: {} }, "opsledger:accessToken"), undefined);
    }
    // An explicit provider reads no stack config, so a bad PULUMI_CONFIG is not even parsed.
    const explicit = resolveSettings({ pulumiConfigEnv: "{", explicit: { project: "p" }, env: {} });
    assert.deepEqual(explicit.skipped, []);
  });

  it("never echoes a secret in an error, whichever source it came from", () => {
    const token = "ya29.TOKEN-NEVER-PRINTED";
    const key = '{"type":"service_account","private_key":"KEY-NEVER-PRINTED"}';
    const cases: [SettingsSources, string, string][] = [
      [
        { stackConfig: (k) => ({ "opsledger:credentials": key, "opsledger:accessToken": token })[k], env: {} },
        "opsledger:credentials",
        "opsledger:credentials and opsledger:accessToken are both set: set only one of them (a credential file or JSON, or a ready access token)",
      ],
      [
        {
          pulumiConfigEnv: JSON.stringify({ "opsledger:credentials": key, "opsledger:accessToken": token }),
          env: {},
        },
        "opsledger:credentials",
        "opsledger:credentials and opsledger:accessToken are both set: set only one of them (a credential file or JSON, or a ready access token)",
      ],
      [
        { explicit: { credentials: key, accessToken: token }, env: {} },
        "credentials",
        "credentials and accessToken are both set: set only one of them (a credential file or JSON, or a ready access token)",
      ],
      [
        { env: { GOOGLE_CREDENTIALS: key, GOOGLE_OAUTH_ACCESS_TOKEN: token } },
        "GOOGLE_CREDENTIALS",
        "GOOGLE_CREDENTIALS and GOOGLE_OAUTH_ACCESS_TOKEN are both set: set only one of them (a credential file or JSON, or a ready access token)",
      ],
      [{ explicit: { accessToken: [token] as never }, env: {} }, "accessToken", "accessToken must be a string"],
    ];
    for (const [sources, setting, message] of cases) {
      const error = configError(() => resolveSettings(sources));
      assert.equal(error.setting, setting);
      assert.equal(error.message, message);
      assert.ok(!inspect(error, { depth: 9 }).includes("NEVER-PRINTED"));
    }
  });

  it("keeps secrets out of what it returns, except the non-enumerable credential itself", () => {
    const resolved = resolveSettings({
      stackConfig: (k) => (k === "opsledger:accessToken" ? "ya29.HIDDEN" : undefined),
      env: {},
    });
    assert.equal(resolved.google.accessToken, "ya29.HIDDEN");
    assert.deepEqual(resolved.sources, { accessToken: "opsledger:accessToken from stack config" });
    assert.ok(!JSON.stringify(resolved).includes("HIDDEN") && !inspect(resolved, { depth: 9 }).includes("HIDDEN"));
  });

  it("reads one value by key: the delivered config, else PULUMI_CONFIG; a bare key is the project's", () => {
    const sources = {
      stackConfig: (k: string) => ({ "demo:hsmPin": "1234" })[k],
      pulumiConfigEnv: JSON.stringify({ "demo:other": "from-env-config", "demo:config:older": "older" }),
      env: { PULUMI_PROJECT: "demo" },
    };
    assert.equal(configValue(sources, "demo:hsmPin"), "1234");
    assert.equal(configValue(sources, "hsmPin"), "1234");
    assert.equal(configValue(sources, "other"), "from-env-config");
    assert.equal(configValue(sources, "demo:older"), "older");
    assert.equal(configValue(sources, "demo:missing"), undefined);
    assert.equal(configValue({ env: {} }, "demo:hsmPin"), undefined);
  });

  it("declares the settings once: CONFIG_KEYS are the explicit provider's arguments and the stack config keys", () => {
    assert.equal(CONFIG_KEYS.length, 21);
    for (const key of CONFIG_KEYS) {
      const value =
        key === "maxConcurrentRequests" ? "2" : key.endsWith("CustomEndpoint") ? "http://127.0.0.1:9" : undefined;
      if (value === undefined) continue;
      const fromConfig = resolveSettings({
        stackConfig: (k) => (k === `opsledger:${key}` ? value : undefined),
        env: {},
      });
      assert.equal(fromConfig.sources[key], `opsledger:${key} from stack config`);
      assert.equal(
        resolveSettings({ explicit: { [key]: value }, env: {} }).sources[key],
        `${key} from the explicit provider`,
      );
    }
  });
});

describe("both faces resolve their settings through the one reader", () => {
  const saved = { config: process.env["PULUMI_CONFIG"], project: process.env["GOOGLE_CLOUD_PROJECT"] };
  beforeEach(() => {
    process.env["PULUMI_CONFIG"] = JSON.stringify({
      "opsledger:project": "stack-project",
      "opsledger:requestReason": "stack reason",
      "demo:hsmPin": "4321",
    });
    delete process.env["GOOGLE_CLOUD_PROJECT"];
  });
  afterEach(() => {
    configureSettings({});
    if (saved.config === undefined) delete process.env["PULUMI_CONFIG"];
    else process.env["PULUMI_CONFIG"] = saved.config;
    if (saved.project === undefined) delete process.env["GOOGLE_CLOUD_PROJECT"];
    else process.env["GOOGLE_CLOUD_PROJECT"] = saved.project;
  });

  it("dynamic face: configure()'s stack config, PULUMI_CONFIG behind it, and a resource's __settings over both", async () => {
    const values: Record<string, string> = { "opsledger:project": "configured-project" };
    configureProvider({ config: { get: (k: string) => values[k], require: (k: string) => values[k] ?? "" } });
    assert.equal(providerSettings().project, "configured-project");
    assert.equal(providerSettings().requestReason, "stack reason");
    assert.equal(stackConfigValue("demo:hsmPin"), "4321");
    const explicit = await runWithSettings({ project: "org-b-project" }, () => Promise.resolve(providerSettings()));
    assert.equal(explicit.project, "org-b-project");
    assert.equal(explicit.requestReason, undefined);
  });

  it("plugin face: the default provider's Configure is its stack config, an explicit provider's its own arguments", () => {
    // The engine gives the plugin its package's config, keys without namespace, whichever instance it serves.
    process.env["PULUMI_CONFIG"] = JSON.stringify({ project: "stack-project", requestReason: "stack reason" });
    assert.ok(isDefaultProviderUrn("urn:pulumi:dev::demo::pulumi:providers:opsledger::default_0_2_0"));
    assert.ok(isDefaultProviderUrn("urn:pulumi:dev::demo::pulumi:providers:opsledger::default"));
    assert.ok(!isDefaultProviderUrn("urn:pulumi:dev::demo::pulumi:providers:opsledger::org-b"));

    configurePlugin(
      { project: "default-project" },
      {},
      "urn:pulumi:dev::demo::pulumi:providers:opsledger::default_0_2_0",
    );
    assert.equal(providerSettings().project, "default-project");
    assert.equal(providerSettings().requestReason, "stack reason");

    configurePlugin({ project: "org-b-project" }, {}, "urn:pulumi:dev::demo::pulumi:providers:opsledger::org-b");
    assert.equal(providerSettings().project, "org-b-project");
    assert.equal(providerSettings().requestReason, undefined);

    configurePlugin(
      {},
      { "opsledger:config:project": "variables-project" },
      "urn:pulumi:dev::demo::pulumi:providers:opsledger::org-c",
    );
    assert.equal(providerSettings().project, "variables-project");

    // No URN (an engine that does not send it): the settings as stack config, and no PULUMI_CONFIG behind them.
    configurePlugin({ project: "no-urn-project" }, {});
    assert.equal(providerSettings().project, "no-urn-project");
    assert.equal(providerSettings().requestReason, undefined);
  });
});
