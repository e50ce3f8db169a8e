/**
 * The channel's capabilities read from the channel (docs/decisions/0045-channel-capabilities-read-from-the-channel.md)
 * on a real Fabric 3.1.5 network whose channel runs without V3_0 (channel capability V2_0, Raft; a
 * network of the file's own): the provider reads the channel's capabilities before signing, and Fabric refuses an
 * Ed25519 client that read itself (`creator org [Org1MSP]`: the channel's MSPs are not MSPv3_0), so preview and up
 * are refused with that read the only call (no Endorse, no Submit), through both faces, the failure saying what the
 * answer means; a P-256 client's assertion of V3_0 fails naming the channel's V2_0. Sent anyway by our client (which
 * has no capability notion), the same Ed25519 identity gets only Fabric's `creator org [Org1MSP]`, while a P-256 client
 * certified the same way commits. The orderer organization's admin, a member of the channel but none of its
 * Application Readers, is refused the read by qscc's ACL: recognized as such, and an assertion is used in its place.
 * (V3_0 channels: test/e2e/ledger-key-types-fabric.test.ts on Raft,
 * ledger-component.test.ts on BFT; Fabric 2.5.16 in the first file too.)
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { readChannelCapabilities, resolveChannelCapabilities } from "../../provider/ledger/channel-capabilities";
import { EndorseError } from "../../provider/ledger/endorse-error";
import { LedgerReadError } from "../../provider/ledger/ledger-read-error";
import { NetworkLayout } from "../../sandbox/fabric-network/topology";
import { assertionDisagrees, refusesEd25519BeforeSending } from "../helpers/ledger-capability-behaviours";
import { startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { newClientOf } from "../helpers/ledger-key-types";
import { TYPESCRIPT, YAML } from "../helpers/faces";
import { ledgerTargets, type TargetIdentity } from "../helpers/ledger-targets";
import { call, failure } from "../integration/ledger-targets/helpers";

const fabric315 = ledgerTargets(["3.1.5"]).find((t) => t.label === "Fabric 3.1.5");

describe("an Ed25519 identity on real Fabric 3.1.5 without V3_0 (a channel at V2_0)", function () {
  this.timeout(600_000);
  let t: ComponentTarget;
  let identity: TargetIdentity;

  before(async function () {
    this.timeout(300_000);
    assert.ok(fabric315 !== undefined);
    t = await startComponentTarget(fabric315, { channelCapability: "V2_0" });
    identity = await newClientOf(t, "ed25519");
  });
  after(() => t.close());

  it("has the channel asked for: Channel V2_0 on a 3.1.5 network, read from its configuration block", async () => {
    const gateway = t.ledger.connectOurs();
    try {
      const capabilities = await readChannelCapabilities(gateway, t.ledger.channel);
      assert.deepEqual(
        [capabilities.channelGroup, capabilities.application, capabilities.orderer, capabilities.level],
        [["V2_0"], ["V2_5"], ["V2_0"], "V2_0"],
      );
      assert.equal(t.ledger.network?.version, "3.1.5");
    } finally {
      gateway.close();
    }
  });

  const refused3x = new RegExp(
    "has an Ed25519 key, and this identity was refused even a read of channel 'opsledger''s configuration \\(qscc " +
      "GetChainInfo; Fabric: access denied: channel \\[opsledger\\] creator org \\[Org1MSP\\]\\): a Fabric 3 peer " +
      "answers so when the channel lacks the capability V3_0",
  );
  for (const face of [TYPESCRIPT, YAML]) {
    it(`is refused in preview and up with only the capability read sent, naming what Fabric answered (${face.key})`, () =>
      refusesEd25519BeforeSending(t, identity, refused3x, face));
  }

  it("refuses a P-256 client's assertion of V3_0, naming the channel's V2_0 and its other capabilities", async () =>
    assertionDisagrees(t, await newClientOf(t, "ecdsa-p256"), "V3_0", "Channel V2_0, Application V2_5, Orderer V2_0"));

  it("an identity the channel's Readers refuse (the orderer organization's admin): said so, the assertion used", async () => {
    const network = t.ledger.network;
    assert.ok(network !== undefined);
    // cryptogen's users/Admin@<orderer domain>/msp, next to the TLS folder the network names.
    const msp = path.join(path.dirname(path.dirname(new NetworkLayout(network.dir).ordererAdminTls().cert)), "msp");
    const only = (folder: string): string => {
      const [file, ...rest] = fs.readdirSync(path.join(msp, folder));
      assert.ok(file !== undefined && rest.length === 0, `${folder} holds one file`);
      return fs.readFileSync(path.join(msp, folder, file), "utf8");
    };
    const admin = { mspId: "OrdererMSP", certificatePem: only("signcerts"), privateKeyPem: only("keystore") };
    const gateway = t.ledger.connectOurs({ identity: admin });
    try {
      const read = await failure(readChannelCapabilities(gateway, t.ledger.channel));
      assert.ok(read instanceof LedgerReadError, String(read));
      assert.equal(read.problem, "NOT_A_READER");
      assert.match(String(read.cause), /with policy \[\/Channel\/Application\/Readers\]/);
      const resolved = await resolveChannelCapabilities(gateway, {
        channelId: t.ledger.channel,
        keyType: "ecdsa-p256",
        asserted: "V2_0",
        network: `acl-${network.networkFile}`,
      });
      assert.deepEqual(resolved, {
        level: "V2_0",
        source: "assertion",
        notice:
          "the identity may not read channel 'opsledger''s configuration (its Readers policy refused qscc); using " +
          "channelCapability V2_0 as declared",
      });
    } finally {
      gateway.close();
    }
  });

  it("is refused by Fabric 3.1.5 itself only as 'creator org [Org1MSP]' when sent anyway", async () => {
    const key = uniqueKey("ed25519-on-v2");
    const ours = t.ledger.connectOurs({ identity });
    const control = t.ledger.connectOurs({ identity: await newClientOf(t, "ecdsa-p256") });
    try {
      const err = await failure(ours.submitTransaction(call(t.ledger, "CreateAsset", [key, "blue"])));
      assert.ok(err instanceof EndorseError, String(err));
      assert.deepEqual(
        [err.code, err.details.map((d) => [d.mspId, d.message])],
        [10, [["Org1MSP", "error validating proposal: access denied: channel [opsledger] creator org [Org1MSP]"]]],
      );
      const committed = await control.submitTransaction(call(t.ledger, "CreateAsset", [key, "blue"]));
      assert.equal(committed.status.codeName, "VALID");
    } finally {
      ours.close();
      control.close();
    }
  });
});
