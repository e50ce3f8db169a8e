/**
 * The signature flow of a configuration update, offline against an in-process orderer: which admins an update needs
 * (the mod_policy of every element it modifies, evaluated as Fabric does) and who is missing, refused before anything
 * is sent; a stale update (the channel changed since it was computed) named; each approver's ConfigSignature and the
 * submitter's envelope verifying as the orderer checks them; a SERVICE_UNAVAILABLE broadcast retried with the same
 * envelope; the configuration block awaited; a change the channel already has sending nothing.
 */
import { strict as assert } from "node:assert";
import { codecs } from "../../../../provider/ledger/codec";
import type { Config } from "../../../../provider/ledger/config-messages";
import { BroadcastError } from "../../../../provider/errors/ledger/broadcast-error";
import { computeConfigUpdate } from "../../../../provider/ledger/channel/compute-update";
import { applyConfigChange } from "../../../../provider/ledger/channel/config-change";
import { ConfigUpdateAuthorizationError } from "../../../../provider/errors/ledger/config-update-authorization-error";
import {
  configUpdateBytes,
  readConfigUpdateEnvelope,
  signConfigUpdate,
  signerOf,
} from "../../../../provider/ledger/channel/config-update-signing";
import { ChannelConfigError } from "../../../../provider/errors/ledger/channel-config-error";
import { connectOrderer } from "../../../../provider/ledger/channel/orderer-client";
import type { OrdererClient } from "../../../../provider/ledger/channel/orderer-client";
import type { DeliverTarget } from "../../../../provider/ledger/channel/deliver-client";
import { authorizeConfigUpdate } from "../../../../provider/ledger/channel/update-authorization";
import { updateChannelConfig } from "../../../../provider/ledger/channel/update-channel";
import { concatBytes } from "../../../../provider/ledger/hash";
import { verifySignature } from "../../../../provider/ledger/signing";
import { newMember, newOrg, NOW } from "../fixtures";
import { configBlockOf, startFakeOrderer } from "./fake-orderer";
import type { FakeOrderer } from "./fake-orderer";
import { testChannel, testOrganization } from "./test-channel";
import type { TestChannel, TestOrganization } from "./test-channel";

let channel: TestChannel;
let org3: TestOrganization;

/** `config` with the group at `path` (below /Channel) at `version`: what the orderer records after an update. */
function withGroupVersion(config: Config, path: readonly string[], version: bigint): Config {
  const bump = (
    group: NonNullable<Config["channelGroup"]>,
    rest: readonly string[],
  ): NonNullable<Config["channelGroup"]> => {
    if (rest.length === 0) return { ...group, version };
    return {
      ...group,
      groups: group.groups.map((g) =>
        g.key === rest[0] && g.value !== undefined ? { key: g.key, value: bump(g.value, rest.slice(1)) } : g,
      ),
    };
  };
  return { ...config, channelGroup: bump(config.channelGroup ?? assert.fail(), path) };
}

function admin(i: number): TestOrganization["admin"] {
  return (channel.peers[i] ?? assert.fail()).admin;
}

describe("a configuration update's signatures", () => {
  before(async function () {
    this.timeout(30_000);
    channel = await testChannel(2);
    org3 = await testOrganization("Org3MSP", 9051);
  });

  it("names the organizations whose admins must still sign: adding an organization needs a majority of the application's", async () => {
    const desired = applyConfigChange(channel.config, {
      application: { organizations: { Org3MSP: org3.declaration } },
    });
    const update = computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail();
    const alone = await authorizeConfigUpdate(channel.config, update, [admin(0).identity], { now: NOW });
    assert.deepEqual(
      [
        alone.authorized,
        alone.missingOrganizations,
        alone.checks.map((c) => [c.element, c.evaluation.path, c.evaluation.needed]),
      ],
      [false, ["Org2MSP"], [["[Group]  /Channel/Application", "/Channel/Application/Admins", 1]]],
    );
    const error = new ConfigUpdateAuthorizationError({ authorization: alone });
    assert.equal(
      error.message,
      "the configuration update of channel 'testchannel' was not sent: [Group]  /Channel/Application needs its mod_policy " +
        "Admins (/Channel/Application/Admins: MAJORITY Admins), signed by Org1MSP: 1 more of Org2MSP must sign",
    );
    const client = (channel.peers[1] ?? assert.fail()).client;
    const withClient = await authorizeConfigUpdate(channel.config, update, [admin(0).identity, client.identity], {
      now: NOW,
    });
    assert.deepEqual(
      [withClient.authorized, withClient.missingOrganizations],
      [false, ["Org2MSP"]],
      "a client is no admin",
    );
    const both = await authorizeConfigUpdate(channel.config, update, [admin(0).identity, admin(1).identity], {
      now: NOW,
    });
    assert.deepEqual([both.authorized, both.missingOrganizations, both.stale], [true, [], []]);
  });

  it("needs the orderer organization's admin for a batch timeout, and counts no signer the channel would not", async () => {
    const desired = applyConfigChange(channel.config, { orderer: { batchTimeout: "1s" } });
    const update = computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail();
    const stranger = await newMember(await newOrg("Org1MSP"), "Admin@elsewhere", { ou: "admin" });
    const peers = await authorizeConfigUpdate(
      channel.config,
      update,
      [admin(0).identity, admin(1).identity, stranger.identity],
      { now: NOW },
    );
    assert.deepEqual([peers.authorized, peers.missingOrganizations], [false, ["OrdererMSP"]]);
    assert.equal(peers.rejectedSigners.length, 1);
    assert.match(peers.rejectedSigners[0]?.reason ?? "", /does not chain to a trusted root CA of Org1MSP/);
    const orderer = await authorizeConfigUpdate(channel.config, update, [channel.orderer.admin.identity], { now: NOW });
    assert.equal(orderer.authorized, true);
  });

  it("recognises a stale update: the channel changed after it was computed", async () => {
    const desired = applyConfigChange(channel.config, {
      application: { organizations: { Org3MSP: org3.declaration } },
    });
    const update = computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail();
    const changedMeanwhile = withGroupVersion(channel.config, ["Application"], 1n);
    const verdict = await authorizeConfigUpdate(changedMeanwhile, update, [admin(0).identity, admin(1).identity], {
      now: NOW,
    });
    assert.deepEqual(verdict.stale, [
      { element: "[Group]  /Channel/Application", readVersion: 0n, currentVersion: 1n },
    ]);
    assert.equal(verdict.authorized, false);
    assert.match(
      new ConfigUpdateAuthorizationError({ authorization: verdict }).message,
      /read the channel's configuration again and compute the update anew/,
    );
  });

  it("signs over signature header ‖ update bytes, as the orderer verifies each approver", async () => {
    const desired = applyConfigChange(channel.config, { orderer: { batchTimeout: "1s" } });
    const bytes = configUpdateBytes(computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail());
    const signature = await signConfigUpdate(bytes, admin(1));
    assert.equal(signerOf(signature).mspId, "Org2MSP");
    const message = concatBytes(signature.signatureHeader, bytes);
    assert.equal(
      verifySignature({ publicKey: admin(1).identity.credentials, message, signature: signature.signature }),
      true,
    );
    assert.equal(
      verifySignature({ publicKey: admin(1).identity.credentials, message: bytes, signature: signature.signature }),
      false,
    );
  });
});

describe("updateChannelConfig against an orderer", () => {
  let orderer: FakeOrderer;
  let client: OrdererClient;
  let deliver: DeliverTarget;
  let answers: ((envelope: Uint8Array) => ReturnType<Parameters<typeof startFakeOrderer>[0]["onBroadcast"]>)[];

  beforeEach(async function () {
    this.timeout(30_000);
    answers = [];
    orderer = await startFakeOrderer({
      channelId: channel.channelId,
      blocks: [configBlockOf(channel.channelId, 0n, channel.config)],
      onBroadcast: (envelope, i) =>
        (answers[i] ?? (() => ({ response: { status: 500, info: "unexpected" } })))(envelope),
    });
    client = connectOrderer({ address: orderer.address });
    deliver = { client: client.client, address: orderer.address, kind: "orderer" };
  });

  afterEach(async () => {
    client.close();
    await orderer.close();
  });

  /** The orderer's answer to an update: SUCCESS, and the configuration it carries cut at the next block. */
  function accept(desired: Config) {
    return () => ({
      response: { status: 200, info: "" },
      block: configBlockOf(channel.channelId, BigInt(orderer.blocks.length), { ...desired, sequence: 1n }),
    });
  }

  it("refuses before sending anything when the signers do not satisfy the policy, naming who is missing", async function () {
    this.timeout(30_000);
    await assert.rejects(
      updateChannelConfig(
        channel.channelId,
        { orderer: { batchTimeout: "1s" } },
        { orderer: client, deliver, signers: [admin(0)] },
      ),
      (e: unknown) => e instanceof ConfigUpdateAuthorizationError && e.missingOrganizations.join() === "OrdererMSP",
    );
    assert.equal(orderer.broadcasts.length, 0);
  });

  it("refuses bad input before any request, the configuration read included", async () => {
    await assert.rejects(
      updateChannelConfig(
        channel.channelId,
        { orderer: { batchSize: { maxMessageCount: 0 } } },
        { orderer: client, deliver, signers: [admin(0)] },
      ),
      (e: unknown) => e instanceof ChannelConfigError && e.field === "orderer.batchSize.maxMessageCount",
    );
    assert.deepEqual([orderer.delivers.count, orderer.broadcasts.length], [0, 0]);
  });

  it("submits once, retrying SERVICE_UNAVAILABLE with the same envelope, and returns the new configuration block", async function () {
    this.timeout(30_000);
    const desired = applyConfigChange(channel.config, { orderer: { batchTimeout: "1s" } });
    answers = [
      () => ({ response: { status: 503, info: "no Raft leader" } }),
      () => ({ response: { status: 503, info: "no Raft leader" } }),
      accept(desired),
    ];
    const signers = [channel.orderer.admin, admin(0)];
    const result = await updateChannelConfig(
      channel.channelId,
      { orderer: { batchTimeout: "1s" } },
      { orderer: client, deliver, signers },
    );
    assert.deepEqual([result.changed, result.block.number, result.block.config.sequence], [true, 1n, 1n]);
    assert.equal(orderer.broadcasts.length, 3);
    assert.ok(orderer.broadcasts.every((b) => Buffer.from(b).equals(Buffer.from(orderer.broadcasts[0] ?? []))));
    const sent = readConfigUpdateEnvelope(codecs.Envelope.decode(orderer.broadcasts[0] ?? new Uint8Array(0)));
    assert.deepEqual(
      [sent.channelId, sent.update.channelId, sent.signatures.map((s) => signerOf(s).mspId)],
      ["testchannel", "testchannel", ["OrdererMSP", "Org1MSP"]],
    );
  });

  it("sends nothing when the channel already has the declared configuration", async () => {
    const result = await updateChannelConfig(
      channel.channelId,
      { orderer: { batchTimeout: "2s" } },
      { orderer: client, deliver, signers: [admin(0)] },
    );
    assert.deepEqual([result.changed, result.block.number, orderer.broadcasts.length], [false, 0n, 0]);
  });

  it("names what the orderer's refusal means: ReadSet version errors are a channel changed since the update was computed", async function () {
    this.timeout(30_000);
    const info =
      "error applying config update to existing channel 'testchannel': error authorizing update: error validating ReadSet: " +
      "proposed update requires that key [Group]  /Channel/Application be at version 0, but it is currently at version 1";
    answers = [() => ({ response: { status: 400, info } })];
    await assert.rejects(
      updateChannelConfig(
        channel.channelId,
        { application: { organizations: { Org3MSP: org3.declaration } } },
        { orderer: client, deliver, signers: [admin(0), admin(1)] },
      ),
      (e: unknown) =>
        e instanceof BroadcastError &&
        e.problem === "STALE_READ_SET" &&
        !e.retryable &&
        e.message ===
          `orderer ${orderer.address} refused the envelope for channel 'testchannel' (BAD_REQUEST: ${info}): someone changed ` +
            "the channel's configuration after this update was computed (its read set names versions the channel no " +
            "longer has); nothing was changed: read the configuration again, compute the update from it, and collect " +
            "the signatures for that one",
    );
    assert.equal(orderer.broadcasts.length, 1);
  });
});
