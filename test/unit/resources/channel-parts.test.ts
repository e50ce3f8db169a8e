/**
 * The resources owning parts of a running channel, offline against an in-process orderer (test/unit/ledger/channel/
 * fake-orderer.ts, every Broadcast and Deliver stream counted): bad input refused naming the field with nothing read,
 * or with only the configuration read where the channel must be known; the preview's before → after, the elements
 * and their approvers on the resource's row; a signature set short of the policy refused naming who is missing; one
 * update sent, and none on the next run (adopted); the process's cached capabilities of the channel forgotten once an
 * update is ordered; a stale update computed again with the other admin's change kept; an owned field changed since
 * the check read it, or since the stack recorded it, refused with nothing sent, until refresh records it; refresh
 * reading only the owned fields.
 */
import { strict as assert } from "node:assert";
import { codecs } from "../../../provider/ledger/codec";
import type { Config, ConfigGroup, ConfigUpdate } from "../../../provider/ledger/config-messages";
import { applyConfigChange } from "../../../provider/ledger/channel/config-change";
import { cachedChannelCapabilities, forgetChannelCapabilities } from "../../../provider/ledger/channel-capabilities";
import type { Gateway } from "../../../provider/ledger/gateway-client";
import type { ChannelConfigChange } from "../../../provider/ledger/channel/change-declaration";
import { readConfigBlock } from "../../../provider/ledger/channel/config-block";
import { readConfigUpdateEnvelope } from "../../../provider/ledger/channel/config-update-signing";
import { mapConfig } from "../../../provider/ledger/channel/update-authorization";
import { ChannelDriftError } from "../../../provider/errors/ledger/channel-drift-error";
import { channelAnchorPeersProvider } from "../../../provider/resources/ledger/channel/channel-anchor-peers";
import { channelBatchSettingsProvider } from "../../../provider/resources/ledger/channel/channel-batch-settings";
import { channelCapabilitiesProvider } from "../../../provider/resources/ledger/channel/channel-capability-levels";
import { channelOrganizationProvider } from "../../../provider/resources/ledger/channel/channel-organization";
import type { PartOutputs } from "../../../provider/resources/ledger/channel/channel-part-session";
import type { ChannelBatchSettingsShape } from "../../../provider/resources/ledger/channel/channel-shapes";
import { configBlockOf, startFakeOrderer } from "../ledger/channel/fake-orderer";
import type { BroadcastAnswer, FakeOrderer } from "../ledger/channel/fake-orderer";
import { testChannel, testOrganization } from "../ledger/channel/test-channel";
import type { TestChannel, TestOrganization } from "../ledger/channel/test-channel";

const URN = "urn:pulumi:dev::channel::pulumi-nodejs:dynamic/ledger:ChannelBatchSettings::batch";

let channel: TestChannel;
let org3: TestOrganization;
let orderer: FakeOrderer;
let answers: ((envelope: Uint8Array) => BroadcastAnswer)[];
let config: Config;

/** `config`'s tree with each element the update modifies at its write-set version (what the orderer records). */
function versioned(root: ConfigGroup, update: ConfigUpdate, path: readonly string[] = ["Channel"]): ConfigGroup {
  const written = mapConfig(update.writeSet);
  const read = mapConfig(update.readSet);
  const version = (kind: string, key: readonly string[], current: bigint): bigint => {
    const id = `${kind === "Policy" ? "[Policy] " : `[${kind}]  `}/${key.join("/")}`;
    const w = written.get(id);
    return w !== undefined && read.get(id)?.version !== w.version ? w.version : current;
  };
  return {
    ...root,
    version: version("Group", path, root.version),
    groups: root.groups.map((g) =>
      g.value === undefined ? g : { key: g.key, value: versioned(g.value, update, [...path, g.key]) },
    ),
    values: root.values.map((v) =>
      v.value === undefined
        ? v
        : { key: v.key, value: { ...v.value, version: version("Value", [...path, v.key], v.value.version) } },
    ),
    policies: root.policies.map((p) =>
      p.value === undefined
        ? p
        : { key: p.key, value: { ...p.value, version: version("Policy", [...path, p.key], p.value.version) } },
    ),
  };
}

/** The orderer's answer to an update carrying `change`: SUCCESS, and the next configuration cut at the next block. */
function accept(change: ChannelConfigChange) {
  return (envelope: Uint8Array): BroadcastAnswer => {
    const { update } = readConfigUpdateEnvelope(codecs.Envelope.decode(envelope));
    const desired = applyConfigChange(config, change);
    config = {
      sequence: config.sequence + 1n,
      channelGroup: versioned(desired.channelGroup ?? assert.fail(), update),
    };
    return {
      response: { status: 200, info: "" },
      block: configBlockOf(channel.channelId, BigInt(orderer.blocks.length), config),
    };
  };
}

/** Another admin's update, applied by the test straight on the chain. */
function meanwhile(change: ChannelConfigChange): void {
  const desired = applyConfigChange(config, change);
  const bumped = desired.channelGroup ?? assert.fail();
  config = { sequence: config.sequence + 1n, channelGroup: bumped };
  orderer.append(configBlockOf(channel.channelId, BigInt(orderer.blocks.length), config));
}

const identityOf = (org: TestOrganization) => ({ mspId: org.mspId, ...org.adminPem });

/** An organization's MSP as a ChannelOrganization declares it (its anchor peers are a ChannelAnchorPeers'). */
function mspOf(org: TestOrganization) {
  const d = org.declaration;
  return { mspId: d.mspId, rootCertificates: [...d.rootCertificates], tlsRootCertificates: [...d.tlsRootCertificates] };
}
const peer = (i: number): TestOrganization => channel.peers[i] ?? assert.fail();

function settings(identity: TestOrganization, signers: readonly TestOrganization[] = []) {
  return {
    __urn: URN,
    channel: channel.channelId,
    orderer: { address: orderer.address },
    identity: identityOf(identity),
    ...(signers.length === 0 ? {} : { signers: signers.map(identityOf) }),
  };
}

/** The lines the provider printed (its engine log falls back to stdout without an engine) while `work` ran. */
async function printed<T>(work: () => Promise<T>): Promise<{ result: T; lines: string }> {
  const write = process.stdout.write.bind(process.stdout);
  let lines = "";
  process.stdout.write = (chunk: string | Uint8Array) => {
    lines += String(chunk);
    return true;
  };
  try {
    return { result: await work(), lines };
  } finally {
    process.stdout.write = write;
  }
}

/** The first failure of a check's result (a property and a reason), or an empty one. */
function first(result: { readonly failures?: readonly { property: string; reason: string }[] }) {
  const [failure] = result.failures ?? [];
  return failure ?? { property: "", reason: "" };
}

const counts = () => ({ delivers: orderer.delivers.count, broadcasts: orderer.broadcasts.length });

describe("the channel part resources, against an in-process orderer", function () {
  this.timeout(30_000);

  before(async () => {
    channel = await testChannel(2);
    org3 = await testOrganization("Org3MSP", 9051);
  });

  beforeEach(async () => {
    answers = [];
    config = channel.config;
    orderer = await startFakeOrderer({
      channelId: channel.channelId,
      blocks: [configBlockOf(channel.channelId, 0n, config)],
      onBroadcast: (envelope, i) =>
        (answers[i] ?? (() => ({ response: { status: 500, info: "unexpected broadcast" } })))(envelope),
    });
  });

  afterEach(async () => {
    await orderer.close();
  });

  it("refuses bad input naming the field before anything is read: certificates that do not parse, a capability the release lacks, a batch size over the absolute maximum", async () => {
    const org = await channelOrganizationProvider.check(
      {},
      {
        ...settings(peer(0), [peer(1)]),
        organization: {
          ...mspOf(org3),
          rootCertificates: ["-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n"],
        },
      },
    );
    const caps = await channelCapabilitiesProvider.check(
      {},
      {
        ...settings(channel.orderer, [peer(0), peer(1)]),
        capabilities: { channel: ["V3_0"] },
        fabricVersion: "2.5.16",
      },
    );
    const batch = await channelBatchSettingsProvider.check(
      {},
      {
        ...settings(channel.orderer),
        batchSize: { absoluteMaxBytes: 1024 * 1024, preferredMaxBytes: 2 * 1024 * 1024 },
      },
    );
    assert.deepEqual(
      [org, caps, batch].map((r) => r.failures?.map((f) => f.property)),
      [["organization.rootCertificates[0]"], ["capabilities.channel[0]"], ["batchSize.preferredMaxBytes"]],
    );
    assert.match(first(org).reason, /^Org3MSP's certificate does not parse as a PEM X.509 certificate/);
    assert.match(first(caps).reason, /^channel capability 'V3_0' is not one Fabric 2\.5\.16 supports/);
    assert.match(first(batch).reason, /is over the absolute maximum, absoluteMaxBytes 1048576/);
    assert.deepEqual(counts(), { delivers: 0, broadcasts: 0 }, "nothing was read or sent");
  });

  it("refuses an anchor peer of an organization the channel does not have, having read only its configuration", async () => {
    const result = await channelAnchorPeersProvider.check(
      {},
      { ...settings(org3), mspId: "Org3MSP", anchorPeers: [{ host: "peer0.org3", port: 9051 }] },
    );
    assert.deepEqual(result.failures, [
      {
        property: "mspId",
        reason:
          "Org3MSP is not an application organization of the channel (it has Org1MSP, Org2MSP): add the organization first (application.organizations) or name one of those",
      },
    ]);
    assert.deepEqual(counts(), { delivers: 1, broadcasts: 0 });
  });

  it("refuses in preview a signature set that does not meet the policy, naming who is missing", async () => {
    const result = await channelOrganizationProvider.check({}, { ...settings(peer(0)), organization: mspOf(org3) });
    assert.equal(first(result).property, "signers");
    assert.equal(
      first(result).reason,
      "the configuration update of channel 'testchannel' was not sent: [Group]  /Channel/Application needs its " +
        "mod_policy Admins (/Channel/Application/Admins: MAJORITY Admins), signed by Org1MSP: 1 more of Org2MSP must sign",
    );
    assert.equal(counts().broadcasts, 0);
  });

  it("shows the owned fields before and after, the elements modified and who approves them", async () => {
    const { result, lines } = await printed(() =>
      channelBatchSettingsProvider.check(
        {},
        { ...settings(channel.orderer), batchTimeout: "5s", batchSize: { maxMessageCount: 20 } },
      ),
    );
    assert.deepEqual(result.failures, undefined);
    assert.ok(
      lines.includes(
        `ChannelBatchSettings batch: channel 'testchannel' at config sequence 0 (block 0): batchTimeout "2s" → "5s"; ` +
          "batchSize.maxMessageCount 500 → 20. The update modifies [Value] /Channel/Orderer/BatchSize (mod_policy " +
          "/Channel/Orderer/Admins: MAJORITY Admins) approved by OrdererMSP; [Value] /Channel/Orderer/BatchTimeout " +
          "(mod_policy /Channel/Orderer/Admins: MAJORITY Admins) approved by OrdererMSP",
      ),
      lines,
    );
    const org = await printed(() =>
      channelOrganizationProvider.check({}, { ...settings(peer(0), [peer(1)]), organization: mspOf(org3) }),
    );
    assert.ok(
      org.lines.includes(
        `organization.mspId (none) → "Org3MSP"; organization.rootCertificates (none) → [certificate CN=ca.org3msp, ` +
          `O=Org3MSP (until 2035-01-01)]; organization.tlsRootCertificates (none) → [certificate CN=ca.org3msp, ` +
          `O=Org3MSP (until 2035-01-01)]; organization.nodeOUs (none) → true; organization.policies (none) → {Admins: ` +
          `{type: "Signature", rule: "OR('Org3MSP.admin')"}, `,
      ),
      org.lines,
    );
    assert.match(
      org.lines,
      /\[Group\] \/Channel\/Application \(mod_policy \/Channel\/Application\/Admins: MAJORITY Admins\) approved by Org1MSP, Org2MSP/,
    );
    assert.equal(counts().broadcasts, 0);
  });

  it("sends the update once, and adopts it on the next run without sending", async () => {
    answers = [accept({ orderer: { batchTimeout: "5s" } })];
    const inputs = { ...settings(channel.orderer), batchTimeout: "5s" };
    const checked = await channelBatchSettingsProvider.check({}, inputs);
    const created = await channelBatchSettingsProvider.create(checked.inputs as typeof inputs);
    const outs = created.outs as PartOutputs<ChannelBatchSettingsShape>;
    assert.deepEqual(
      [outs.batchTimeout, outs.configSequence, outs.configBlock, counts().broadcasts],
      ["5s", 1, "1", 1],
    );
    assert.equal(readConfigBlock(orderer.blocks[1] ?? assert.fail()).config.sequence, 1n);
    // A killed `pulumi up` left no state: the next run's create finds the update applied and sends nothing.
    const again = await channelBatchSettingsProvider.create(
      (await channelBatchSettingsProvider.check({}, inputs)).inputs as typeof inputs,
    );
    assert.deepEqual([(again.outs as typeof outs).configSequence, counts().broadcasts], [1, 1]);
  });

  it("forgets this process's cached capabilities of the channel once its update is ordered: a ledger resource after a raise reads the channel again", async () => {
    // A read that never answers: the cache holds it, and what a caller gets back shows whether it read again.
    const gateway = { evaluateTransaction: () => new Promise<never>(() => undefined) } as unknown as Gateway;
    const read = (channelId: string) => cachedChannelCapabilities(gateway, "network", channelId);
    const before = read(channel.channelId);
    const other = read("other-channel");
    assert.equal(read(channel.channelId), before, "one read per process");
    answers = [accept({ channel: { capabilities: ["V3_0"] } })];
    const inputs = { ...settings(channel.orderer, [peer(0), peer(1)]), capabilities: { channel: ["V3_0"] } };
    try {
      await channelCapabilitiesProvider.create(
        (await channelCapabilitiesProvider.check({}, inputs)).inputs as typeof inputs,
      );
      assert.equal(counts().broadcasts, 1);
      assert.deepEqual([read(channel.channelId) === before, read("other-channel") === other], [false, true]);
    } finally {
      forgetChannelCapabilities();
    }
  });

  it("computes a stale update again from the channel as it now is, keeping the other admin's change", async () => {
    const inputs = { ...settings(channel.orderer), batchTimeout: "5s" };
    const checked = (await channelBatchSettingsProvider.check({}, inputs)).inputs as typeof inputs;
    answers = [
      () => {
        meanwhile({ orderer: { batchSize: { maxMessageCount: 7 } } });
        return {
          response: {
            status: 400,
            info: "error applying config update to existing channel 'testchannel': error authorizing update: error validating ReadSet: proposed update requires that key [Group]  /Channel/Orderer be at version 0, but it is currently at version 1",
          },
        };
      },
      accept({ orderer: { batchTimeout: "5s" } }),
    ];
    const created = await channelBatchSettingsProvider.create(checked);
    const outs = created.outs as PartOutputs<ChannelBatchSettingsShape>;
    assert.deepEqual([outs.configSequence, counts().broadcasts], [2, 2]);
    assert.deepEqual(
      [config.sequence, readConfigBlock(orderer.blocks.at(-1) ?? assert.fail()).config.sequence],
      [2n, 2n],
    );
    const size = codecs.BatchSize.decode(
      config.channelGroup?.groups.find((g) => g.key === "Orderer")?.value?.values.find((v) => v.key === "BatchSize")
        ?.value?.value ?? assert.fail(),
    );
    assert.equal(size.maxMessageCount, 7, "the other admin's change is kept");
  });

  it("refuses an owned field changed since the check read it, sending nothing", async () => {
    const inputs = { ...settings(channel.orderer), batchTimeout: "5s" };
    const checked = (await channelBatchSettingsProvider.check({}, inputs)).inputs as typeof inputs;
    meanwhile({ orderer: { batchTimeout: "3s" } });
    await assert.rejects(
      channelBatchSettingsProvider.create(checked),
      (e: unknown) =>
        e instanceof ChannelDriftError &&
        e.fields.join() === "batchTimeout" &&
        e.message.includes(
          `channel 'testchannel' changed since this run read it: batchTimeout "2s" → "3s" (now at config sequence 1 (block 1))`,
        ),
    );
    assert.equal(counts().broadcasts, 0);
  });

  it("refuses an owned field another admin changed since the stack recorded it, until refresh records it; refresh reads only the owned fields", async () => {
    answers = [accept({ orderer: { batchTimeout: "5s" } })];
    const inputs = { ...settings(channel.orderer), batchTimeout: "5s" };
    const created = await channelBatchSettingsProvider.create(
      (await channelBatchSettingsProvider.check({}, inputs)).inputs as typeof inputs,
    );
    const outs = created.outs as PartOutputs<ChannelBatchSettingsShape>;
    meanwhile({ orderer: { batchTimeout: "3s", batchSize: { maxMessageCount: 9 } } });
    const refused = await channelBatchSettingsProvider.check(inputs, { ...inputs, batchTimeout: "7s" });
    assert.equal(first(refused).property, "batchTimeout");
    assert.match(
      first(refused).reason,
      /channel 'testchannel' has batchTimeout "5s" → "3s" since this stack last recorded it \(now at config sequence 2 \(block 2\)\): another admin, or an interrupted `pulumi up`, changed it/,
    );
    assert.match(first(refused).reason, /Run `pulumi refresh` to see and record what the channel has/);
    const read = await channelBatchSettingsProvider.read(created.id, outs);
    const props = read.props as PartOutputs<ChannelBatchSettingsShape>;
    assert.deepEqual(
      [props.batchTimeout, props.batchSize, props.configSequence, (read.inputs as typeof inputs).batchTimeout],
      ["3s", undefined, 2, "3s"],
      "the batch size is not owned: not read into the state",
    );
    const accepted = await channelBatchSettingsProvider.check(read.inputs as typeof inputs, {
      ...inputs,
      batchTimeout: "7s",
    });
    assert.equal(accepted.failures, undefined);
    assert.equal(counts().broadcasts, 1);
  });

  it("diffs the owned fields and the settings, and replaces for another channel", async () => {
    answers = [accept({ orderer: { batchTimeout: "5s" } })];
    const inputs = { ...settings(channel.orderer), batchTimeout: "5s" };
    const outs = (await channelBatchSettingsProvider.create(inputs)).outs as PartOutputs<ChannelBatchSettingsShape>;
    const diff = (news: object) => channelBatchSettingsProvider.diff("id", outs, { ...inputs, ...news });
    assert.deepEqual(await diff({}), { changes: false, replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ batchTimeout: "6s" }), { changes: true, replaces: [], deleteBeforeReplace: false });
    assert.deepEqual(await diff({ channel: "other" }), {
      changes: true,
      replaces: ["channel"],
      deleteBeforeReplace: false,
    });
    assert.deepEqual(
      await diff({ signers: [identityOf(peer(0))] }),
      { changes: true, replaces: [], deleteBeforeReplace: false },
      "a new signer is a change of settings",
    );
  });
});
