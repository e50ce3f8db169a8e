/**
 * The parts of a channel's configuration a program declares (type declarations only): applyConfigChange
 * (config-change.ts) applies them to the current configuration, checkConfigChange (check-change.ts) checks what it can
 * without the channel.
 */
import type { BatchSizeConfig, OrdererConsenter, AnchorPeer } from "./channel-config";
import type { OrganizationDeclaration } from "./organization-declaration";

/** What a program declares about a channel. Absent parts are left as they are. */
export interface ChannelConfigChange {
  readonly channel?: {
    /** The Channel group's capabilities (the whole set), e.g. ["V3_0"]. */
    readonly capabilities?: readonly string[];
  };
  readonly orderer?: {
    /** A Go duration such as "2s" or "250ms". */
    readonly batchTimeout?: string;
    /** Any of the three; the others keep their values. */
    readonly batchSize?: Partial<BatchSizeConfig>;
    readonly capabilities?: readonly string[];
    /** The whole consenter list (Raft: host, port, TLS certificates; BFT: also id, MSP id, identity). */
    readonly consenters?: readonly OrdererConsenter[];
    /** Orderer organizations to add or replace (by MSP id), or to remove (null). */
    readonly organizations?: Readonly<Record<string, OrganizationDeclaration | null>>;
  };
  readonly application?: {
    readonly capabilities?: readonly string[];
    /** ACL resource → policy reference; the whole set when given. */
    readonly acls?: Readonly<Record<string, string>>;
    /** Application organizations to add or replace (by MSP id), or to remove (null). */
    readonly organizations?: Readonly<Record<string, OrganizationDeclaration | null>>;
    /** Anchor peers of organizations in the channel (the whole list of each organization named). */
    readonly anchorPeers?: Readonly<Record<string, readonly AnchorPeer[]>>;
  };
}

export interface ApplyOptions {
  /** The network's Fabric version ("2.5.16", "3.1.5"): capabilities are checked against its release line. */
  readonly fabricVersion?: string;
}
