import { strict as assert } from "node:assert";
import { checkPluginVersion, checkSettings } from "../../../provider/plugin/config";
import { SECRET_SIG, SIG_KEY, UNKNOWN } from "../../../provider/plugin/secrets";

describe("the plugin's CheckConfig (provider/plugin/config.ts): an explicit provider's settings", () => {
  it("accepts good settings, a secret token wrapped, and values not known yet", () => {
    assert.deepEqual(
      checkSettings({
        accessToken: { [SIG_KEY]: SECRET_SIG, value: "ya29.token" },
        requestTimeout: "90s",
        impersonateServiceAccount: UNKNOWN,
        computeCustomEndpoint: "http://127.0.0.1:9",
      }),
      [],
    );
  });

  it("refuses a bad setting with one failure naming it and the fix, as the client would", () => {
    assert.deepEqual(checkSettings({ impersonateServiceAccount: "not-an-email" }), [
      {
        property: "impersonateServiceAccount",
        reason: "impersonateServiceAccount 'not-an-email' must be a service account email",
      },
    ]);
    const [timeout, ...rest] = checkSettings({ requestTimeout: "soon" });
    assert.deepEqual(rest, []);
    assert.equal(timeout?.property, "requestTimeout");
    assert.match(timeout.reason, /^requestTimeout 'soon'/);
  });
});

describe("the plugin's CheckConfig: the plugin version the program's SDK asks for", () => {
  it("accepts the same version, an older request (the engine takes a newer plugin) and no request", () => {
    assert.deepEqual(checkPluginVersion({ version: "0.2.0" }, "0.2.0"), []);
    assert.deepEqual(checkPluginVersion({ version: "0.1.9" }, "0.2.0"), []);
    assert.deepEqual(checkPluginVersion({ version: "v0.2.0" }, "0.10.0"), []);
    assert.deepEqual(checkPluginVersion({}, "0.2.0"), []);
  });

  it("refuses a plugin older than the SDK asks for, naming both versions and the fix", () => {
    assert.deepEqual(checkPluginVersion({ version: "0.3.0" }, "0.2.0"), [
      {
        property: "version",
        reason:
          "the program's SDK asks for the opsledger plugin 0.3.0, but this plugin is 0.2.0: install the plugin the " +
          "SDK names (pulumi plugin install resource opsledger 0.3.0 --reinstall), or use the SDK of version 0.2.0",
      },
    ]);
    assert.equal(checkPluginVersion({ version: "0.2.10" }, "0.2.9").length, 1);
    assert.equal(checkPluginVersion({ version: "1.0.0" }, "0.9.9").length, 1);
  });
});
