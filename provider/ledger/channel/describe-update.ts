/**
 * A configuration update as a reviewer reads it: the elements of its read set (the versions it depends on) and write
 * set (what it writes), each by configtx key with its version, mod_policy and its value decoded by key (batch size,
 * capabilities, anchor peers, an MSP with its certificates as PEM, ...) or policy as text; and the elements it
 * modifies (write version ≠ read version). Used by `opsledger-ledger decode` and for a preview's diff.
 */
import { codecs } from "../codec";
import type { ConfigGroup, ConfigUpdate } from "../config-messages";
import { describeMsp } from "./describe-config";
import { VALUE } from "./config-tree";
import { policyText } from "./policy-text";
import type { PolicyText } from "./policy-text";
import { elementKey } from "./update-authorization";

export type Readable = string | number | boolean | null | readonly Readable[] | { readonly [key: string]: Readable };

export interface UpdateElementView {
  readonly element: string;
  readonly version: string;
  readonly modPolicy: string;
  readonly value?: Readable;
  readonly policy?: PolicyText;
}

export interface ConfigUpdateView {
  readonly channelId: string;
  /** The elements whose version the write set changes (modified or new), by configtx key. */
  readonly modified: readonly string[];
  readonly readSet: readonly UpdateElementView[];
  readonly writeSet: readonly UpdateElementView[];
}

function readable(value: unknown): Readable {
  if (value instanceof Uint8Array) {
    const text = Buffer.from(value).toString("utf8");
    return text.startsWith("-----BEGIN") ? text : Buffer.from(value).toString("base64");
  }
  if (typeof value === "bigint") return value.toString();
  if (Array.isArray(value)) return value.map(readable);
  if (typeof value === "object" && value !== null)
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, readable(v)]));
  return (value ?? null) as Readable;
}

/** A ConfigValue's bytes decoded by its key, readable; bytes as base64 for a key this library does not know. */
export function describeValue(key: string, bytes: Uint8Array): Readable {
  if (bytes.length === 0) return null;
  try {
    switch (key) {
      case VALUE.CAPABILITIES:
        return codecs.Capabilities.decode(bytes).capabilities.map((c) => c.key);
      case VALUE.BATCH_SIZE:
        return readable(codecs.BatchSize.decode(bytes));
      case VALUE.BATCH_TIMEOUT:
        return codecs.BatchTimeout.decode(bytes).timeout;
      case VALUE.ANCHOR_PEERS:
        return readable(codecs.AnchorPeers.decode(bytes).anchorPeers);
      case VALUE.ENDPOINTS:
      case VALUE.ORDERER_ADDRESSES:
        return readable(codecs.OrdererAddresses.decode(bytes).addresses);
      case VALUE.ACLS:
        return Object.fromEntries(codecs.Acls.decode(bytes).acls.map((a) => [a.key, a.value?.policyRef ?? ""]));
      case VALUE.ORDERERS:
        return readable(codecs.Orderers.decode(bytes).consenterMapping);
      case VALUE.CHANNEL_RESTRICTIONS:
        return readable(codecs.ChannelRestrictions.decode(bytes));
      case VALUE.HASHING_ALGORITHM:
        return codecs.HashingAlgorithm.decode(bytes).name;
      case VALUE.BLOCK_DATA_HASHING_STRUCTURE:
        return codecs.BlockDataHashingStructure.decode(bytes).width;
      case VALUE.CONSENSUS_TYPE: {
        const consensus = codecs.ConsensusType.decode(bytes);
        const metadata =
          consensus.type === "etcdraft"
            ? readable(codecs.EtcdRaftMetadata.decode(consensus.metadata))
            : consensus.type === "BFT"
              ? readable(codecs.SmartBftOptions.decode(consensus.metadata))
              : readable(consensus.metadata);
        return { type: consensus.type, state: consensus.state === 1 ? "STATE_MAINTENANCE" : "STATE_NORMAL", metadata };
      }
      case VALUE.MSP:
        return readable(describeMsp(bytes, key, ""));
      default:
        return Buffer.from(bytes).toString("base64");
    }
  } catch (error) {
    return {
      undecodable: Buffer.from(bytes).toString("base64"),
      error: error instanceof Error ? error.message : String(error),
    };
  }
}

function elements(root: ConfigGroup | undefined, values: boolean): UpdateElementView[] {
  const out: UpdateElementView[] = [];
  const walk = (group: ConfigGroup, parent: readonly string[], key: string): void => {
    out.push({
      element: elementKey({ kind: "Group", parent, key }),
      version: group.version.toString(),
      modPolicy: group.modPolicy,
    });
    const path = [...parent, key];
    for (const g of [...group.groups].sort((a, b) => a.key.localeCompare(b.key)))
      if (g.value !== undefined) walk(g.value, path, g.key);
    for (const v of [...group.values].sort((a, b) => a.key.localeCompare(b.key)))
      out.push({
        element: elementKey({ kind: "Value", parent: path, key: v.key }),
        version: (v.value?.version ?? 0n).toString(),
        modPolicy: v.value?.modPolicy ?? "",
        ...(values && (v.value?.value.length ?? 0) > 0
          ? { value: describeValue(v.key, v.value?.value ?? new Uint8Array(0)) }
          : {}),
      });
    for (const p of [...group.policies].sort((a, b) => a.key.localeCompare(b.key)))
      out.push({
        element: elementKey({ kind: "Policy", parent: path, key: p.key }),
        version: (p.value?.version ?? 0n).toString(),
        modPolicy: p.value?.modPolicy ?? "",
        ...(values && p.value?.policy !== undefined ? { policy: policyText(p.value.policy) } : {}),
      });
  };
  if (root !== undefined) walk(root, [], "Channel");
  return out;
}

/** The readable form of a ConfigUpdate. */
export function describeConfigUpdate(update: ConfigUpdate): ConfigUpdateView {
  const readSet = elements(update.readSet, false);
  const writeSet = elements(update.writeSet, true);
  const readVersions = new Map(readSet.map((e) => [e.element, e.version]));
  return {
    channelId: update.channelId,
    modified: writeSet.filter((e) => readVersions.get(e.element) !== e.version).map((e) => e.element),
    readSet,
    writeSet,
  };
}
