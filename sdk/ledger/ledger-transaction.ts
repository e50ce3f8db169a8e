import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import { LedgerTransactionSubmission } from "./ledger-transaction-submission";
import type {
  LedgerGateway,
  LedgerIdentity,
  LedgerKms,
  LedgerCredentials,
  LedgerOnDestroy,
  LedgerPkcs11,
  LedgerTimeouts as LedgerTimeoutsShape,
  LedgerTransactionShape,
} from "../../provider/resources/ledger/ledger-shapes";
import type { Inputs } from "./inputs";
import type { LedgerPayload } from "./ledger-transaction-submission";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";

const COMPONENT = ((c) => {
  if (c === undefined) throw new Error("the registry's ledgerTransaction has no TypeScript component");
  return c;
})(RESOURCES.ledgerTransaction.typescriptComponent);

/**
 * The component's type token. `opsledger:ledger:LedgerTransaction` is the plugin's custom resource (YAML, Go, Python):
 * one token, one kind of resource (docs/decisions/0049-one-kind-per-ledger-token.md). Frozen: state names it.
 */
export const LEDGER_TRANSACTION_TYPE: string = COMPONENT.type;

/**
 * The token the component was registered under until 0.2, which is the plugin's custom resource's: the component's
 * alias, so a stack written before keeps its component and its submission (whose URN its parent's type qualifies,
 * aliased with it) without a diff, and the submission keeps its txId.
 */
export const LEDGER_TRANSACTION_RESOURCE_TYPE: string = RESOURCES.ledgerTransaction.token;

export type { LedgerVisibility } from "../../provider/resources/ledger/ledger-shapes";

/** Where the Fabric Gateway is and how to reach it (ledger-shapes.ts's LedgerGateway, each field an Input). */
export type LedgerGatewayArgs = Inputs<LedgerGateway>;

/** A key on a PKCS#11 token (ledger-shapes.ts's LedgerPkcs11, each field an Input). */
export type LedgerPkcs11Args = Inputs<LedgerPkcs11>;

/** A Cloud KMS key version (ledger-shapes.ts's LedgerKms, each field an Input). */
export type LedgerKmsArgs = Inputs<LedgerKms>;

/** The submitting identity (ledger-shapes.ts's LedgerIdentity): `pkcs11` a plain object of Inputs (read here). */
export type LedgerIdentityArgs = Inputs<LedgerIdentity, "pkcs11", { pkcs11?: LedgerPkcs11Args }>;

/** A compensating transaction (ledger-shapes.ts's LedgerOnDestroy, each field an Input). */
export type LedgerOnDestroyArgs = Inputs<LedgerOnDestroy>;

/** Deadlines of the commit wait (ledger-shapes.ts's LedgerTimeouts, each field an Input). */
export type LedgerTimeouts = Inputs<LedgerTimeoutsShape>;

/** The LedgerTransaction's inputs (ledger-shapes.ts's LedgerTransactionShape): `gateway` and `identity` plain objects. */
export type LedgerTransactionArgs = Inputs<
  LedgerTransactionShape,
  "gateway" | "identity",
  { gateway: LedgerGatewayArgs; identity: LedgerIdentityArgs }
>;

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
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.ledgerTransaction);
  /**
   * Whether `obj` is one of this class's resources on any face (the component, and the submission that carries its
   * inputs): what @pulumi/policy's `validateResourceOfType` and `remediateResourceOfType` ask, so that one policy
   * guards every language (docs/policy.md).
   */
  static override isInstance(obj: unknown): obj is LedgerTransaction {
    return hasFaceType(LedgerTransaction.faceTypes, obj);
  }
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
  /**
   * The key material refresh and destroy sign with that no reference holds (a privateKeyPem or PIN given as a value,
   * the mutual TLS client key given as clientKeyPem). Only ever a Pulumi secret.
   * @secret
   */
  readonly credentials: pulumi.Output<LedgerCredentials>;
  /** The dynamic resource doing the work. */
  readonly submission: LedgerTransactionSubmission;

  constructor(name: string, args: LedgerTransactionArgs, opts?: pulumi.ComponentResourceOptions) {
    super(
      LEDGER_TRANSACTION_TYPE,
      name,
      {},
      pulumi.mergeOptions(opts, { aliases: COMPONENT.aliasTypes.map((type) => ({ type })) }),
    );
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
    this.credentials = this.submission.credentials;
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
