/**
 * The channel's capabilities read from the channel, through the real engine (examples/ledger and its YAML twin through
 * the plugin, the plain `pulumi` CLI), one body per behaviour, on the real networks: the channel's capabilities are
 * read from the channel before anything is signed, so an Ed25519 identity on a V3_0 channel needs no setting; on a
 * channel without V3_0 it is refused in preview with nothing but the read sent (the gateway proxy sees Evaluate calls
 * only: no Endorse, no Submit); and a `channelCapability` assertion the channel disagrees with fails naming both.
 */
import { strict as assert } from "node:assert";
import { GATEWAY } from "./gateway-proxy";
import { componentStack, uniqueKey } from "./ledger-component";
import type { ComponentTarget } from "./ledger-component";
import { TYPESCRIPT } from "./faces";
import type { Face } from "./faces";
import type { TargetIdentity } from "./ledger-targets";

/** The paths the proxy saw since `mark`, without repeats in a row ("Evaluate ×3, Endorse" → [Evaluate, Endorse]). */
function pathRuns(t: ComponentTarget, mark: number): string[] {
  return t.proxy.paths(mark).filter((p, i, all) => i === 0 || all[i - 1] !== p);
}

/**
 * On a V3_0 channel, `identity` (an Ed25519 client) with no channelCapability: preview and up pass, the proxy sees the
 * capability read (Evaluate) before the first Endorse, the transaction commits VALID with that identity as creator.
 */
export async function ed25519NeedsNoSetting(
  t: ComponentTarget,
  identity: TargetIdentity,
  face: Face = TYPESCRIPT,
): Promise<void> {
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
 * On a channel without V3_0, `identity` (an Ed25519 client) with no channelCapability: preview fails on
 * identity.certificatePem with `reason` (a regular expression of the reason's text); then up fails the same way. The
 * proxy saw Evaluate calls only (the capability read, which Fabric refused), and no transaction names the stack's key.
 */
export async function refusesEd25519BeforeSending(
  t: ComponentTarget,
  identity: TargetIdentity,
  reason: RegExp,
  face: Face = TYPESCRIPT,
): Promise<void> {
  const height = await t.reader.height();
  const mark = t.proxy.calls.length;
  const key = uniqueKey("caps-v2");
  const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "blue"], identity }, face);
  try {
    for (const run of [() => stack.preview({ allowFailure: true }), () => stack.up({ allowFailure: true })]) {
      const failed = await run();
      assert.notEqual(failed.code, 0);
      assert.match(failed.output, new RegExp(`identity\\.certificatePem.*${reason.source}`, "s"));
    }
    assert.deepEqual(pathRuns(t, mark), [GATEWAY.evaluate], "the capability read only: no Endorse, no Submit");
    // The network may be shared with other files' tests: no transaction naming this stack's key, whatever else grew.
    assert.deepEqual(await t.reader.naming(key, height), [], "nothing was ordered");
  } finally {
    await stack.dispose();
  }
}

/**
 * `identity` (any key type) with `channelCapability: asserted`, which the channel disagrees with: preview fails on
 * channelCapability naming the assertion and what the channel has (`channel`, e.g. "Channel V2_0, Application V2_5,
 * Orderer V2_0"), with only the read sent.
 */
export async function assertionDisagrees(
  t: ComponentTarget,
  identity: TargetIdentity,
  asserted: "V2_0" | "V3_0",
  channel: string,
): Promise<void> {
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
    const expected = `says ${asserted}, but channel '${t.ledger.channel}' has ${channel} (configuration block `;
    assert.ok(text.includes(expected), `${expected} in:\n${failed.output}`);
    assert.deepEqual(pathRuns(t, mark), [GATEWAY.evaluate], "the capability read only");
  } finally {
    await stack.dispose();
  }
}
