import { strict as assert } from "node:assert";
import { checkSettings } from "../../../provider/plugin/config";
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
