/**
 * The ledger's shapes, declared once as plain types (no Pulumi): the inputs, which the provider checks and uses as they
 * are and the TypeScript SDK maps to `pulumi.Input` forms (sdk/ledger/inputs.ts), and what the resources report, which
 * the SDK's classes declare as their outputs. scripts/gen-schema.ts reads their doc comments into the plugin's schema
 * (and so into sdk/go and sdk/python). A field that must only ever be stored as a Pulumi secret carries the `@secret`
 * tag, which the generator reads.
 */
import type { Visibility } from "../../ledger";

/** How much of the chaincode input reaches the ledger. Only "full" exists on real Fabric peers. */
export type LedgerVisibility = Visibility;

/** A chaincode argument or transient value: a string (sent as UTF-8), or bytes as `{ base64: "..." }`. */
export type LedgerBytes = string | { base64: string };

/** A Channel-group capability: "V3_0" (Fabric ≥ 3.0, which Ed25519 identities need) or "V2_0". */
export type LedgerChannelCapability = "V2_0" | "V3_0";

/** Where the Fabric Gateway is and how to reach it. */
export interface LedgerGateway {
  /** "host:port" of the gateway peer. Without tlsRootCertPem only a loopback address is allowed (insecure). */
  address: string;
  /** PEM of the CA that signed the gateway's TLS certificate; enables TLS. */
  tlsRootCertPem?: string;
  /**
   * PEM client TLS certificate for mutual TLS (a gateway peer with clientAuthRequired), with exactly one of
   * clientKeyFile, clientKeyEnv or clientKeyPem.
   */
  clientCertPem?: string;
  /**
   * The path of the client TLS key's PEM file, read where `pulumi` runs at each step (relative to the program's
   * directory). The state records the path, never the key.
   */
  clientKeyFile?: string;
  /**
   * The name of an environment variable holding the client TLS key's PEM where `pulumi` runs. The state records the
   * name, never the key.
   */
  clientKeyEnv?: string;
  /**
   * The client TLS key itself (PEM), only ever a Pulumi secret: a resource stores it as one in its inputs and
   * outputs (the TypeScript SDK wraps a plain value; pass it as a secret to a read's *Output form). Prefer
   * clientKeyFile or clientKeyEnv.
   * @secret
   */
  clientKeyPem?: string;
  /** The TLS server name to expect instead of the address's host. */
  serverNameOverride?: string;
  /** Visibility modes the gateway is declared to support. @default ["full"] */
  supportsVisibility?: LedgerVisibility[];
}

/** The gateway a ledger read asks: a transaction's gateway without the visibility modes (a read submits nothing). */
export type LedgerReadGateway = Omit<LedgerGateway, "supportsVisibility">;

/**
 * A key on a PKCS#11 token (an HSM), as the official client's `signers.newHSMSignerFactory(library).newSigner({ label,
 * pin, identifier })` addresses it: an ECDSA P-256 or P-384 key, or an Ed25519 key (CKK_EC_EDWARDS). Give the PIN in
 * exactly one way.
 */
export interface LedgerPkcs11 {
  /** Path of the token's PKCS#11 module on the machine that runs `pulumi`, e.g. /usr/lib/softhsm/libsofthsm2.so. */
  library: string;
  /** The token's label. */
  tokenLabel: string;
  /**
   * The user PIN, only ever a Pulumi secret (the TypeScript SDK's resources wrap a plain value; pass it as a secret to
   * a read's *Output form). Prefer pinEnv or pinConfig.
   * @secret
   */
  pin?: string;
  /** The name of an environment variable holding the PIN where `pulumi` runs. Never stored. */
  pinEnv?: string;
  /** A stack config key holding the PIN (`hsmPin`, or `<project>:<key>`; set it with --secret). Never stored. */
  pinConfig?: string;
  /**
   * The key's CKA_ID in hex. @default the certificate's subject key identifier as Fabric's BCCSP names keys
   * (SHA-256 of the public key's uncompressed point)
   */
  keyId?: string;
}

/**
 * A Cloud KMS key version, used through `cryptoKeyVersions.asymmetricSign`, whose algorithm matches the certificate's
 * key: EC_SIGN_P256_SHA256, EC_SIGN_P384_SHA384 or EC_SIGN_ED25519 (on a channel with capability V3_0).
 */
export interface LedgerKms {
  /** `projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>/cryptoKeyVersions/<n>`. */
  cryptoKeyVersion: string;
}

/**
 * The identity that signs: an X.509 certificate enrolled with `mspId`'s CA, with an ECDSA P-256, ECDSA P-384 or
 * Ed25519 key (Ed25519 on Fabric ≥ 3.0 with channel capability V3_0), and exactly one way to sign with that key. Every
 * way but `privateKeyPem` is a reference: the state records where the key is, never the key, and refresh and destroy
 * sign through the same reference. A read needs a member of the channel's Readers (qscc: getTransaction,
 * getChainInfo) or Writers (evaluate of a user chaincode: Fabric's peer/Propose ACL).
 */
export interface LedgerIdentity {
  /** The MSP id of the identity's organization, e.g. "Org1MSP". */
  mspId: string;
  /** The enrolment certificate (PEM). */
  certificatePem: string;
  /**
   * The private key itself (PEM, PKCS#8 or SEC1): kept for compatibility. Only ever a Pulumi secret: a resource stores
   * it as one in its inputs and outputs, where refresh and destroy sign with it (the TypeScript SDK's resources wrap a
   * plain value; pass it as a secret to a read's *Output form). Prefer a reference below.
   * @secret
   */
  privateKeyPem?: string;
  /** The path of a PEM private key file, read where `pulumi` runs at each step (relative to the program's directory). */
  keyFile?: string;
  /** The name of an environment variable holding the PEM private key where `pulumi` runs. */
  keyEnv?: string;
  /** A key on a PKCS#11 token (HSM). */
  pkcs11?: LedgerPkcs11;
  /** A Cloud KMS key version (through this package's Google client and its `opsledger:*` settings). */
  kms?: LedgerKms;
}

/** A compensating transaction submitted (exactly once) when the resource is destroyed or replaced. */
export interface LedgerOnDestroy {
  function: string;
  args?: LedgerBytes[];
}

/** Deadlines of the commit wait, as durations ("2m", "90s"). `customTimeouts` never reaches a dynamic provider. */
export interface LedgerTimeouts {
  /** @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  create?: string;
  /** The onDestroy transaction. @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  delete?: string;
}

/**
 * What the state keeps of the key material that refresh and destroy sign with and no reference holds: the private key
 * only for an identity given as `privateKeyPem`, the PIN only when given as a value, the mutual TLS client key only
 * when given as `clientKeyPem`. Only ever stored as a Pulumi secret.
 */
export interface LedgerCredentials {
  /** The identity's private key (PEM), when given as `privateKeyPem`. @secret */
  privateKeyPem?: string;
  /** The PKCS#11 user PIN, when given as `pin`. @secret */
  pin?: string;
  /** The mutual TLS client key (PEM), when given as `clientKeyPem`. @secret */
  clientKeyPem?: string;
}

/** The inputs of one ledger transaction (a LedgerTransaction). */
export interface LedgerTransactionShape {
  /** The gateway to endorse, submit and query through. Changing it does not make a new transaction. */
  gateway: LedgerGateway;
  /** The channel. A change is a new transaction (replace), like every other transaction input below. */
  channel: string;
  /**
   * An assertion of the channel's Channel-group capability ("V3_0" on a Fabric 3 channel that has it, which Ed25519
   * identities need; else "V2_0"). Optional: the provider reads the channel's capabilities from the channel before
   * signing, and a value here that disagrees with them is refused naming both; it is used in their place only when
   * the identity may not read the channel's configuration.
   * @default read from the channel
   */
  channelCapability?: LedgerChannelCapability;
  /** The chaincode name. */
  chaincode: string;
  /** The chaincode function, e.g. "CreateAsset". */
  function: string;
  /** Arguments: strings are sent as UTF-8; bytes as `{ base64: "..." }`. @default [] */
  args?: LedgerBytes[];
  /**
   * Private data for the chaincode: never on the ledger, stored only as a Pulumi secret, never in outputs.
   * @secret
   */
  transientData?: Record<string, LedgerBytes>;
  /** Who submits (and signs). */
  identity: LedgerIdentity;
  /** MSP ids that must endorse (each must then have a valid endorsement). @default the gateway's choice */
  endorsingOrganizations?: string[];
  /** @default "full"; "hash"/"nothing" only when gateway.supportsVisibility lists them */
  visibility?: LedgerVisibility;
  /** MSP id → root CA certificate PEM: every endorsement is verified against these before we sign. */
  trustedRootCertificates: Record<string, string>;
  /** A compensating call on destroy. @default none: destroy leaves the ledger alone (it is append-only) */
  onDestroy?: LedgerOnDestroy;
  /** Record a transaction committed with a non-VALID code instead of failing. @default false */
  allowInvalid?: boolean;
  /** Endorse (never commit) during preview and show the simulated result as `previewResult`. @default false */
  previewEndorse?: boolean;
  /** Our own deadlines. */
  timeouts?: LedgerTimeouts;
}

/** One transaction of a LedgerTransactions list. */
export interface LedgerTransactionsItem {
  /**
   * A key of your choosing, unique in the list: the transaction's txId derives from it (with the resource's URN), so
   * reordering the list or inserting items changes no txId.
   */
  key: string;
  /** The chaincode name. @default the resource's `chaincode` */
  chaincode?: string;
  /** The chaincode function, e.g. "CreateAsset". */
  function: string;
  /** Arguments: strings are sent as UTF-8; bytes as `{ base64: "..." }`. @default [] */
  args?: LedgerBytes[];
  /** MSP ids that must endorse. @default the gateway's choice */
  endorsingOrganizations?: string[];
}

/** Deadlines of one item's commit wait, as durations ("2m", "90s"). */
export interface LedgerTransactionsTimeouts {
  /** Each item of the first `pulumi up`. @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  create?: string;
  /** Each item a later `pulumi up` submits. @default "{@link DEFAULT_OPERATION_TIMEOUT_MS}" */
  update?: string;
}

/** The inputs of a LedgerTransactions (many transactions sharing a gateway, channel, identity and trusted roots). */
export interface LedgerTransactionsShape {
  /** The gateway to endorse, submit and query through, for every item. */
  gateway: LedgerGateway;
  /** The channel of every item. A change submits every item again (new transactions). */
  channel: string;
  /**
   * The channel's highest Channel-group capability: "V3_0" on a Fabric 3 channel that has it, which Ed25519
   * identities need. @default "V2_0"
   */
  channelCapability?: LedgerChannelCapability;
  /** The chaincode of every item that names none. */
  chaincode?: string;
  /** Who submits (and signs) every item. A change submits every item again. */
  identity: LedgerIdentity;
  /** MSP id → root CA certificate PEM: every endorsement is verified against these before we sign. */
  trustedRootCertificates: Record<string, string>;
  /**
   * The transactions. Adding an item submits it; changing an item's transaction submits a new one for it; removing
   * an item sends nothing (the ledger is append-only) and drops it from the outputs.
   */
  transactions: LedgerTransactionsItem[];
  /**
   * Submit one item at a time, in list order, each once the one before is committed (and stop at the first that
   * fails): for items that read what an earlier item writes. Otherwise items go concurrently, and two that touch the
   * same key in one block fail as MVCC_READ_CONFLICT. @default false
   */
  ordered?: boolean;
  /**
   * Items in flight at once when not ordered (1 to 256); a refresh reads this many recorded transactions back at once,
   * ordered or not. @default 16
   */
  maxInFlight?: number;
  /** Our own deadlines, per item. */
  timeouts?: LedgerTransactionsTimeouts;
}

/** What every ledger read (getTransaction, evaluate, getChainInfo) takes. */
export interface LedgerReadShape {
  /** The gateway peer to ask. */
  gateway: LedgerReadGateway;
  /** The channel. */
  channel: string;
  /**
   * An assertion of the channel's capability ("V3_0" or "V2_0"), checked against the channel's own configuration;
   * used only when the identity may not read it. @default read from the channel
   */
  channelCapability?: LedgerChannelCapability;
  /** Who asks, and how its key signs. */
  identity: LedgerIdentity;
  /** MSP id → root CA certificate PEM: getTransaction verifies the creator's and endorsers' chains against them. */
  trustedRootCertificates?: Record<string, string>;
}

/** A chaincode response payload, as UTF-8 text (invalid sequences replaced) and as base64 (exact bytes). */
export interface LedgerPayload {
  utf8: string;
  base64: string;
}

/** The committed transaction a LedgerTransaction reports (or adopts). */
export interface LedgerOutcome {
  generation: number;
  txId: string;
  validationCode: string;
  validationCodeNumber: number;
  blockNumber: string;
  result: LedgerPayload;
  endorsers: string[];
  processedTransaction: string;
}

/** What check sets on an item of a LedgerTransactions list. */
export interface LedgerTransactionsItemPlan {
  /** The generation of the item's transaction (bumped when it changes). */
  generation?: number;
  /** The txId the item is (or was) submitted with. */
  txId?: string;
}

/** A transaction of the list as the resource planned it: its generation and the txId it submits (shown in preview). */
export interface LedgerTransactionsPlanned extends LedgerTransactionsItem, LedgerTransactionsItemPlan {}

/** A committed item. */
export interface LedgerTransactionsCommitted {
  key: string;
  txId: string;
  /** The validation code's name: "VALID" (a failed item is not recorded). */
  validationCode: string;
  validationCodeNumber: number;
  /** The block holding the transaction (a decimal string: uint64). */
  blockNumber: string;
}
