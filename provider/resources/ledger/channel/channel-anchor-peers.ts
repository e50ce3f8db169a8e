/**
 * ledger.ChannelAnchorPeers: one application organization's anchor peers (the whole list), which that organization's
 * own admin may set alone (the AnchorPeers value's mod_policy is its Admins). An organization the channel does not
 * have is refused with the organizations it has, the channel's configuration being the only thing read.
 */
import type { FieldFailure } from "../../../errors";
import { hasUnknown } from "../ledger-values";
import { channelPartProvider } from "./channel-part";
import type { ChannelPartSpec } from "./channel-part-session";
import type { ChannelAnchorPeer, ChannelAnchorPeersShape } from "./channel-shapes";

function anchorFailures(n: Readonly<Record<string, unknown>>): FieldFailure[] {
  const failures: FieldFailure[] = [];
  const mspId = n["mspId"];
  if (!hasUnknown(mspId) && (typeof mspId !== "string" || !/^[A-Za-z0-9.-]+$/.test(mspId)))
    failures.push({ property: "mspId", reason: "must be the organization's MSP id, e.g. 'Org3MSP'" });
  const peers = n["anchorPeers"];
  if (hasUnknown(peers)) return failures;
  if (!Array.isArray(peers))
    return [
      ...failures,
      { property: "anchorPeers", reason: "must be a list of { host, port } (an empty list removes them)" },
    ];
  peers.forEach((p: unknown, i) => {
    const peer = (typeof p === "object" && p !== null ? p : {}) as Record<string, unknown>;
    if (typeof peer["host"] !== "string" || typeof peer["port"] !== "number")
      failures.push({ property: `anchorPeers[${String(i)}]`, reason: "must be { host: string, port: number }" });
  });
  return failures;
}

const peersOf = (peers: readonly ChannelAnchorPeer[]) => peers.map((p) => ({ host: p.host, port: p.port }));

export const ANCHOR_PEERS: ChannelPartSpec<ChannelAnchorPeersShape> = {
  kind: "ChannelAnchorPeers",
  keys: ["mspId", "anchorPeers"],
  replaceOn: ["channel", "mspId"],
  failures: anchorFailures,
  change: (i) => ({ application: { anchorPeers: { [i.mspId]: i.anchorPeers } } }),
  fieldOf: (field, i) => {
    const prefix = `application.anchorPeers[${i.mspId}]`;
    return field === prefix ? "mspId" : field.replace(prefix, "anchorPeers");
  },
  live: (config, i) => ({
    anchorPeers: peersOf(config.application?.organizations.find((o) => o.mspId === i.mspId)?.anchorPeers ?? []),
  }),
  declared: (i) => ({ anchorPeers: peersOf(i.anchorPeers) }),
  refreshed(i, config) {
    const org = config.application?.organizations.find((o) => o.mspId === i.mspId);
    return org === undefined ? undefined : { ...i, anchorPeers: peersOf(org.anchorPeers) };
  },
};

export const channelAnchorPeersProvider = channelPartProvider(ANCHOR_PEERS);
