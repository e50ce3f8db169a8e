import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import { LedgerTransactionSubmission } from "./ledger-transaction-submission";
import type { LedgerBytesInput, LedgerPayload } from "./ledger-transaction-submission";

/** The component's type token. Frozen: state names it (and its child's URN is qualified by it). */
export const LEDGER_TRANSACTION_TYPE: string = RESOURCES.ledgerTransaction.token;

/** How much of the chaincode input reaches the ledger. Only "full" exists on real Fabric peers. */
export type LedgerVisibility = "full" | "hash" | "nothing";

/** Where the Fabric Gateway is and how to reach it. */
export interface LedgerGatewayArgs {
  /** "host:port" of the gateway peer. Without tlsRootCertPem only a loopback address is allowed (insecure). */
  address: pulumi.Input<string>;
  /** PEM of the CA that signed the gateway's TLS certificate; enables TLS. */
  tlsRootCertPem?: pulumi.Input<string>;
  /**
   * PEM client TLS certificate for mutual TLS (a gateway peer with clientAuthRequired), with exactly one of
   * clientKeyFile, clientKeyEnv or clientKeyPem.
   */
  clientCertPem?: pulumi.Input<string>;
  /**
   * The path of the client TLS key's PEM file, read where `pulumi` runs at each step (relative to the program's
   * directory). The state records the path, never the key.
   */
  clientKeyFile?: pulumi.Input<string>;
  /**
   * The name of an environment variable holding the client TLS key's PEM where `pulumi` runs. The state records the
   * name, never the key.
   */
  clientKeyEnv?: pulumi.Input<string>;
  /**
   * The client TLS key itself (PEM). Stored as a Pulumi secret (wrapped here if given in plain), in the inputs and
   * the outputs; prefer clientKeyFile or clientKeyEnv.
   */
  clientKeyPem?: pulumi.Input<string>;
  /** The TLS server name to expect instead of the address's host. */
  serverNameOverride?: pulumi.Input<string>;
  /** Visibility modes the gateway is declared to support. @default ["full"] */
  supportsVisibility?: pulumi.Input<pulumi.Input<LedgerVisibility>[]>;
}

/**
 * A key on a PKCS#11 token (an HSM), as the official client's `signers.newHSMSignerFactory(library).newSigner({ label,
 * pin, identifier })` addresses it. Give the PIN in exactly one way.
 */
export interface LedgerPkcs11Args {
  /** Path of the token's PKCS#11 module on the machine that runs `pulumi`, e.g. /usr/lib/softhsm/libsofthsm2.so. */
  library: pulumi.Input<string>;
  /** The token's label. */
  tokenLabel: pulumi.Input<string>;
  /** The user PIN. Stored only as a Pulumi secret (wrapped here if given in plain). */
  pin?: pulumi.Input<string>;
  /** The name of an environment variable holding the PIN where `pulumi` runs. Never stored. */
  pinEnv?: pulumi.Input<string>;
  /** A stack config key holding the PIN (`hsmPin`, or `<project>:<key>`; set it with --secret). Never stored. */
  pinConfig?: pulumi.Input<string>;
  /**
   * The key's CKA_ID in hex. @default the certificate's subject key identifier as Fabric's BCCSP names keys
   * (SHA-256 of the public key's uncompressed point)
   */
  keyId?: pulumi.Input<string>;
}

/** A Cloud KMS key version with algorithm EC_SIGN_P256_SHA256, used through `cryptoKeyVersions.asymmetricSign`. */
export interface LedgerKmsArgs {
  /** `projects/<p>/locations/<l>/keyRings/<r>/cryptoKeys/<k>/cryptoKeyVersions/<n>`. */
  cryptoKeyVersion: pulumi.Input<string>;
}

/**
 * The submitting identity: an X.509 certificate with an ECDSA P-256 key, enrolled with `mspId`'s CA, and exactly one
 * way to sign with its key. Every way but `privateKeyPem` is a reference: the state records where the key is, never
 * the key, and refresh and destroy sign through the same reference.
 */
export interface LedgerIdentityArgs {
  /** The MSP id of the identity's organization, e.g. "Org1MSP". */
  mspId: pulumi.Input<string>;
  /** The enrolment certificate (PEM). */
  certificatePem: pulumi.Input<string>;
  /**
   * The private key itself (PEM, PKCS#8 or SEC1): kept for compatibility. Stored as a Pulumi secret, in the inputs and
   * in the outputs (refresh and destroy sign with it). Prefer a reference below.
   */
  privateKeyPem?: pulumi.Input<string>;
  /** The path of a PEM private key file, read where `pulumi` runs at each step (relative to the program's directory). */
  keyFile?: pulumi.Input<string>;
  /** The name of an environment variable holding the PEM private key where `pulumi` runs. */
  keyEnv?: pulumi.Input<string>;
  /** A key on a PKCS#11 token (HSM). */
  pkcs11?: LedgerPkcs11Args;
  /** A Cloud KMS key version (through this package's Google client and its `opsledger:*` settings). */
  kms?: pulumi.Input<LedgerKmsArgs>;
}

/** A compensating transaction submitted (exactly once) when the resource is destroyed or replaced. */
export interface LedgerOnDestroyArgs {
  function: pulumi.Input<string>;
  args?: pulumi.Input<pulumi.Input<LedgerBytesInput>[]>;
}

/** Deadlines of the commit wait, as durations ("2m", "90s"). `customTimeouts` never reaches a dynamic provider. */
export interface LedgerTimeouts {
  /** @default "20m" */
  create?: pulumi.Input<string>;
  /** The onDestroy transaction. @default "20m" */
  delete?: pulumi.Input<string>;
}

export interface LedgerTransactionArgs {
  /** The gateway to endorse, submit and query through. Changing it does not make a new transaction. */
  gateway: LedgerGatewayArgs;
  /** The channel. A change is a new transaction (replace), like every other transaction input below. */
  channel: pulumi.Input<string>;
  /**
   * An assertion of the channel's Channel-group capability ("V3_0" on a Fabric 3 channel that has it, which Ed25519
   * identities need; else "V2_0"). Optional: the provider reads the channel's capabilities from the channel before
   * signing, and a value here that disagrees with them is refused naming both; it is used in their place only when
   * the identity may not read the channel's configuration.
   * @default read from the channel
   */
  channelCapability?: pulumi.Input<"V2_0" | "V3_0">;
  /** The chaincode name. */
  chaincode: pulumi.Input<string>;
  /** The chaincode function, e.g. "CreateAsset". */
  function: pulumi.Input<string>;
  /** Arguments: strings are sent as UTF-8; bytes as `{ base64: "..." }`. @default [] */
  args?: pulumi.Input<pulumi.Input<LedgerBytesInput>[]>;
  /** Private data for the chaincode: never on the ledger, stored only as a Pulumi secret, never in outputs. */
  transientData?: pulumi.Input<Record<string, pulumi.Input<LedgerBytesInput>>>;
  /** Who submits (and signs). */
  identity: LedgerIdentityArgs;
  /** MSP ids that must endorse (each must then have a valid endorsement). @default the gateway's choice */
  endorsingOrganizations?: pulumi.Input<pulumi.Input<string>[]>;
  /** @default "full"; "hash"/"nothing" only when gateway.supportsVisibility lists them */
  visibility?: pulumi.Input<LedgerVisibility>;
  /** MSP id → root CA certificate PEM: every endorsement is verified against these before we sign. */
  trustedRootCertificates: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /** A compensating call on destroy. @default none: destroy leaves the ledger alone (it is append-only) */
  onDestroy?: pulumi.Input<LedgerOnDestroyArgs>;
  /** Record a transaction committed with a non-VALID code instead of failing. @default false */
  allowInvalid?: pulumi.Input<boolean>;
  /** Endorse (never commit) during preview and show the simulated result as `previewResult`. @default false */
  previewEndorse?: pulumi.Input<boolean>;
  /** Our own deadlines. */
  timeouts?: pulumi.Input<LedgerTimeouts>;
}

/** The identity as the submission takes it: the key and a PIN value as secrets, a key file's path made absolute. */
export function identityInputs(identity: LedgerIdentityArgs): Record<string, pulumi.Input<unknown>> {
  const { privateKeyPem, keyFile, pkcs11, ...rest } = identity;
  const { pin, ...token } = pkcs11 ?? { library: "", tokenLabel: "" };
  return {
    ...rest,
    ...(privateKeyPem === undefined ? {} : { privateKeyPem: secret(privateKeyPem) }),
    ...(keyFile === undefined ? {} : { keyFile: pulumi.output(keyFile).apply((f) => path.resolve(f)) }),
    ...(pkcs11 === undefined ? {} : { pkcs11: { ...token, ...(pin === undefined ? {} : { pin: secret(pin) }) } }),
  };
}

/** The gateway as the provider takes it: a client TLS key as a secret, a key file's path made absolute. */
export function gatewayInputs(args: LedgerGatewayArgs): Record<string, pulumi.Input<unknown>> {
  const { clientKeyPem, clientKeyFile, ...gateway } = args;
  return {
    ...gateway,
    ...(clientKeyPem === undefined ? {} : { clientKeyPem: secret(clientKeyPem) }),
    ...(clientKeyFile === undefined
      ? {}
      : { clientKeyFile: pulumi.output(clientKeyFile).apply((f) => path.resolve(f)) }),
  };
}

/** Wraps a value as a Pulumi secret unless it is already one. */
export function secret<T>(value: pulumi.Input<T>): pulumi.Output<T> {
  const output = pulumi.output(value) as pulumi.Output<T>;
  return pulumi.secret(output) as pulumi.Output<T>;
}

/**
 * One Hyperledger Fabric transaction, declaratively: create submits it once (endorse → verify-before-sign → sign →
 * submit → commit status); a change of any transaction input submits a new one (replace); destroy leaves the ledger
 * alone unless `onDestroy` names a compensating call; a non-VALID validation code fails the resource unless
 * `allowInvalid`. Exactly once: the txId is derived from the identity's certificate, the URN and a generation (no key), and a committed
 * transaction with that txId is adopted rather than submitted twice. The preview shows the txId it will submit.
 */
export class LedgerTransaction extends pulumi.ComponentResource {
  /** The type string of this class's resources (what `validateResourceOfType` of @pulumi/policy matches). */
  static readonly __pulumiType: string = LEDGER_TRANSACTION_TYPE;
  /** The transaction id (shown during preview too). */
  readonly txId: pulumi.Output<string>;
  /** The validation code's name, e.g. "VALID" or "MVCC_READ_CONFLICT". */
  readonly validationCode: pulumi.Output<string>;
  readonly validationCodeNumber: pulumi.Output<number>;
  /** The block holding the transaction (a decimal string: uint64). */
  readonly blockNumber: pulumi.Output<string>;
  /** The chaincode response payload. */
  readonly result: pulumi.Output<LedgerPayload>;
  /** MSP ids of the endorsers. */
  readonly endorsers: pulumi.Output<string[]>;
  /** The protos.ProcessedTransaction fetched by txId through qscc, base64. */
  readonly processedTransaction: pulumi.Output<string>;
  /** With previewEndorse: the simulated result of the transaction about to be submitted. */
  readonly previewResult: pulumi.Output<LedgerPayload | undefined>;
  /** The dynamic resource doing the work. */
  readonly submission: LedgerTransactionSubmission;

  constructor(name: string, args: LedgerTransactionArgs, opts?: pulumi.ComponentResourceOptions) {
    super(LEDGER_TRANSACTION_TYPE, name, {}, opts);
    this.submission = new LedgerTransactionSubmission(
      name,
      {
        gateway: gatewayInputs(args.gateway),
        channel: args.channel,
        ...(args.channelCapability === undefined ? {} : { channelCapability: args.channelCapability }),
        chaincode: args.chaincode,
        function: args.function,
        ...(args.args === undefined ? {} : { args: args.args }),
        ...(args.transientData === undefined ? {} : { transientData: secret(args.transientData) }),
        identity: identityInputs(args.identity),
        ...(args.endorsingOrganizations === undefined ? {} : { endorsingOrganizations: args.endorsingOrganizations }),
        ...(args.visibility === undefined ? {} : { visibility: args.visibility }),
        trustedRootCertificates: args.trustedRootCertificates,
        ...(args.onDestroy === undefined ? {} : { onDestroy: args.onDestroy }),
        ...(args.allowInvalid === undefined ? {} : { allowInvalid: args.allowInvalid }),
        ...(args.previewEndorse === undefined ? {} : { previewEndorse: args.previewEndorse }),
        ...(args.timeouts === undefined ? {} : { timeouts: args.timeouts }),
      },
      { parent: this },
    );
    this.txId = this.submission.txId;
    this.validationCode = this.submission.validationCode;
    this.validationCodeNumber = this.submission.validationCodeNumber;
    this.blockNumber = this.submission.blockNumber;
    this.result = this.submission.result;
    this.endorsers = this.submission.endorsers;
    this.processedTransaction = this.submission.processedTransaction;
    this.previewResult = this.submission.previewResult;
    // The component's state shows the outcome but not processedTransaction (about 5 KB of base64), which the
    // submission's state already holds: the engine rewrites the whole state file at every step, so each copy is paid
    // for several times per transaction in a `pulumi up` of many (docs/benchmarks.md, "The ledger through the engine").
    // The property above reads it from the submission, as every other output.
    this.registerOutputs({
      txId: this.txId,
      validationCode: this.validationCode,
      validationCodeNumber: this.validationCodeNumber,
      blockNumber: this.blockNumber,
      result: this.result,
      endorsers: this.endorsers,
      previewResult: this.previewResult,
    });
  }
}
