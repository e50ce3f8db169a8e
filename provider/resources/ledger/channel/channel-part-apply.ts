/**
 * Applying a channel part (create and update): read the channel's newest configuration; when it already has what the
 * program declares, adopt it and send nothing (a retry, or the run after a killed `pulumi up`, finds its own update
 * applied at a higher sequence); otherwise refuse an owned field someone else changed since this run's check read it
 * or since the stack last recorded it (ChannelDriftError, nothing sent), and send the update the channel library
 * computes against what was just read — signatures checked against the policies before sending, the CONFIG_UPDATE
 * broadcast, its configuration block awaited. An update the orderer refuses as stale (another admin's update came
 * first) is computed again from the channel as it now is, up to MAX_UPDATE_ATTEMPTS times: the other update is kept.
 * An orderer that cannot order yet (no leader, right after the channel was created or its leader died) is asked
 * again, within the step's deadline, after reading the channel again.
 */
import { LedgerError } from "../../../errors";
import { BroadcastError } from "../../../errors/ledger/broadcast-error";
import { ChannelDriftError } from "../../../errors/ledger/channel-drift-error";
import { forgetChannelCapabilities } from "../../../ledger/channel-capabilities";
import { describeConfigBlock } from "../../../ledger/channel/describe-config";
import { submitChannelUpdate } from "../../../ledger/channel/update-channel";
import { status } from "../../../runtime/context";
import { messageOf, nameFromUrn, timeoutMs } from "../../common";
import { canonical } from "../ledger-values";
import { changedFields, changesText, whereText } from "./channel-part-text";
import { driftOf, openChannel, partOutputs, planOf } from "./channel-part-session";
import type { ChannelPartSpec, PartInputs, PartOutputs } from "./channel-part-session";
import { tlsCertHash } from "./channel-nodes";
import type { ChannelUpdateSettings } from "./channel-shapes";

/** How often an update the orderer refused as stale is computed again from the channel as it now is. */
export const MAX_UPDATE_ATTEMPTS = 3;

const RECOMPUTE = new Set(["STALE_READ_SET", "VERSION_CONFLICT"]);

/** The first pause before an orderer that cannot order (no leader yet) is asked again, then doubled. */
export const UNAVAILABLE_PAUSE_MS = 500;
export const UNAVAILABLE_MAX_PAUSE_MS = 4_000;

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Creates or updates the part (see the module comment); `olds` is what the stack recorded (update only). */
export async function applyPart<S extends ChannelUpdateSettings>(
  spec: ChannelPartSpec<S>,
  step: "create" | "update",
  news: PartInputs<S>,
  olds: S | undefined,
): Promise<PartOutputs<S>> {
  const name = nameFromUrn(news.__urn);
  const subject = `${spec.kind} ${name}`;
  const deadlineMs = timeoutMs(news.timeouts, step);
  const opened = await openChannel(news, false, deadlineMs);
  if ("failures" in opened)
    throw new LedgerError({
      message: `${subject}: nothing was sent: ${opened.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
    });
  const [submitter] = opened.signing;
  if (submitter === undefined) throw new TypeError("openChannel gives the identity first");
  const hash = tlsCertHash(news.orderer);
  const deadline = Date.now() + deadlineMs;
  let pause = UNAVAILABLE_PAUSE_MS;
  try {
    for (let attempt = 1; ; attempt++) {
      const block = await opened.read();
      const plan = planOf(spec, block, news);
      if (plan.update === undefined) return partOutputs(news, block);
      const live = spec.live(describeConfigBlock(block), news);
      if (news.__seen !== undefined && canonical(live) !== news.__seen) {
        const seen = JSON.parse(news.__seen) as Record<string, unknown>;
        const changes = changedFields(seen, live);
        throw new ChannelDriftError({
          channelId: news.channel,
          fields: changes.map((c) => c.field),
          message:
            `${subject}: channel '${news.channel}' changed since this run read it: ${changesText(changes)} (now at ` +
            `${whereText(block)}); it is not overwritten unseen, and nothing was sent: run \`pulumi preview\` again ` +
            "to review the update against what the channel has now",
        });
      }
      if (olds !== undefined) {
        const drift = driftOf(spec, block, olds, name);
        if (drift !== undefined) throw drift;
      }
      status(news.__urn, `${subject}: updating channel '${news.channel}' from ${whereText(block)}`);
      try {
        const result = await submitChannelUpdate(plan, {
          orderer: opened.orderer.client,
          deliver: opened.orderer.deliver,
          reader: submitter,
          signers: opened.signing,
          submitter,
          deliverOptions: {
            ...(hash === undefined ? {} : { tlsCertHash: hash }),
            callOptions: () => ({ deadline: Date.now() + deadlineMs }),
          },
        });
        // The ledger resources after this one in the process must not check against the capabilities read before it.
        forgetChannelCapabilities(news.channel);
        // The configuration block at the next sequence may be another admin's (ours then failed its revalidation).
        if (planOf(spec, result.block, news).update === undefined) return partOutputs(news, result.block);
      } catch (error) {
        if (error instanceof BroadcastError && error.retryable && Date.now() + pause < deadline) {
          // No leader yet, or the stream broke after sending: read the channel again (the update may be in).
          status(
            news.__urn,
            `${subject}: orderer ${news.orderer.address} cannot order now (${error.problem}); asking again`,
          );
          await sleep(pause);
          pause = Math.min(pause * 2, UNAVAILABLE_MAX_PAUSE_MS);
          attempt--;
          continue;
        }
        const again = error instanceof BroadcastError && RECOMPUTE.has(error.problem);
        if (!again) throw error;
        if (attempt >= MAX_UPDATE_ATTEMPTS)
          throw new LedgerError({
            message: `${subject}: the orderer refused the update as stale ${String(attempt)} times (another admin's updates kept coming first): ${messageOf(error)}`,
            cause: error,
          });
      }
      if (attempt >= MAX_UPDATE_ATTEMPTS)
        throw new LedgerError({
          message: `${subject}: channel '${news.channel}' still differs from the declaration after ${String(attempt)} updates: another admin keeps changing it`,
        });
    }
  } finally {
    opened.close();
  }
}
