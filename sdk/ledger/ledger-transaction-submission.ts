import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import { OpsLedgerDynamicResource } from "../provider-stubs";

/** The type token of the child dynamic resource (module "ledger", type "LedgerTransactionSubmission"). Frozen. */
export const LEDGER_TRANSACTION_SUBMISSION_TYPE: string = RESOURCES.ledgerTransaction.dynamicType;

/** A chaincode argument or transient value: a string (sent as UTF-8), or bytes as `{ base64: "..." }`. */
export type LedgerBytesInput = string | { base64: string };

/** A chaincode response payload, as UTF-8 text (invalid sequences replaced) and as base64 (exact bytes). */
export interface LedgerPayload {
  utf8: string;
  base64: string;
}

/** The inputs of the submission, as the component passes them (secrets already wrapped). */
export interface LedgerTransactionSubmissionArgs {
  gateway: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
  channel: pulumi.Input<string>;
  channelCapability?: pulumi.Input<string>;
  chaincode: pulumi.Input<string>;
  function: pulumi.Input<string>;
  args?: pulumi.Input<pulumi.Input<LedgerBytesInput>[]>;
  transientData?: pulumi.Input<Record<string, pulumi.Input<LedgerBytesInput>>>;
  identity: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
  endorsingOrganizations?: pulumi.Input<pulumi.Input<string>[]>;
  visibility?: pulumi.Input<string>;
  trustedRootCertificates: pulumi.Input<Record<string, pulumi.Input<string>>>;
  onDestroy?: pulumi.Input<{ function: pulumi.Input<string>; args?: pulumi.Input<pulumi.Input<LedgerBytesInput>[]> }>;
  allowInvalid?: pulumi.Input<boolean>;
  previewEndorse?: pulumi.Input<boolean>;
  timeouts?: pulumi.Input<{ create?: pulumi.Input<string>; delete?: pulumi.Input<string> }>;
}

/**
 * The dynamic resource behind ledger.LedgerTransaction: submits one Fabric transaction exactly once. Use the component;
 * this class is exported for tests and for programs that need the raw resource.
 */
export class LedgerTransactionSubmission extends OpsLedgerDynamicResource {
  /** The type string of this class's resources (what `validateResourceOfType` of @pulumi/policy matches). */
  static readonly __pulumiType: string = LEDGER_TRANSACTION_SUBMISSION_TYPE;
  declare readonly txId: pulumi.Output<string>;
  /** The generation of the committed transaction (bumped when a transaction input changes). */
  readonly generation: pulumi.Output<number>;
  declare readonly validationCode: pulumi.Output<string>;
  declare readonly validationCodeNumber: pulumi.Output<number>;
  declare readonly blockNumber: pulumi.Output<string>;
  declare readonly result: pulumi.Output<LedgerPayload>;
  declare readonly endorsers: pulumi.Output<string[]>;
  declare readonly processedTransaction: pulumi.Output<string>;
  declare readonly previewResult: pulumi.Output<LedgerPayload | undefined>;
  // Plumbing kept in state under a `__` key, which Pulumi leaves out of previews (decision 0007); exposed above.
  declare private readonly __generation: pulumi.Output<number>;

  constructor(name: string, args: LedgerTransactionSubmissionArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      RESOURCES.ledgerTransaction,
      name,
      {
        ...args,
        __generation: undefined,
        txId: undefined,
        validationCode: undefined,
        validationCodeNumber: undefined,
        blockNumber: undefined,
        result: undefined,
        endorsers: undefined,
        processedTransaction: undefined,
        previewResult: undefined,
        credentials: undefined,
      },
      // credentials is stored only as a Pulumi secret: the registry's secretOutputs (provider/registry/resources.ts).
      opts,
    );
    this.generation = this.__generation;
  }
}
