import { strict as assert } from "node:assert";
import { createGoogleClient } from "../../../provider/google/client";
import {
  DEFAULT_UNIVERSE_DOMAIN,
  GOOGLE_SETTING_KEYS,
  endpointRootsFor,
  resolveGoogleSettings,
  settingEnvNames,
} from "../../../provider/google/settings";
import type { GoogleSettingsInput } from "../../../provider/google/settings";
import { CONFIG_KEYS } from "../../../provider/runtime/settings-reader";
import { countingTokens, scriptedAxios, testSettings } from "./helpers";
import { configError } from "../../helpers/config-error";

function config(values: Record<string, string>): (key: string) => string | undefined {
  return (key) => values[key];
}

/** One setting at each level: explicit wins over stack config, stack config over the environment. */
interface LevelCase {
  readonly key: keyof GoogleSettingsInput;
  readonly env: string;
  readonly values: readonly [explicit: string, config: string, env: string];
  readonly read: (s: ReturnType<typeof resolveGoogleSettings>) => unknown;
  readonly expected: readonly [unknown, unknown, unknown];
}

const LEVEL_CASES: readonly LevelCase[] = [
  {
    key: "requestReason",
    env: "CLOUDSDK_CORE_REQUEST_REASON",
    values: ["ticket OPS-1", "ticket OPS-2", "ticket OPS-3"],
    read: (s) => s.requestReason,
    expected: ["ticket OPS-1", "ticket OPS-2", "ticket OPS-3"],
  },
  {
    key: "universeDomain",
    env: "GOOGLE_CLOUD_UNIVERSE_DOMAIN",
    values: ["one.example", "two.example", "three.example"],
    read: (s) => [s.universeDomain, s.endpoints.compute],
    expected: [
      ["one.example", "https://compute.one.example"],
      ["two.example", "https://compute.two.example"],
      ["three.example", "https://compute.three.example"],
    ],
  },
  {
    key: "userProjectOverride",
    env: "USER_PROJECT_OVERRIDE",
    values: ["false", "true", "false"],
    read: (s) => [s.userProjectOverride, s.quotaProject ?? null],
    expected: [
      [false, null],
      [true, "bill-me"],
      [false, null],
    ],
  },
];

describe("Google request settings (universe, request reason, quota project)", () => {
  for (const c of LEVEL_CASES) {
    it(`reads ${c.key} from explicit settings, then opsledger:${c.key}, then ${c.env}`, () => {
      const base = { billingProject: "bill-me" };
      const [explicit, cfg, env] = c.values;
      const all = resolveGoogleSettings({
        explicit: { ...base, [c.key]: explicit },
        config: config({ [c.key]: cfg }),
        env: { [c.env]: env },
      });
      const noExplicit = resolveGoogleSettings({
        explicit: base,
        config: config({ [c.key]: cfg }),
        env: { [c.env]: env },
      });
      const envOnly = resolveGoogleSettings({ explicit: base, env: { [c.env]: env } });
      assert.deepEqual([c.read(all), c.read(noExplicit), c.read(envOnly)], c.expected);
      assert.deepEqual(
        [all.origins[c.key], noExplicit.origins[c.key], envOnly.origins[c.key]],
        [`explicit:${c.key}`, `opsledger:${c.key}`, `env:${c.env}`],
      );
    });
  }

  it("reads the quota project from GOOGLE_CLOUD_QUOTA_PROJECT after GOOGLE_BILLING_PROJECT", () => {
    const quotaOnly = resolveGoogleSettings({ env: { GOOGLE_CLOUD_QUOTA_PROJECT: "quota-env" } });
    assert.deepEqual([quotaOnly.billingProject, quotaOnly.quotaProject], ["quota-env", "quota-env"]);
    assert.equal(quotaOnly.origins.billingProject, "env:GOOGLE_CLOUD_QUOTA_PROJECT");
    const both = resolveGoogleSettings({
      env: { GOOGLE_CLOUD_QUOTA_PROJECT: "quota-env", GOOGLE_BILLING_PROJECT: "billing-env" },
    });
    assert.equal(both.quotaProject, "billing-env");
    const cfg = resolveGoogleSettings({
      config: config({ billingProject: "billing-config" }),
      env: { GOOGLE_CLOUD_QUOTA_PROJECT: "quota-env" },
    });
    assert.equal(cfg.quotaProject, "billing-config");
  });

  it("defaults to googleapis.com with no reason, no override and no quota project", () => {
    const settings = resolveGoogleSettings({});
    assert.equal(settings.universeDomain, DEFAULT_UNIVERSE_DOMAIN);
    assert.equal(settings.universeDomain, "googleapis.com");
    assert.deepEqual(
      [settings.requestReason, settings.userProjectOverride, settings.quotaProject],
      [undefined, undefined, undefined],
    );
  });

  it("puts every default API and token host in the universe, and leaves custom endpoints as given", () => {
    const settings = resolveGoogleSettings({
      explicit: { universeDomain: "Sovereign.Example", kmsCustomEndpoint: "http://127.0.0.1:9/cloudkms" },
    });
    assert.equal(settings.universeDomain, "sovereign.example");
    assert.deepEqual(settings.endpoints, {
      iam: "https://iam.sovereign.example",
      compute: "https://compute.sovereign.example",
      deploymentManager: "https://deploymentmanager.sovereign.example",
      workspaceEvents: "https://workspaceevents.sovereign.example",
      displayVideo: "https://displayvideo.sovereign.example",
      kms: "http://127.0.0.1:9/cloudkms",
      iamCredentials: "https://iamcredentials.sovereign.example",
      oauth2: "https://oauth2.sovereign.example",
    });
    assert.deepEqual(endpointRootsFor("googleapis.com").oauth2, "https://oauth2.googleapis.com");
  });

  it("decides x-goog-user-project from billingProject, project and userProjectOverride (decision 0031)", () => {
    const quota = (input: Partial<GoogleSettingsInput>): string | null =>
      resolveGoogleSettings({ explicit: input }).quotaProject ?? null;
    // Unset: 0.1's behaviour, billingProject when set.
    assert.equal(quota({ billingProject: "b", project: "p" }), "b");
    assert.equal(quota({ project: "p" }), null);
    // true: Terraform's meaning, billingProject else the project.
    assert.equal(quota({ billingProject: "b", project: "p", userProjectOverride: true }), "b");
    assert.equal(quota({ project: "p", userProjectOverride: "TRUE" }), "p");
    // false: Terraform's meaning, no quota project header even with billingProject set.
    assert.equal(quota({ billingProject: "b", project: "p", userProjectOverride: "0" }), null);
  });

  it("refuses bad values naming the setting and the fix", () => {
    const cases: readonly [() => unknown, string, string][] = [
      [
        () => resolveGoogleSettings({ env: { GOOGLE_CLOUD_UNIVERSE_DOMAIN: "https://s3nsapis.fr/" } }),
        "GOOGLE_CLOUD_UNIVERSE_DOMAIN",
        "GOOGLE_CLOUD_UNIVERSE_DOMAIN 'https://s3nsapis.fr/' is not a universe domain: give the bare domain of the " +
          "universe's API hosts, such as googleapis.com (no scheme, port, path or leading dot)",
      ],
      [
        () => resolveGoogleSettings({ config: config({ universeDomain: "localhost" }) }),
        "opsledger:universeDomain",
        "opsledger:universeDomain 'localhost' is not a universe domain: give the bare domain of the universe's API " +
          "hosts, such as googleapis.com (no scheme, port, path or leading dot)",
      ],
      [
        () => resolveGoogleSettings({ explicit: { requestReason: "line one\nline two" } }),
        "requestReason",
        "requestReason has a character that cannot travel in the X-Goog-Request-Reason header at position 9: use " +
          "printable ASCII text on one line",
      ],
      [
        () => resolveGoogleSettings({ env: { USER_PROJECT_OVERRIDE: "yes" } }),
        "USER_PROJECT_OVERRIDE",
        "USER_PROJECT_OVERRIDE 'yes' must be true or false",
      ],
      [
        () => resolveGoogleSettings({ config: config({ userProjectOverride: "true" }) }),
        "opsledger:userProjectOverride",
        "opsledger:userProjectOverride is true but there is no project to bill: set billingProject " +
          "(opsledger:billingProject, GOOGLE_BILLING_PROJECT or GOOGLE_CLOUD_QUOTA_PROJECT) or project, or leave " +
          "opsledger:userProjectOverride unset",
      ],
    ];
    for (const [run, setting, message] of cases) {
      const error = configError(run);
      assert.equal(error.setting, setting);
      assert.equal(error.message, message);
    }
  });

  it("keeps the settings' names in one list, which the provider's stack config keys are", () => {
    assert.equal(CONFIG_KEYS, GOOGLE_SETTING_KEYS);
    for (const key of ["requestReason", "universeDomain", "userProjectOverride", "billingProject"] as const) {
      assert.ok(GOOGLE_SETTING_KEYS.includes(key), key);
    }
    assert.deepEqual(settingEnvNames("billingProject"), ["GOOGLE_BILLING_PROJECT", "GOOGLE_CLOUD_QUOTA_PROJECT"]);
    assert.deepEqual(settingEnvNames("universeDomain"), ["GOOGLE_CLOUD_UNIVERSE_DOMAIN"]);
  });

  it("sends the request reason and the decided quota project on every API request", async () => {
    const send = async (extra: Partial<GoogleSettingsInput>): Promise<Record<string, string>> => {
      const transport = scriptedAxios([{ status: 200, body: { name: "x" } }]);
      const client = createGoogleClient({
        settings: testSettings(extra),
        axios: transport.axios,
        tokenSource: countingTokens(),
      });
      await client.call("compute.firewallPolicies.get", { firewallPolicy: "1" });
      const headers = transport.requests[0]!.headers;
      return Object.fromEntries(
        Object.entries(headers).filter(([name]) => /^x-goog-(user-project|request-reason)$/i.test(name)),
      );
    };
    assert.deepEqual(await send({ requestReason: "change CHG-42", billingProject: "b" }), {
      "X-Goog-Request-Reason": "change CHG-42",
      "x-goog-user-project": "b",
    });
    assert.deepEqual(await send({ billingProject: "b", userProjectOverride: false }), {});
    assert.deepEqual(await send({ project: "p", userProjectOverride: true }), { "x-goog-user-project": "p" });
  });
});
