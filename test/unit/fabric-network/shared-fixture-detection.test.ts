import { strict as assert } from "node:assert";
import * as path from "node:path";
import { runUsesSharedNetwork } from "../../helpers/shared-network-use";

/** The compiled test tree (dist/test) this file runs from. */
const DIST_TEST = path.resolve(__dirname, "..", "..");
const at = (...parts: string[]): string => path.join(DIST_TEST, ...parts);

describe("the shared Fabric network fixture starts a network only for runs that use it", () => {
  it("starts nothing for unit test files, with or without mocha options among the arguments", () => {
    assert.equal(runUsesSharedNetwork([at("unit", "ledger", "cli.test.js")]), false);
    assert.equal(
      runUsesSharedNetwork(["--grep", "decodes", at("unit", "ledger", "cli.test.js"), "--jobs", "3"]),
      false,
    );
    assert.equal(runUsesSharedNetwork([at("unit", "**", "*.test.js")]), false);
  });

  it("starts one for a spec of the ledger targets, a glob or folder holding one, or one importing it indirectly", () => {
    assert.equal(runUsesSharedNetwork([at("integration", "ledger-targets", "targets.test.js")]), true);
    assert.equal(runUsesSharedNetwork([at("unit", "**", "*.test.js"), at("integration", "**", "*.test.js")]), true);
    assert.equal(runUsesSharedNetwork([at("integration", "ledger-targets")]), true);
    // shared-a.spec.js imports shared-network-spec.js, which imports the fixture's sharedFabricNetwork.
    assert.equal(runUsesSharedNetwork([at("fixtures", "fabric-network", "shared-a.spec.js")]), true);
  });

  it("starts nothing for sandbox-only integration tests and arguments that name no file", () => {
    assert.equal(runUsesSharedNetwork([at("integration", "fabric", "faults.test.js")]), false);
    assert.equal(runUsesSharedNetwork(["FirewallPolicyMove", at("integration", "no-such.test.js")]), false);
  });
});
