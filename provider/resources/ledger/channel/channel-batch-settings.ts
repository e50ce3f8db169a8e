/**
 * ledger.ChannelBatchSettings: how the orderers cut a channel's blocks — the batch timeout and any of the batch size's
 * three fields, each owned only when given (the others stay as the channel has them). The Orderer group's admins
 * approve a change (its values' mod_policy). Checked as the orderers check them before anything is sent: a timeout
 * that is no positive Go duration, a size field of 0, a preferred size over the absolute maximum (with the channel's
 * current values for the fields not given).
 */
import type { FieldFailure } from "../../../errors";
import { hasUnknown, isRecord } from "../ledger-values";
import { channelPartProvider } from "./channel-part";
import type { ChannelPartSpec } from "./channel-part-session";
import type { ChannelBatchSettingsShape, ChannelBatchSize } from "./channel-shapes";

const SIZE_FIELDS = ["maxMessageCount", "absoluteMaxBytes", "preferredMaxBytes"] as const;

function batchFailures(n: Readonly<Record<string, unknown>>): FieldFailure[] {
  const timeout = n["batchTimeout"];
  const size = n["batchSize"];
  if (timeout === undefined && size === undefined)
    return [{ property: "batchTimeout", reason: "or batchSize is required: the settings this resource owns" }];
  const failures: FieldFailure[] = [];
  if (timeout !== undefined && !hasUnknown(timeout) && typeof timeout !== "string")
    failures.push({ property: "batchTimeout", reason: "must be a Go duration such as '2s' or '500ms'" });
  if (size !== undefined && !hasUnknown(size)) {
    if (!isRecord(size) || SIZE_FIELDS.every((k) => size[k] === undefined))
      failures.push({
        property: "batchSize",
        reason: "must give at least one of maxMessageCount, absoluteMaxBytes, preferredMaxBytes",
      });
    else
      for (const key of Object.keys(size))
        if (!(SIZE_FIELDS as readonly string[]).includes(key))
          failures.push({
            property: `batchSize.${key}`,
            reason: `is not a batch size field; use ${SIZE_FIELDS.join(", ")}`,
          });
        else if (!hasUnknown(size[key]) && size[key] !== undefined && typeof size[key] !== "number")
          failures.push({ property: `batchSize.${key}`, reason: "must be a whole number" });
  }
  return failures;
}

/** The batch size fields `size` gives. */
function given(size: ChannelBatchSize | undefined): (typeof SIZE_FIELDS)[number][] {
  return SIZE_FIELDS.filter((k) => size?.[k] !== undefined);
}

export const BATCH_SETTINGS: ChannelPartSpec<ChannelBatchSettingsShape> = {
  kind: "ChannelBatchSettings",
  keys: ["batchTimeout", "batchSize"],
  replaceOn: ["channel"],
  failures: batchFailures,
  change: (i) => ({
    orderer: {
      ...(i.batchTimeout === undefined ? {} : { batchTimeout: i.batchTimeout }),
      ...(i.batchSize === undefined ? {} : { batchSize: i.batchSize }),
    },
  }),
  fieldOf: (field) => field.replace(/^orderer\./, ""),
  live(config, i) {
    const out: Record<string, unknown> = {};
    if (i.batchTimeout !== undefined) out["batchTimeout"] = config.orderer?.batchTimeout ?? null;
    for (const k of given(i.batchSize)) out[`batchSize.${k}`] = config.orderer?.batchSize[k] ?? null;
    return out;
  },
  declared(i) {
    const out: Record<string, unknown> = {};
    if (i.batchTimeout !== undefined) out["batchTimeout"] = i.batchTimeout;
    for (const k of given(i.batchSize)) out[`batchSize.${k}`] = i.batchSize?.[k];
    return out;
  },
  refreshed(i, config) {
    const size = config.orderer?.batchSize;
    const fields = given(i.batchSize);
    return {
      ...i,
      ...(i.batchTimeout === undefined ? {} : { batchTimeout: config.orderer?.batchTimeout ?? i.batchTimeout }),
      ...(fields.length === 0
        ? {}
        : { batchSize: Object.fromEntries(fields.map((k) => [k, size?.[k] ?? i.batchSize?.[k]])) }),
    };
  },
};

export const channelBatchSettingsProvider = channelPartProvider(BATCH_SETTINGS);
