import assert from "node:assert/strict";
import { resolveGoogleSettings } from "../../../provider/google/settings";
import { cachedGoogleClient } from "../../../provider/runtime/client-cache";

describe("cachedGoogleClient", () => {
  const settings = (env: Record<string, string>) => resolveGoogleSettings({ config: () => undefined, env });
  const ignore = (): void => undefined;

  it("reuses the client of equal settings", () => {
    const env = { GOOGLE_OAUTH_ACCESS_TOKEN: "token-a" };
    assert.equal(cachedGoogleClient(settings(env), ignore), cachedGoogleClient(settings(env), ignore));
  });

  it("gives settings that differ only in the credential a client of their own", () => {
    const a = settings({ GOOGLE_OAUTH_ACCESS_TOKEN: "token-a" });
    const b = settings({ GOOGLE_OAUTH_ACCESS_TOKEN: "token-b" });
    assert.equal(
      JSON.stringify(a),
      JSON.stringify(b),
      "the credential is not enumerable: JSON alone cannot tell them apart",
    );
    assert.notEqual(cachedGoogleClient(a, ignore), cachedGoogleClient(b, ignore));
    const c = settings({
      GOOGLE_CREDENTIALS: '{"type":"authorized_user","client_id":"1","client_secret":"s","refresh_token":"r1"}',
    });
    const d = settings({
      GOOGLE_CREDENTIALS: '{"type":"authorized_user","client_id":"1","client_secret":"s","refresh_token":"r2"}',
    });
    assert.notEqual(cachedGoogleClient(c, ignore), cachedGoogleClient(d, ignore));
  });
});
