/**
 * An Ed25519 identity on the run's shared Fabric 2.5.16 network (ledger-key-types-fabric.test.ts has the 3.1.5 network
 * with Ed25519 and P-384 organizations): an Ed25519 client certified by Org1's real CA is refused in preview with only
 * the channel capability read sent (Fabric 2.5 refuses the read itself as "creator is malformed", and the failure says
 * what that means), through both faces, and an assertion of V3_0 fails naming the channel's V2_0.
 */
import { strict as assert } from "node:assert";
import { EndorseError } from "../../provider/ledger/endorse-error";
import { startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { assertionDisagrees, refusesEd25519BeforeSending } from "../helpers/ledger-capability-behaviours";
import { newClientOf } from "../helpers/ledger-key-types";
import { TYPESCRIPT, YAML } from "../helpers/faces";
import { ledgerTargets, type TargetIdentity } from "../helpers/ledger-targets";
import { call, failure } from "../integration/ledger-targets/helpers";

/** Per test, as test/e2e/ledger-component.test.ts allows its pulumi runs. */
const E2E_TEST_TIMEOUT_MS = 600_000;

const fabric2516 = ledgerTargets(["2.5.16"]).find((t) => t.label === "Fabric 2.5.16");

describe("an Ed25519 identity on real Fabric 2.5.16 (the run's shared network)", function () {
  this.timeout(E2E_TEST_TIMEOUT_MS);
  let t: ComponentTarget;
  let identity: TargetIdentity;

  before(async function () {
    this.timeout(300_000);
    assert.ok(fabric2516 !== undefined);
    t = await startComponentTarget(fabric2516);
    identity = await newClientOf(t, "ed25519");
  });
  after(() => t.close());

  const refused25 = new RegExp(
    "has an Ed25519 key, and this identity was refused even a read of channel 'opsledger''s configuration \\(qscc " +
      "GetChainInfo; Fabric: access denied: channel \\[opsledger\\] creator org unknown, creator is malformed\\): a " +
      "Fabric 2\\.x peer answers so, since it cannot import Ed25519 keys and no 2\\.x channel has the capability V3_0",
  );

  for (const face of [TYPESCRIPT, YAML]) {
    it(`is refused in preview and up with only the capability read sent, naming what Fabric answered (${face.key})`, () =>
      refusesEd25519BeforeSending(t, identity, refused25, face));
  }

  it("refuses a P-256 client's assertion of V3_0, naming the channel's V2_0 and its other capabilities", async () =>
    assertionDisagrees(t, await newClientOf(t, "ecdsa-p256"), "V3_0", "Channel V2_0, Application V2_5, Orderer V2_0"));

  it("is refused by Fabric 2.5 itself only as 'creator is malformed' when sent anyway", async () => {
    const key = uniqueKey("ed25519-on-2.5");
    // What the check spares the user: the same identity sent anyway (our client has no capability notion) gets an
    // answer that names no cause (the peer's log alone says "Certificate's public key type not recognized. Supported
    // keys: [ECDSA, RSA]"); a P-256 client certified the same way commits, so the key type is the difference.
    const ours = t.ledger.connectOurs({ identity });
    const control = t.ledger.connectOurs({ identity: await newClientOf(t, "ecdsa-p256") });
    try {
      const err = await failure(ours.submitTransaction(call(t.ledger, "CreateAsset", [key, "blue"])));
      assert.ok(err instanceof EndorseError, String(err));
      assert.deepEqual(
        [err.code, err.details],
        [
          10,
          [
            {
              address: t.ledger.endorserAddress("Org1MSP"),
              mspId: "Org1MSP",
              message:
                "error validating proposal: access denied: channel [opsledger] creator org unknown, creator is malformed",
            },
          ],
        ],
      );
      const committed = await control.submitTransaction(call(t.ledger, "CreateAsset", [key, "blue"]));
      assert.equal(committed.status.codeName, "VALID");
    } finally {
      ours.close();
      control.close();
    }
  });
});
