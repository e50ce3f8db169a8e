/** The public face of the Fabric sandbox: its options, its handle and what the handle returns. */
import type { EndorsementRule } from "./endorsement-policy";
import type { Visibility } from "./peer";
import type { TamperMode } from "./prepared-transaction";
import type { FabricSandboxSnapshot } from "./snapshot";

export type { EndorsementRule, FabricSandboxSnapshot, TamperMode, Visibility };

/** Organizations (MSP ids) when none are given. */
export const DEFAULT_FABRIC_ORGANIZATIONS: readonly string[] = ["Org1MSP", "Org2MSP", "Org3MSP"];
export const DEFAULT_FABRIC_CHANNEL = "opsledger";
export const DEFAULT_FABRIC_CHAINCODE = "assets";
export const DEFAULT_ENDORSEMENT_POLICY: EndorsementRule = "majority";
/** How long the orderer waits before it cuts the block of a submitted transaction. */
export const DEFAULT_COMMIT_DELAY_MS = 0;
/** Visibility modes the sandbox's peers honour by default (real Fabric peers only do "full"). */
export const DEFAULT_SUPPORTED_VISIBILITY: readonly Visibility[] = ["full", "hash", "nothing"];

export interface FabricSandboxOptions {
  /** TCP port on 127.0.0.1. @default 0 (a free port) */
  readonly port?: number;
  /** MSP ids, one organization each (a root CA, an endorsing peer). The first is the gateway's own organization. @default ["Org1MSP", "Org2MSP", "Org3MSP"] */
  readonly organizations?: readonly string[];
  /** @default "opsledger" */
  readonly channel?: string;
  /** The name of the built-in asset chaincode. @default "assets" */
  readonly chaincode?: string;
  /** How many organizations' peers must endorse. @default "majority" */
  readonly endorsementPolicy?: EndorsementRule;
  /** Delay before a submitted transaction's block is committed. @default 0 */
  readonly commitDelayMs?: number;
  /** Visibility modes honoured; others are ignored like a real peer does (it produces "full"). @default all three */
  readonly supportsVisibility?: readonly Visibility[];
  /** Serve TLS with a server certificate from a generated CA (see `tlsRootCertPem`). @default false */
  readonly tls?: boolean;
  /** How the orderer waits out `commitDelayMs`; inject one in tests to observe delays without waiting. @default setTimeout */
  readonly sleep?: (ms: number) => Promise<void>;
  /**
   * The key type of an organization's CA, peer and identities, by MSP id (cryptogen's PublicKeyAlgorithm, plus
   * P-384 which cryptogen cannot make). @default "ecdsa-p256" for every organization
   */
  readonly organizationKeyTypes?: Readonly<Record<string, "ecdsa-p256" | "ecdsa-p384" | "ed25519">>;
  /**
   * The channel capability: "V3_0" (Fabric 3) is what makes the MSP accept Ed25519 identities; without it they are
   * refused as a Fabric 3 peer refuses them ("creator org"). @default "V2_0"
   */
  readonly channelCapability?: "V2_0" | "V3_0";
  /**
   * Start the sandbox a `snapshot()` recorded: on its port (an error naming the port when it is taken), with its
   * settings, CAs, peers and TLS certificate, and its ledger (the recorded envelopes committed again, checked to
   * give the recorded codes and last block hash). The options the snapshot holds (port, organizations, channel,
   * chaincode, endorsementPolicy, tls, organizationKeyTypes, channelCapability) must then not be given.
   */
  readonly restore?: FabricSandboxSnapshot;
}

/** An identity enrolled with an organization's CA. The private key is PKCS#8 PEM. */
export interface SandboxIdentity {
  readonly mspId: string;
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

export interface SandboxTransaction {
  /** From the channel header; empty when validation stopped before it was known. */
  readonly txId: string;
  /** The protos.TxValidationCode number. */
  readonly code: number;
  /** Its name, e.g. "MVCC_READ_CONFLICT". */
  readonly codeName: string;
  /** Why the committer did not mark it VALID (empty when valid). */
  readonly reason: string;
  /** The envelope bytes as submitted. */
  readonly envelope: Buffer;
}

export interface SandboxBlock {
  readonly number: bigint;
  readonly transactions: readonly SandboxTransaction[];
  /** The serialized common.Block (validation codes in metadata[TRANSACTIONS_FILTER]). */
  readonly bytes: Buffer;
}

export interface SandboxStateEntry {
  readonly value: Buffer;
  readonly version: { readonly blockNum: bigint; readonly txNum: number };
}

export interface FabricSandboxFaults {
  /** Organizations whose endorsing peer is unreachable (the gateway gets UNAVAILABLE from it). */
  readonly failEndorsementFor?: readonly string[];
  /** Replaces the commit delay. */
  readonly commitDelayMs?: number;
  /** Drop the connection carrying each of the next N calls. */
  readonly dropConnections?: number;
  /** Make Endorse return a prepared transaction modified this way. */
  readonly tamperPreparedTransaction?: TamperMode;
}

export interface CommitRawResult {
  readonly txId: string;
  readonly code: number;
  readonly codeName: string;
  readonly reason: string;
  readonly blockNumber: bigint;
}

export interface FabricSandbox {
  /** "127.0.0.1:<port>": insecure gRPC, or TLS when started with `tls: true`. */
  readonly address: string;
  readonly channel: string;
  readonly chaincode: string;
  /** PEM of the CA that issued the TLS server certificate (only with `tls: true`). */
  readonly tlsRootCertPem: string | undefined;
  /** Root CA certificate (PEM) of each organization, by MSP id. */
  readonly caCertificates: Readonly<Record<string, string>>;
  /** A new client identity (NodeOU `client`) enrolled with `mspId`'s CA. */
  newClientIdentity(mspId: string, name?: string): SandboxIdentity;
  /** A new peer identity (NodeOU `peer`) of `mspId`: what endorsements must come from (for crafted transactions). */
  newPeerIdentity(mspId: string, name?: string): SandboxIdentity;
  /**
   * An admin of the organization (NodeOU `admin`): what its peer's _lifecycle functions that need the peer's local
   * Admins take (install, query installed, approve, query approved), and a channel Writer.
   */
  newAdminIdentity(mspId: string, name?: string): SandboxIdentity;
  /**
   * A new orderer identity (NodeOU `orderer`) of `mspId`: a member of the channel that is none of its Readers, so
   * qscc refuses it (`access denied for [fn][channel]: [... /Channel/Application/Readers ...]`), as Fabric's ACLs do.
   */
  newOrdererIdentity(mspId: string, name?: string): SandboxIdentity;
  /**
   * A client certificate (NodeOU `client`) of `mspId`'s CA for a public key whose private key is held elsewhere (an
   * HSM, Cloud KMS), as a Fabric CA issues one for a certificate signing request.
   */
  enrollPublicKey(mspId: string, publicKeyPem: string, name?: string): { mspId: string; certificatePem: string };
  /** Every block, from the empty genesis block 0, with per-transaction validation codes. */
  blocks(): readonly SandboxBlock[];
  /** The chaincode's world state (a copy), in key order. */
  worldState(): ReadonlyMap<string, SandboxStateEntry>;
  /** Transactions recorded on the ledger, valid or not. */
  transactionCount(): number;
  /** Changes the given fault knobs; the others keep their values. */
  setFaults(faults: FabricSandboxFaults): void;
  /** Commits raw envelope bytes as a block of their own, bypassing gateway and orderer. */
  commitRaw(envelope: Uint8Array): Promise<CommitRawResult>;
  /**
   * The sandbox as plain JSON (its settings and port, organizations' and TLS keys, every block's envelopes), for
   * `startFabricSandbox({ restore })`. Test-only CAs: a snapshot holds their private keys.
   */
  snapshot(): FabricSandboxSnapshot;
  /** Every Evaluate request that named a chaincode, in order: the chaincode (e.g. "qscc") and function. */
  evaluations(): readonly { readonly chaincode: string; readonly fn: string }[];
  /** Back to the genesis block with empty state and no faults; identities and keys are kept. */
  reset(): void;
  close(): Promise<void>;
}
