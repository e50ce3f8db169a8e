/**
 * The LedgerTransaction component through the real engine (examples/ledger, the plain `pulumi` CLI) on a Fabric 3.1.5
 * network whose ordering service is SmartBFT (four orderers, one fault tolerated): the same behaviour bodies as on
 * Raft (test/helpers/ledger-component-behaviours.ts) — VALID with the previewed txId, MVCC_READ_CONFLICT from a
 * concurrent writer, and adoption of the committed transaction after kill -9 of `pulumi up`. The gateway peer submits
 * to every orderer and needs a quorum; nothing in the component depends on the consensus. One network for the file.
 * Issue 30 point 1 on BFT: the channel's capabilities (V3_0) are read from the channel, so an Ed25519 client certified
 * by Org1's CA commits VALID with no capability set, through both faces; an assertion of V2_0 fails naming V3_0.
 */
import { strict as assert } from "node:assert";
import { adoptsAfterKill, failsOnReadConflict, submitsValid } from "../helpers/ledger-component-behaviours";
import { assertionDisagrees, ed25519NeedsNoSetting } from "../helpers/ledger-capability-behaviours";
import { startComponentTarget } from "../helpers/ledger-component";
import { newClientOf } from "../helpers/ledger-key-types";
import type { ComponentTarget } from "../helpers/ledger-component";
import { TYPESCRIPT, YAML } from "../helpers/faces";
import { ledgerTargets } from "../helpers/ledger-targets";

const [target] = ledgerTargets(["3.1.5"]).filter((t) => t.kind === "fabric");

describe("examples/ledger: LedgerTransaction through the pulumi CLI (Fabric 3.1.5, SmartBFT ordering)", function () {
  this.timeout(600_000);
  let t: ComponentTarget;
  before(async () => {
    assert.ok(target !== undefined);
    t = await startComponentTarget(target, { consensus: "BFT" });
    const network = t.ledger.network;
    assert.ok(network !== undefined);
    assert.equal(network.consensus, "BFT");
    assert.equal(network.orderers.length, 4);
    assert.ok((await network.leader()) !== undefined, "a BFT leader every orderer names");
  });
  after(async () => {
    await t.close();
  });

  it("previews the txId and the simulated result, then submits exactly that transaction once: VALID", () =>
    submitsValid(t));
  it("fails with MVCC_READ_CONFLICT when another client commits the key between endorsement and submit", () =>
    failsOnReadConflict(t));
  it("adopts the committed transaction after kill -9 of pulumi up: exactly one on the ledger", () =>
    adoptsAfterKill(t));
  for (const face of [TYPESCRIPT, YAML]) {
    it(`commits VALID as an Ed25519 client with no capability set: read from the channel (${face.key})`, async () =>
      ed25519NeedsNoSetting(t, await newClientOf(t, "ed25519"), face));
  }
  it("refuses an assertion of V2_0, naming the channel's V3_0 and its other capabilities", () =>
    assertionDisagrees(t, t.identity, "V2_0", "Channel V3_0, Application V2_5, Orderer V2_0"));
});
