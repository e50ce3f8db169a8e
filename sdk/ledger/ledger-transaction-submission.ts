import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  LedgerBytes,
  LedgerCredentials,
  LedgerPayload,
  LedgerTransactionShape,
} from "../../provider/resources/ledger/ledger-shapes";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import type { Inputs } from "./inputs";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";

/** The type token of the child dynamic resource (module "ledger", type "LedgerTransactionSubmission"). Frozen. */
export const LEDGER_TRANSACTION_SUBMISSION_TYPE: string = RESOURCES.ledgerTransaction.dynamicType;

/** A chaincode argument or transient value: a string (sent as UTF-8), or bytes as `{ base64: "..." }`. */
export type LedgerBytesInput = LedgerBytes;

/** A chaincode response payload (declared in ledger-shapes.ts). */
export type { LedgerPayload };

/**
 * The inputs of the submission, as the component passes them (ledger-shapes.ts's LedgerTransactionShape): the gateway
 * and the identity as the component prepared them (secrets already wrapped, paths made absolute).
 */
export type LedgerTransactionSubmissionArgs = Inputs<
  LedgerTransactionShape,
  "gateway" | "identity",
  {
    gateway: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
    identity: pulumi.Input<Record<string, pulumi.Input<unknown>>>;
  }
>;

/**
 * The dynamic resource behind ledger.LedgerTransaction: submits one Fabric transaction exactly once. Use the component;
 * this class is exported for tests and for programs that need the raw resource.
 */
export class LedgerTransactionSubmission extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.ledgerTransaction, "child");
  /**
   * Whether `obj` is one of this class's resources on any face: what @pulumi/policy's `validateResourceOfType` and
   * `remediateResourceOfType` ask, so that one policy guards every language (docs/policy.md).
   */
  static override isInstance(obj: unknown): obj is LedgerTransactionSubmission {
    return hasFaceType(LedgerTransactionSubmission.faceTypes, obj);
  }
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
  /** The key material refresh and destroy sign with that no reference holds. @secret */
  declare readonly credentials: pulumi.Output<LedgerCredentials>;
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
      // credentials is stored only as a Pulumi secret: its @secret tag (OpsLedgerDynamicResource reads the schema).
      opts,
    );
    this.generation = this.__generation;
  }
}
