/**
 * The TypeScript SDK's explicit providers (sdk/provider.ts): the same field-and-fix checks as the stack config, before
 * anything is registered; an opsledger.Provider becomes the secret `__settings` input and no Pulumi provider, while a
 * real pulumi.ProviderResource in the same option is passed to Pulumi as before.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { FirewallPolicyMove } from "../../../sdk/compute/firewall-policy-move";
import { Provider } from "../../../sdk/provider";
import { currentExplicitSettings, runWithSettings, settingsOf } from "../../../provider/runtime/resource-settings";

/** Pulumi's signature of a secret value on the wire (what a mock sees for a secret input). */
const SECRET_SIG = "4dabf18193072939515e22adb298388d";
const SECRET_SIG_VALUE = "1b47061264138c4ac30d75fd1eb44270";

interface Registered {
  readonly name: string;
  readonly provider: string | undefined;
  readonly settings: unknown;
}

describe("opsledger.Provider (TypeScript explicit providers)", () => {
  it("refuses a bad or unknown setting naming it and the fix, as the stack config does", () => {
    assert.throws(() => new Provider("org-b", { impersonateServiceAccount: "not-an-email" }), {
      message: "opsledger.Provider org-b: impersonateServiceAccount 'not-an-email' must be a service account email",
    });
    assert.throws(
      () => new Provider("org-b", { accessTokn: "x" } as never),
      /^Error: opsledger\.Provider org-b: unknown setting 'accessTokn'; the settings are the opsledger:\* stack config keys: credentials, accessToken, /,
    );
    assert.ok(Provider.isInstance(new Provider("org-a", { accessToken: "ya29.x" })));
    assert.ok(!Provider.isInstance({ name: "org-a", settings: {} }));
  });

  it("travels as the secret __settings input, while a pulumi.ProviderResource is still Pulumi's provider", async () => {
    const registered: Registered[] = [];
    await pulumi.runtime.setMocks(
      {
        newResource: (args) => {
          const inputs = args.inputs as Record<string, unknown>;
          registered.push({ name: args.name, provider: args.provider, settings: inputs["__settings"] });
          return { id: `${args.name}-id`, state: inputs };
        },
        call: () => ({}),
      },
      "project",
      "stack",
      true,
    );
    const orgB = new Provider("org-b", { accessToken: "ya29.org-b", project: "b-project" });
    const real = new (class extends pulumi.ProviderResource {})("pulumi-nodejs", "real", {});
    const viaOrgB = new FirewallPolicyMove("b", { firewallPolicy: "1", parentId: "folders/2" }, { provider: orgB });
    const viaReal = new FirewallPolicyMove("r", { firewallPolicy: "1", parentId: "folders/2" }, { provider: real });
    const secret = await new Promise<boolean>((resolve) => {
      pulumi.all([viaOrgB.urn, viaReal.urn]).apply(() => {
        void pulumi.isSecret(orgB.settings).then(resolve);
      });
    });
    assert.ok(secret, "the settings are a secret Output");
    const moves = registered.filter((r) => r.name !== "real").sort((a, b) => a.name.localeCompare(b.name));
    assert.deepEqual(
      moves.map((r) => [r.name, r.provider?.includes("::real::") ?? false, r.settings]),
      [
        // Registered as a secret: Pulumi's secret signature around the settings.
        ["b", false, { [SECRET_SIG]: SECRET_SIG_VALUE, value: { accessToken: "ya29.org-b", project: "b-project" } }],
        ["r", true, undefined],
      ],
    );
  });

  it("gives a call the settings of its resource, and none outside it", async () => {
    const props = { __urn: "urn", __settings: { accessToken: "ya29.a" } };
    assert.deepEqual(settingsOf(props), { accessToken: "ya29.a" });
    assert.equal(settingsOf({ __settings: "text" }), undefined);
    const seen = await runWithSettings(settingsOf(props), async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return currentExplicitSettings();
    });
    assert.deepEqual(seen, { accessToken: "ya29.a" });
    assert.equal(currentExplicitSettings(), undefined);
    assert.equal(
      runWithSettings(undefined, () => currentExplicitSettings()),
      undefined,
    );
  });
});
