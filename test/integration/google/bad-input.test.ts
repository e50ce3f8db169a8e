import { strict as assert } from "node:assert";
import { ValidationError } from "../../../provider/errors";
import type { GoogleClient } from "../../../provider/google/client";
import { fixture, type GoogleSandbox } from "../../../sandbox/google";
import { DEPLOYER, sandboxClient, tokenRequests, useSandbox } from "./helpers";
import { CASES } from "../../helpers/bad-input-table";

/**
 * A client with the sandbox deployer's service-account key: its first call signs a JWT and fetches a token from the
 * sandbox's oauth2 endpoint (the auth cache is cleared before every test), which the sandbox logs as a request.
 */
function keyClient(sandbox: GoogleSandbox): GoogleClient {
  return sandboxClient(sandbox, { credentials: JSON.stringify(sandbox.serviceAccountKey(DEPLOYER)) }).client;
}

describe("Google client against the sandbox: bad input", () => {
  const sandbox = useSandbox();

  it("has at least 40 bad-input cases covering every endpoint", () => {
    assert.ok(CASES.length >= 40, String(CASES.length));
    assert.equal(new Set(CASES.map((c) => c.id)).size, 12);
  });

  it("fetches a token first on a good call with the same credentials (which the cases below must never do)", async () => {
    const policy = fixture.FIXTURE_FIREWALL_POLICY_IDS.platformDefault;
    await keyClient(sandbox()).call("compute.firewallPolicies.get", { firewallPolicy: policy });
    assert.deepEqual(
      sandbox()
        .requests()
        .map((r) => `${r.route ?? ""} ${r.status}`),
      ["oauth2.token 200", "compute.firewallPolicies.get 200"],
    );
  });

  for (const [index, c] of CASES.entries()) {
    it(`rejects bad input #${index + 1} of ${c.id} before fetching a token or sending anything`, async () => {
      await assert.rejects(keyClient(sandbox()).call(c.id, c.params as never), (error: unknown) => {
        assert.ok(error instanceof ValidationError, String(error));
        assert.equal(error.message, `${c.id}: invalid input: ${c.failures}`);
        return true;
      });
      assert.deepEqual(tokenRequests(sandbox()), []);
      assert.deepEqual(sandbox().requests(), []);
      assert.deepEqual(sandbox().audit(), []);
    });
  }
});
