import * as path from "node:path";
import type * as pulumi from "@pulumi/pulumi";
import type { LedgerGatewayInputs, LedgerIdentityInputs } from "../../provider/resources/ledger-transaction-inputs";
import type * as LedgerReads from "../../provider/functions/ledger-reads";

/**
 * The ledger's read side (gRPC, the Fabric protos, X.509 and the signers), loaded on a program's first ledger read:
 * loading it costs a program about 0.1 s of CPU at start, which every program that imports this package paid, ledger
 * reads or not (the TypeScript SDK's index imports every namespace).
 */
export function ledgerReads(): typeof LedgerReads {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use (above); CommonJS build
  return require("../../provider/functions/ledger-reads") as typeof LedgerReads;
}

/** Where the Fabric Gateway is and how to reach it (the LedgerTransaction's `gateway`, plain values). */
export interface LedgerReadGateway {
  /** "host:port" of the gateway peer. Without tlsRootCertPem only a loopback address is allowed (insecure). */
  address: string;
  /** PEM of the CA that signed the gateway's TLS certificate; enables TLS. */
  tlsRootCertPem?: string;
  /**
   * PEM client TLS certificate for mutual TLS (a gateway peer with clientAuthRequired), with exactly one of
   * clientKeyFile, clientKeyEnv or clientKeyPem.
   */
  clientCertPem?: string;
  /** The path of the client TLS key's PEM file, read where `pulumi` runs (relative to the program's directory). */
  clientKeyFile?: string;
  /** The name of an environment variable holding the client TLS key's PEM where `pulumi` runs. */
  clientKeyEnv?: string;
  /** The client TLS key itself (PEM): pass it as a Pulumi secret to the *Output form; prefer a reference. */
  clientKeyPem?: string;
  /** The TLS server name to expect instead of the address's host. */
  serverNameOverride?: string;
}

/** A key on a PKCS#11 token, as the LedgerTransaction's identity.pkcs11 names it. */
export interface LedgerReadPkcs11 {
  /** Path of the token's PKCS#11 module on the machine that runs `pulumi`. */
  library: string;
  /** The token's label. */
  tokenLabel: string;
  /** The user PIN: pass it as a Pulumi secret to the *Output form, or prefer pinEnv / pinConfig. */
  pin?: string;
  /** The name of an environment variable holding the PIN where `pulumi` runs. */
  pinEnv?: string;
  /** A stack config key holding the PIN (`hsmPin`, or `<project>:<key>`). */
  pinConfig?: string;
  /** The key's CKA_ID in hex. @default the certificate's subject key identifier as Fabric's BCCSP names keys */
  keyId?: string;
}

/**
 * Who reads: an X.509 certificate enrolled with `mspId`'s CA and exactly one way to sign with its key, the ways the
 * LedgerTransaction accepts (a key file, an environment variable, a PKCS#11 token, a Cloud KMS key version, or the
 * PEM itself). qscc reads (getTransaction, getChainInfo) need only a member of the channel's Readers; evaluate of a
 * user chaincode needs one of its Writers (Fabric's peer/Propose ACL).
 */
export interface LedgerReadIdentity {
  /** The MSP id of the identity's organization, e.g. "Org1MSP". */
  mspId: string;
  /** The enrolment certificate (PEM). */
  certificatePem: string;
  /** The private key itself (PEM): pass it as a Pulumi secret to the *Output form; prefer a reference. */
  privateKeyPem?: string;
  /** The path of a PEM private key file, read where `pulumi` runs (relative to the program's directory). */
  keyFile?: string;
  /** The name of an environment variable holding the PEM private key where `pulumi` runs. */
  keyEnv?: string;
  /** A key on a PKCS#11 token (HSM). */
  pkcs11?: LedgerReadPkcs11;
  /** A Cloud KMS key version (through this package's Google client and its `opsledger:*` settings). */
  kms?: { cryptoKeyVersion: string };
}

/** What every ledger read takes. */
export interface LedgerReadArgs {
  /** The gateway peer to ask. */
  gateway: LedgerReadGateway;
  /** The channel. */
  channel: string;
  /**
   * An assertion of the channel's capability ("V3_0" or "V2_0"), checked against the channel's own configuration;
   * used only when the identity may not read it. @default read from the channel
   */
  channelCapability?: "V2_0" | "V3_0";
  /** Who asks, and how its key signs. */
  identity: LedgerReadIdentity;
  /** MSP id → root CA certificate PEM: getTransaction verifies the creator's and endorsers' chains against them. */
  trustedRootCertificates?: Record<string, string>;
}

/** `T` with every value, at any depth, allowed to be a pulumi.Input (what the *Output forms take). */
export type DeepInput<T> = pulumi.Input<
  T extends readonly (infer E)[] ? DeepInput<E>[] : T extends object ? { [K in keyof T]: DeepInput<T[K]> } : T
>;

/** The gateway as the provider layer takes it: a client TLS key file's path made absolute (the program's directory). */
export function gatewayOf(gateway: LedgerReadGateway): LedgerGatewayInputs {
  return gateway.clientKeyFile === undefined
    ? gateway
    : { ...gateway, clientKeyFile: path.resolve(gateway.clientKeyFile) };
}

/** The identity as the provider layer takes it: a key file's path made absolute (the program's directory). */
export function identityOf(identity: LedgerReadIdentity): LedgerIdentityInputs {
  return identity.keyFile === undefined ? identity : { ...identity, keyFile: path.resolve(identity.keyFile) };
}
