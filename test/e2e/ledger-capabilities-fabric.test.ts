/**
 * The channel's capabilities read from the channel (docs/decisions/0045-channel-capabilities-read-from-the-channel.md)
 * through the real engine (examples/ledger and its YAML twin through the plugin, the plain `pulumi` CLI), one body per
 * behaviour, each run on the targets TARGETS names for it: the provider reads the channel's capabilities before
 * anything is signed, so an Ed25519 identity on a V3_0 channel needs no setting (SmartBFT; Ed25519 and P-384
 * organizations); on a channel without V3_0 (Fabric 3.1.5 at V2_0; Fabric 2.5.16) it is refused in preview and up
 * with nothing but that read sent (the gateway proxy sees Evaluate calls only: no Endorse, no Submit), the failure
 * saying what Fabric's answer means; sent anyway by our client (which has no capability notion) it gets only Fabric's
 * own words, while a P-256 client certified the same way commits; a `channelCapability` assertion the channel
 * disagrees with fails naming both. The orderer organization's admin, a member of the channel but none of its
 * Application Readers, is refused the read by qscc's ACL: recognized as such, and an assertion is used in its place.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { readChannelCapabilities, resolveChannelCapabilities } from "../../provider/ledger/channel-capabilities";
import { EndorseError } from "../../provider/errors/ledger/endorse-error";
import { LedgerReadError } from "../../provider/errors/ledger/ledger-read-error";
import { NetworkLayout } from "../../sandbox/fabric-network/topology";
import { TYPESCRIPT, YAML } from "../helpers/faces";
import type { Face } from "../helpers/faces";
import { GATEWAY } from "../helpers/gateway-proxy";
import { componentStack, startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { newClientOf } from "../helpers/ledger-key-types";
import { ledgerTargets } from "../helpers/ledger-targets";
import type { TargetIdentity, TargetStartOptions } from "../helpers/ledger-targets";
import { call, failure } from "../integration/ledger-targets/helpers";

/** A target, started once for its `describe`, what its channel is, and the bodies that run on it in order. */
interface Target {
  readonly describe: string;
  readonly fabric: "2.5.16" | "3.1.5";
  readonly start: TargetStartOptions;
  /** The channel's capabilities as a refused assertion names them. */
  readonly capabilities: string;
  /** The Ed25519 client: one Org1's CA certifies for the test, or Org1's own client (an Ed25519 organization). */
  readonly ed25519: "certified by Org1's CA" | "Org1's client";
  /** What Fabric answers an Ed25519 identity on a channel without V3_0: its words, and what our failure adds. */
  readonly refusal?: { readonly fabric: string; readonly meaning: string };
  readonly bodies: readonly (readonly [Face, Body])[];
}

/** The paths the proxy saw since `mark`, without repeats in a row ("Evaluate ×3, Endorse" → [Evaluate, Endorse]). */
function pathRuns(t: ComponentTarget, mark: number): string[] {
  return t.proxy.paths(mark).filter((p, i, all) => i === 0 || all[i - 1] !== p);
}

function ed25519Client(t: ComponentTarget, target: Target): Promise<TargetIdentity> {
  return target.ed25519 === "Org1's client" ? Promise.resolve(t.identity) : newClientOf(t, "ed25519");
}

/**
 * On a V3_0 channel, an Ed25519 client with no channelCapability: up passes, the proxy sees the capability read
 * (Evaluate) before the first Endorse, the transaction commits VALID.
 */
async function ed25519NeedsNoSetting(t: ComponentTarget, target: Target, face: Face): Promise<void> {
  const identity = await ed25519Client(t, target);
  const mark = t.proxy.calls.length;
  const stack = await componentStack(t, { fn: "CreateAsset", args: [uniqueKey("caps-v3"), "blue"], identity }, face);
  try {
    const up = await stack.up();
    assert.deepEqual([up.outputs["ledgerValidationCode"], up.outputs["ledgerResult"]], ["VALID", "blue"]);
    const runs = pathRuns(t, mark);
    assert.deepEqual(runs.slice(0, 2), [GATEWAY.evaluate, GATEWAY.endorse], runs.join(", "));
  } finally {
    await stack.dispose();
  }
}

/**
 * On a channel without V3_0, an Ed25519 client with no channelCapability: preview fails on identity.certificatePem
 * with Fabric's answer and what it means; then up fails the same way. The proxy saw Evaluate calls only (the
 * capability read, which Fabric refused), and no transaction names the stack's key.
 */
async function refusesEd25519BeforeSending(t: ComponentTarget, target: Target, face: Face): Promise<void> {
  assert.ok(target.refusal !== undefined);
  const reason =
    "has an Ed25519 key, and this identity was refused even a read of channel 'opsledger''s configuration (qscc " +
    `GetChainInfo; Fabric: ${target.refusal.fabric}): ${target.refusal.meaning}`;
  const identity = await ed25519Client(t, target);
  const height = await t.reader.height();
  const mark = t.proxy.calls.length;
  const key = uniqueKey("caps-v2");
  const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "blue"], identity }, face);
  try {
    for (const run of [() => stack.preview({ allowFailure: true }), () => stack.up({ allowFailure: true })]) {
      const failed = await run();
      assert.notEqual(failed.code, 0);
      const field = failed.output.indexOf("identity.certificatePem");
      assert.ok(field >= 0 && failed.output.indexOf(reason, field) > field, `${reason} in:\n${failed.output}`);
    }
    assert.deepEqual(pathRuns(t, mark), [GATEWAY.evaluate], "the capability read only: no Endorse, no Submit");
    // The network may be shared with other files' tests: no transaction naming this stack's key, whatever else grew.
    assert.deepEqual(await t.reader.naming(key, height), [], "nothing was ordered");
  } finally {
    await stack.dispose();
  }
}

/**
 * The capability the channel lacks asserted, on a V3_0 channel by the target's client (Org1's, of whatever key type),
 * on a V2_0 one by a P-256 client Org1's CA certifies: preview fails on channelCapability naming the assertion and what
 * the channel has, with only the read sent.
 */
async function assertionDisagrees(t: ComponentTarget, target: Target): Promise<void> {
  const asserted = target.capabilities.startsWith("Channel V3_0") ? "V2_0" : "V3_0";
  const identity = asserted === "V2_0" ? t.identity : await newClientOf(t, "ecdsa-p256");
  const mark = t.proxy.calls.length;
  const stack = await componentStack(t, {
    fn: "CreateAsset",
    args: [uniqueKey("caps-assert"), "blue"],
    identity,
    channelCapability: asserted,
  });
  try {
    const failed = await stack.preview({ allowFailure: true });
    assert.notEqual(failed.code, 0);
    const text = failed.output.replace(/\s+/g, " ");
    const expected = `says ${asserted}, but channel '${t.ledger.channel}' has ${target.capabilities} (configuration block `;
    assert.ok(text.includes(expected), `${expected} in:\n${failed.output}`);
    assert.deepEqual(pathRuns(t, mark), [GATEWAY.evaluate], "the capability read only");
  } finally {
    await stack.dispose();
  }
}

/** Our client reads the capabilities TARGETS says the channel has, from its configuration block. */
async function readsTheChannel(t: ComponentTarget, target: Target): Promise<void> {
  const gateway = t.ledger.connectOurs();
  try {
    const c = await readChannelCapabilities(gateway, t.ledger.channel);
    const read = `Channel ${String(c.channelGroup)}, Application ${String(c.application)}, Orderer ${String(c.orderer)}`;
    assert.deepEqual([read, c.level, t.ledger.network?.version], [target.capabilities, "V2_0", target.fabric]);
  } finally {
    gateway.close();
  }
}

/** The orderer organization's admin, refused the read by the channel's Readers: said so, the assertion used. */
async function refusedReaderUsesAssertion(t: ComponentTarget): Promise<void> {
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
}

/**
 * What the check spares the user: the same Ed25519 identity sent anyway gets Fabric's words only (on 2.5 the peer's
 * log alone says "Certificate's public key type not recognized"); a P-256 client certified the same way commits, so
 * the key type is the difference.
 */
async function refusedWhenSentAnyway(t: ComponentTarget, target: Target): Promise<void> {
  assert.ok(target.refusal !== undefined);
  const key = uniqueKey("ed25519-sent");
  const ours = t.ledger.connectOurs({ identity: await ed25519Client(t, target) });
  const control = t.ledger.connectOurs({ identity: await newClientOf(t, "ecdsa-p256") });
  try {
    const err = await failure(ours.submitTransaction(call(t.ledger, "CreateAsset", [key, "blue"])));
    assert.ok(err instanceof EndorseError, String(err));
    assert.deepEqual(
      [err.code, err.details.map((d) => [d.address, d.mspId, d.message])],
      [10, [[t.ledger.endorserAddress("Org1MSP"), "Org1MSP", `error validating proposal: ${target.refusal.fabric}`]]],
    );
    const committed = await control.submitTransaction(call(t.ledger, "CreateAsset", [key, "blue"]));
    assert.equal(committed.status.codeName, "VALID");
  } finally {
    ours.close();
    control.close();
  }
}

const BODIES = {
  ed25519NoSetting: {
    title: (face: Face) =>
      `commits VALID as an Ed25519 client with no capability set: read from the channel (${face.key})`,
    run: ed25519NeedsNoSetting,
  },
  refusedBeforeSending: {
    title: (face: Face) =>
      `refuses an Ed25519 client in preview and up with only the capability read sent, naming Fabric's answer (${face.key})`,
    run: refusesEd25519BeforeSending,
  },
  assertionDisagrees: {
    title: () => "refuses an assertion of the capability the channel lacks, naming what the channel has",
    run: assertionDisagrees,
  },
  readsTheChannel: {
    title: () => "has the channel asked for, read from its configuration block",
    run: readsTheChannel,
  },
  refusedReader: {
    title: () =>
      "an identity the channel's Readers refuse (the orderer organization's admin): said so, the assertion used",
    run: refusedReaderUsesAssertion,
  },
  sentAnyway: {
    title: () => "gets only Fabric's own words for an Ed25519 client sent anyway; a P-256 client commits",
    run: refusedWhenSentAnyway,
  },
} as const satisfies Record<
  string,
  { title: (face: Face) => string; run: (t: ComponentTarget, target: Target, face: Face) => Promise<void> }
>;
type Body = keyof typeof BODIES;

const through = (face: Face, ...bodies: Body[]): (readonly [Face, Body])[] => bodies.map((b) => [face, b] as const);

const TARGETS: readonly Target[] = [
  {
    describe: "Fabric 3.1.5 without V3_0 (a channel at V2_0, Raft, a network of this file's own)",
    fabric: "3.1.5",
    start: { channelCapability: "V2_0" },
    capabilities: "Channel V2_0, Application V2_5, Orderer V2_0",
    ed25519: "certified by Org1's CA",
    refusal: {
      fabric: "access denied: channel [opsledger] creator org [Org1MSP]",
      meaning: "a Fabric 3 peer answers so when the channel lacks the capability V3_0",
    },
    bodies: [
      ...through(TYPESCRIPT, "readsTheChannel", "refusedBeforeSending"),
      ...through(YAML, "refusedBeforeSending"),
      ...through(TYPESCRIPT, "assertionDisagrees", "refusedReader", "sentAnyway"),
    ],
  },
  {
    describe: "Fabric 2.5.16 (the run's shared network)",
    fabric: "2.5.16",
    start: {},
    capabilities: "Channel V2_0, Application V2_5, Orderer V2_0",
    ed25519: "certified by Org1's CA",
    refusal: {
      fabric: "access denied: channel [opsledger] creator org unknown, creator is malformed",
      meaning:
        "a Fabric 2.x peer answers so, since it cannot import Ed25519 keys and no 2.x channel has the capability V3_0",
    },
    bodies: [
      ...through(TYPESCRIPT, "refusedBeforeSending"),
      ...through(YAML, "refusedBeforeSending"),
      ...through(TYPESCRIPT, "assertionDisagrees", "sentAnyway"),
    ],
  },
  {
    describe: "Fabric 3.1.5, SmartBFT ordering (the run's shared SmartBFT network; its channel is V3_0)",
    fabric: "3.1.5",
    start: { shared: "3.1.5 SmartBFT" },
    capabilities: "Channel V3_0, Application V2_5, Orderer V2_0",
    ed25519: "certified by Org1's CA",
    bodies: [
      ...through(TYPESCRIPT, "ed25519NoSetting"),
      ...through(YAML, "ed25519NoSetting"),
      ...through(TYPESCRIPT, "assertionDisagrees"),
    ],
  },
  {
    describe: "Fabric 3.1.5 with an Ed25519 and a P-384 organization, mutual TLS (the run's shared network of them)",
    fabric: "3.1.5",
    start: { shared: "3.1.5 Ed25519 and P-384, mutual TLS" },
    capabilities: "Channel V3_0, Application V2_5, Orderer V2_0",
    ed25519: "Org1's client",
    bodies: [...through(TYPESCRIPT, "assertionDisagrees"), ...through(YAML, "ed25519NoSetting")],
  },
];

const FACTORIES = ledgerTargets(["2.5.16", "3.1.5"]);

for (const target of TARGETS) {
  describe(`the channel's capabilities through the pulumi CLI: ${target.describe}`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async function () {
      this.timeout(900_000);
      const factory = FACTORIES.find((f) => f.label === `Fabric ${target.fabric}`);
      assert.ok(factory !== undefined, target.fabric);
      t = await startComponentTarget(factory, target.start);
    });
    after(() => t.close());

    for (const [face, body] of target.bodies) {
      it(BODIES[body].title(face), () => BODIES[body].run(t, target, face));
    }
  });
}
