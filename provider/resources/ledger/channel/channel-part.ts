/**
 * A resource owning a part of a running channel's configuration, on both faces: each kind is a spec
 * (channel-part-session.ts) and this provider.
 *
 * - check: every plain input refused naming the field before anything is opened; then, preview included, the signers
 *   opened and matched against their certificates, the channel's newest configuration read (Deliver, as the
 *   identity), the update computed against it (configtxlator's rule), an owned field someone else changed since the
 *   stack last recorded it refused (refresh first), and the signatures checked against the policies of everything the
 *   update modifies (naming who is missing) — nothing sent. The owned fields before and after, the elements modified
 *   and who approves them go on the resource's row; what the channel had is kept (`__seen`) for create and update.
 * - create / update: channel-part-apply.ts (adopted when the channel has it; sent once otherwise).
 * - read (refresh): the owned fields as the channel has them, in outputs and inputs, and a line naming what someone
 *   else changed and who signed it; fields not owned are never read into the state.
 * - delete: sends nothing (a configuration is not undone by removing the resource that set it).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { ChannelConfigError } from "../../../errors/ledger/channel-config-error";
import { ConfigUpdateAuthorizationError } from "../../../errors/ledger/config-update-authorization-error";
import { newIdentity } from "../../../ledger";
import { checkConfigChange } from "../../../ledger/channel/check-change";
import { describeConfigBlock } from "../../../ledger/channel/describe-config";
import { authorizeConfigUpdate } from "../../../ledger/channel/update-authorization";
import { log } from "../../../runtime/context";
import { nameFromUrn } from "../../common";
import { canonical, hasUnknown } from "../ledger-values";
import { applyPart } from "./channel-part-apply";
import {
  CHECK_READ_TIMEOUT_MS,
  configFailure,
  driftOf,
  openChannel,
  partInputsOf,
  partOutputs,
  planOf,
  readFailure,
  recorded,
  settingsFailures,
  settingsOutputs,
} from "./channel-part-session";
import type { ChannelPartSpec, PartInputs, PartOutputs } from "./channel-part-session";
import { approvalText, changedFields, changesText, signedByText, whereText } from "./channel-part-text";
import { signingInputs } from "./channel-signers";
import type { ChannelUpdateSettings } from "./channel-shapes";

/** The plain failures, then the library's own checks of the declared part (no channel needed). */
function plainFailures<S extends ChannelUpdateSettings>(spec: ChannelPartSpec<S>, news: PartInputs<S>) {
  const n = news as unknown as Record<string, unknown>;
  const failures = [...settingsFailures(n), ...spec.failures(n)];
  if (failures.length > 0 || hasUnknown(spec.keys.map((k) => n[k]))) return failures;
  try {
    checkConfigChange(spec.change(news), spec.options?.(news) ?? {});
  } catch (error) {
    if (!(error instanceof ChannelConfigError)) throw error;
    return [configFailure(spec, error, news)];
  }
  return [];
}

async function check<S extends ChannelUpdateSettings>(
  spec: ChannelPartSpec<S>,
  rawOlds: Partial<PartInputs<S>>,
  news: PartInputs<S>,
): Promise<dynamic.CheckResult> {
  const failures = plainFailures(spec, news);
  if (failures.length > 0) return { failures };
  const { __seen: _stale, ...inputs } = news;
  if (hasUnknown(inputs)) return { inputs };
  const opened = await openChannel(news, false, CHECK_READ_TIMEOUT_MS);
  if ("failures" in opened) return { failures: opened.failures };
  try {
    let block;
    try {
      block = await opened.read();
    } catch (error) {
      return { failures: [readFailure(error, news)] };
    }
    let plan;
    try {
      plan = planOf(spec, block, news);
    } catch (error) {
      if (!(error instanceof ChannelConfigError)) throw error;
      return { failures: [configFailure(spec, error, news)] };
    }
    const view = describeConfigBlock(block);
    const live = spec.live(view, news);
    const name = nameFromUrn(news.__urn);
    const olds = rawOlds as unknown as S;
    if (plan.update !== undefined && recorded(rawOlds, news)) {
      const drift = driftOf(spec, block, olds, name);
      if (drift !== undefined)
        return { failures: [{ property: drift.fields[0] ?? spec.keys[0] ?? "", reason: drift.message }] };
    }
    const subject = `${spec.kind} ${name}`;
    if (plan.update === undefined) {
      if (!recorded(rawOlds, news))
        log(
          "info",
          `${subject}: channel '${news.channel}' already has what it declares (${whereText(block)}): nothing to send`,
          news.__urn,
        );
    } else {
      const identities = signingInputs(news.identity, news.signers).map((s) =>
        newIdentity(s.identity.mspId, s.identity.certificatePem),
      );
      const authorization = await authorizeConfigUpdate(block.config, plan.update, identities);
      if (!authorization.authorized)
        return {
          failures: [{ property: "signers", reason: new ConfigUpdateAuthorizationError({ authorization }).message }],
        };
      log(
        "info",
        `${subject}: channel '${news.channel}' at ${whereText(block)}: ${changesText(changedFields(live, spec.declared(news)))}. ` +
          `The update modifies ${approvalText(authorization)}`,
        news.__urn,
      );
    }
    return { inputs: { ...inputs, __seen: canonical(live) } };
  } finally {
    opened.close();
  }
}

function diff<S extends ChannelUpdateSettings>(
  spec: ChannelPartSpec<S>,
  olds: PartOutputs<S>,
  news: PartInputs<S>,
): dynamic.DiffResult {
  const o = olds as unknown as Record<string, unknown>;
  const n = news as unknown as Record<string, unknown>;
  const replaces = spec.replaceOn.filter((k) => canonical(o[k]) !== canonical(n[k]));
  const was = partInputsOf(olds);
  const changes =
    replaces.length > 0 ||
    canonical(spec.declared(was)) !== canonical(spec.declared(news)) ||
    canonical(settingsOutputs(was)) !== canonical(settingsOutputs(news)) ||
    canonical(olds.timeouts) !== canonical(news.timeouts);
  return { changes, replaces, deleteBeforeReplace: false };
}

async function read<S extends ChannelUpdateSettings>(
  spec: ChannelPartSpec<S>,
  id: string,
  props: PartOutputs<S>,
): Promise<dynamic.ReadResult> {
  const inputs = partInputsOf(props);
  const subject = `${spec.kind} ${nameFromUrn(props.__urn)}`;
  const opened = await openChannel(inputs, true, CHECK_READ_TIMEOUT_MS);
  if ("failures" in opened)
    throw new Error(
      `${subject}: cannot read the channel: ${opened.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
    );
  try {
    const block = await opened.read();
    const view = describeConfigBlock(block);
    const fresh = spec.refreshed(inputs, view);
    if (fresh === undefined) {
      log(
        "info",
        `${subject}: channel '${inputs.channel}' no longer has what this resource declares (${whereText(block)})`,
        props.__urn,
      );
      return { id: "" };
    }
    const refreshed = { ...fresh, __urn: props.__urn } as PartInputs<S>;
    const changes = changedFields(spec.declared(inputs), spec.live(view, inputs));
    if (changes.length > 0) {
      const by = signedByText(block);
      log(
        "info",
        `${subject}: channel '${inputs.channel}' has ${changesText(changes)} (${whereText(block)}` +
          `${by === undefined ? "" : `, last changed by an update signed by ${by}`})`,
        props.__urn,
      );
    }
    const { __seen: _seen, ...refreshedInputs } = refreshed;
    return { id, props: partOutputs(refreshed, block), inputs: refreshedInputs };
  } finally {
    opened.close();
  }
}

/** The provider of a channel part: the ResourceModule both faces call. */
export function channelPartProvider<S extends ChannelUpdateSettings>(spec: ChannelPartSpec<S>) {
  return {
    check: (olds: Partial<PartInputs<S>>, news: PartInputs<S>) => check(spec, olds, news),
    diff: (_id: string, olds: PartOutputs<S>, news: PartInputs<S>) => Promise.resolve(diff(spec, olds, news)),
    async create(inputs: PartInputs<S>): Promise<dynamic.CreateResult> {
      const outs = await applyPart(spec, "create", inputs, undefined);
      return { id: `${inputs.channel}/${spec.kind}/${nameFromUrn(inputs.__urn)}`, outs };
    },
    async update(_id: string, olds: PartOutputs<S>, news: PartInputs<S>): Promise<dynamic.UpdateResult> {
      return { outs: await applyPart(spec, "update", news, partInputsOf(olds)) };
    },
    read: (id: string, props: PartOutputs<S>) => read(spec, id, props),
    delete(_id: string, props: PartOutputs<S>): Promise<void> {
      log(
        "info",
        `${spec.kind} ${nameFromUrn(props.__urn)}: channel '${props.channel}' keeps this configuration (destroying the resource that set it undoes nothing); nothing was sent`,
        props.__urn,
      );
      return Promise.resolve();
    },
  };
}
