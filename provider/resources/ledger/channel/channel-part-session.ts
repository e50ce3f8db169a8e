/**
 * What every resource owning a part of a running channel shares (channel-part.ts puts it together): its spec (the
 * part's inputs, its declaration for the channel library, the owned fields as the channel has them and as declared),
 * the plain checks of the update settings, the signers and the orderer opened for a step, the channel's newest
 * configuration block read as the identity, the refusal of an owned field someone else changed since the stack last
 * recorded it, and the state's view of the settings (references, the keys only under `credentials`).
 */
import type { FieldFailure } from "../../../errors";
import { ChannelDriftError } from "../../../errors/ledger/channel-drift-error";
import { ChannelConfigError } from "../../../errors/ledger/channel-config-error";
import { DeliverError } from "../../../errors/ledger/deliver-error";
import type { ChannelConfig } from "../../../ledger/channel/channel-config";
import type { ApplyOptions, ChannelConfigChange } from "../../../ledger/channel/change-declaration";
import type { ConfigBlock } from "../../../ledger/channel/config-block";
import type { SigningIdentity } from "../../../ledger/channel/config-update-signing";
import { fetchConfigBlock } from "../../../ledger/channel/deliver-client";
import { describeConfigBlock } from "../../../ledger/channel/describe-config";
import { planChannelUpdate } from "../../../ledger/channel/update-channel";
import type { ChannelUpdatePlan } from "../../../ledger/channel/update-channel";
import { checkTimeouts, messageOf } from "../../common";
import { hasUnknown, isRecord } from "../ledger-values";
import { identityFailures } from "../session/ledger-signers";
import { sessionOfOutputs, sessionOutputs } from "../session/ledger-session";
import { changedFields, changesText, signedByText, whereText } from "./channel-part-text";
import { nodeClientKey, nodeFailures, nodeTls, openOrderer, ORDERER_FIELD, tlsCertHash } from "./channel-nodes";
import type { OpenedOrderer } from "./channel-nodes";
import { openSigners, signersFailures, signersOutputs } from "./channel-signers";
import type {
  ChannelCredentials,
  ChannelPartOutcome,
  ChannelPartSettingsOutputs,
  ChannelUpdateSettings,
} from "./channel-shapes";

/** A part's inputs as the provider gets them: its shape, the URN, and what check sets. */
export type PartInputs<S extends ChannelUpdateSettings = ChannelUpdateSettings> = S & {
  /** Plumbing: the resource's URN. */
  __urn: string;
  /** Plumbing set by check: the owned fields as the channel had them when check read it (canonical JSON). */
  __seen?: string;
};

/** A part's outputs: its inputs with the settings as the state keeps them, and where the configuration stood. */
export type PartOutputs<S extends ChannelUpdateSettings = ChannelUpdateSettings> = Omit<
  PartInputs<S>,
  "orderer" | "identity" | "signers" | "__seen"
> &
  ChannelPartSettingsOutputs &
  ChannelPartOutcome;

/** What one kind of part is: everything channel-part.ts needs to own it. */
export interface ChannelPartSpec<S extends ChannelUpdateSettings> {
  /** The resource's name in messages, e.g. "ChannelBatchSettings". */
  readonly kind: string;
  /** The part's own input keys (besides the settings). */
  readonly keys: readonly string[];
  /** Inputs whose change is a new resource (replace). */
  readonly replaceOn: readonly string[];
  /** Failures of the part's own inputs, from them alone. Never throws. */
  failures(news: Readonly<Record<string, unknown>>): FieldFailure[];
  /** The part as the channel library declares it. */
  change(inputs: S): ChannelConfigChange;
  /** @default {} */
  options?(inputs: S): ApplyOptions;
  /** The input field a ChannelConfigError's field is about (`orderer.batchSize.x` → `batchSize.x`). */
  fieldOf(libraryField: string, inputs: S): string;
  /** The owned fields as the channel has them (those `inputs` declares), flat: field → value. */
  live(config: ChannelConfig, inputs: S): Record<string, unknown>;
  /** The same fields as `inputs` declares them, written as `live` gives them. */
  declared(inputs: S): Record<string, unknown>;
  /**
   * `inputs` with the owned fields as the channel has them (what refresh records); undefined when the channel no longer
   * has what the part belongs to (an organization removed by someone else): the resource is gone.
   */
  refreshed(inputs: S, config: ChannelConfig): S | undefined;
}

/** How long a check's read of the channel may take (a preview waits on it). */
export const CHECK_READ_TIMEOUT_MS = 30_000;

/** The plain failures of the update settings: channel, orderer, identity, signers, timeouts. Never throws. */
export function settingsFailures(n: Readonly<Record<string, unknown>>): FieldFailure[] {
  const channel = n["channel"];
  const channelFailures =
    hasUnknown(channel) || (typeof channel === "string" && /^[a-z][a-z0-9.-]*$/.test(channel))
      ? []
      : [
          {
            property: "channel",
            reason: "must be a channel id: lower-case letters, digits, '.' and '-', starting with a letter",
          },
        ];
  const timeouts = checkTimeouts(n["timeouts"]).filter((f) => f.property !== "timeouts.delete");
  if (isRecord(n["timeouts"]) && n["timeouts"]["delete"] !== undefined)
    timeouts.push({ property: "timeouts.delete", reason: "is not a timeout of this resource: destroy sends nothing" });
  return [
    ...channelFailures,
    ...nodeFailures(n["orderer"], ORDERER_FIELD),
    ...identityFailures(n["identity"]),
    ...signersFailures(n["signers"]),
    ...timeouts,
  ];
}

/** A ChannelConfigError as the failure of the input it is about. */
export function configFailure<S extends ChannelUpdateSettings>(
  spec: ChannelPartSpec<S>,
  error: ChannelConfigError,
  inputs: S,
): FieldFailure {
  const reason = error.message.startsWith(`${error.field}: `)
    ? error.message.slice(error.field.length + 2)
    : error.message;
  return { property: spec.fieldOf(error.field, inputs), reason };
}

/** The plan of the part against a configuration block (ChannelConfigError for a part Fabric would refuse). */
export function planOf<S extends ChannelUpdateSettings>(
  spec: ChannelPartSpec<S>,
  block: ConfigBlock,
  inputs: S,
): ChannelUpdatePlan {
  return planChannelUpdate(block, spec.change(inputs), spec.options?.(inputs) ?? {});
}

/** A channel opened for a step: its signers (the identity first), its orderer, and the read of its configuration. */
export interface OpenedChannel {
  readonly signing: readonly SigningIdentity[];
  readonly orderer: OpenedOrderer;
  /** The channel's newest configuration block, read as the identity. */
  read(): Promise<ConfigBlock>;
  close(): void;
}

/**
 * Opens the signers (the identity alone with `readerOnly`), reads the orderer's client TLS key and connects to it;
 * or the failures naming the fields at fault, with nothing opened left open.
 */
export async function openChannel(
  inputs: ChannelUpdateSettings,
  readerOnly: boolean,
  deadlineMs: number,
): Promise<OpenedChannel | { readonly failures: FieldFailure[] }> {
  const key = nodeClientKey(inputs.orderer, ORDERER_FIELD);
  if ("failures" in key) return { failures: key.failures };
  const signers = await openSigners(inputs.identity, readerOnly ? undefined : inputs.signers);
  if ("failure" in signers) return { failures: [signers.failure] };
  const reader = signers.signing[0];
  if (reader === undefined) throw new TypeError("openSigners gives the identity first");
  const orderer = openOrderer(inputs.orderer, key.key, deadlineMs);
  const hash = tlsCertHash(inputs.orderer);
  return {
    signing: signers.signing,
    orderer,
    read: () =>
      fetchConfigBlock(orderer.deliver, inputs.channel, {
        reader,
        ...(hash === undefined ? {} : { tlsCertHash: hash }),
        callOptions: () => ({ deadline: Date.now() + deadlineMs }),
      }),
    close: () => {
      orderer.close();
      signers.close();
    },
  };
}

/** What a failed read of the channel's configuration means, as the failure of the input to fix. */
export function readFailure(
  error: unknown,
  inputs: Pick<ChannelUpdateSettings, "channel" | "orderer">,
  kind: "orderer" | "peer" = "orderer",
): FieldFailure {
  const at = `${kind} ${inputs.orderer.address}`;
  if (error instanceof DeliverError && error.status === 403)
    return {
      property: "identity",
      reason: `may not read channel '${inputs.channel}' (${at} answered FORBIDDEN): use an admin or client of one of the channel's organizations (its Readers)`,
    };
  if (error instanceof DeliverError && error.status === 404)
    return {
      property: "channel",
      reason:
        kind === "orderer"
          ? `${at} does not have channel '${inputs.channel}' (NOT_FOUND): create it first (ledger.Channel), or name an orderer of the channel`
          : `${at} has not joined channel '${inputs.channel}' (NOT_FOUND): join it first (ledger.ChannelPeer), or name a peer of the channel`,
    };
  const tls =
    nodeTls(inputs.orderer, undefined) === undefined ? "" : " (its TLS root, server name, client certificate)";
  return {
    property: "orderer.address",
    reason: `cannot read channel '${inputs.channel}''s configuration from ${at}: ${messageOf(error)}; check the address${tls}`,
  };
}

/** Whether `olds` hold this part as the stack last recorded it (a resource that exists, on the same channel). */
export function recorded(olds: Readonly<Record<string, unknown>>, news: ChannelUpdateSettings): boolean {
  return typeof olds["channel"] === "string" && olds["channel"] === news.channel && isRecord(olds["orderer"]);
}

/**
 * The refusal of an owned field someone else changed since the stack last recorded it, when the channel has neither
 * what was recorded (`olds`) nor what the program declares: the fields, before (recorded) and after (the channel).
 */
export function driftOf<S extends ChannelUpdateSettings>(
  spec: ChannelPartSpec<S>,
  block: ConfigBlock,
  olds: S,
  name: string,
): ChannelDriftError | undefined {
  let plan: ChannelUpdatePlan;
  try {
    plan = planOf(spec, block, olds);
  } catch (error) {
    if (error instanceof ChannelConfigError) return undefined; // what was recorded is no longer a valid declaration
    throw error;
  }
  if (plan.update === undefined) return undefined;
  const changes = changedFields(spec.declared(olds), spec.live(describeConfigBlock(block), olds));
  if (changes.length === 0) return undefined;
  const by = signedByText(block);
  return new ChannelDriftError({
    channelId: block.channelId,
    fields: changes.map((c) => c.field),
    message:
      `${spec.kind} ${name}: channel '${block.channelId}' has ${changesText(changes)} since this stack last recorded it ` +
      `(now at ${whereText(block)}${by === undefined ? "" : `, last changed by an update signed by ${by}`}): another ` +
      "admin, or an interrupted `pulumi up`, changed it, and it is not overwritten unseen; nothing was sent. Run " +
      "`pulumi refresh` to see and record what the channel has, then `pulumi up` to set what the program declares",
  });
}

/** The settings as the state keeps them: references; keys and PINs given as values only under `credentials`. */
export function settingsOutputs(inputs: ChannelUpdateSettings): ChannelPartSettingsOutputs {
  const session = sessionOutputs({ gateway: inputs.orderer, identity: inputs.identity });
  const signerCredentials = (inputs.signers ?? []).map(
    (s) => sessionOutputs({ gateway: { address: "" }, identity: s }).credentials,
  );
  const signers = signersOutputs(inputs.signers);
  const credentials: ChannelCredentials = {
    ...session.credentials,
    ...(signerCredentials.some((c) => Object.keys(c).length > 0) ? { signers: signerCredentials } : {}),
  };
  return {
    orderer: session.gateway,
    identity: session.identity,
    ...(signers === undefined ? {} : { signers }),
    credentials,
  };
}

/** The settings again from what the state keeps (refresh). */
export function settingsOfOutputs(
  o: ChannelPartSettingsOutputs & { channel: string },
): Pick<ChannelUpdateSettings, "orderer" | "identity" | "signers"> {
  const session = sessionOfOutputs({
    gateway: o.orderer,
    identity: o.identity,
    credentials: o.credentials,
    channel: o.channel,
  });
  const signers = o.signers?.map(
    (s, i) =>
      sessionOfOutputs({
        gateway: { address: "" },
        identity: s,
        credentials: o.credentials.signers?.[i] ?? {},
        channel: o.channel,
      }).identity,
  );
  return {
    orderer: session.gateway,
    identity: session.identity,
    ...(signers === undefined ? {} : { signers }),
  };
}

/** A part's outputs: its inputs with the settings as the state keeps them, and the configuration block's place. */
export function partOutputs<S extends ChannelUpdateSettings>(
  inputs: PartInputs<S>,
  block: ConfigBlock,
): PartOutputs<S> {
  const { orderer: _o, identity: _i, signers: _s, __seen: _seen, ...rest } = inputs;
  return {
    ...rest,
    ...settingsOutputs(inputs),
    configSequence: Number(block.config.sequence),
    configBlock: block.number.toString(),
  };
}

/** The inputs again from a part's outputs (the keys from `credentials`), without what only outputs hold. */
export function partInputsOf<S extends ChannelUpdateSettings>(o: PartOutputs<S>): PartInputs<S> {
  const { orderer: _o, identity: _i, signers: _s, credentials: _c, configSequence: _q, configBlock: _b, ...rest } = o;
  return { ...rest, ...settingsOfOutputs(o) } as unknown as PartInputs<S>;
}
