import * as pulumi from "@pulumi/pulumi";
import type { OperationWaitShape } from "../../provider/resources/operation-wait";
import { RESOURCES } from "../../provider/registry";
import type { Inputs } from "../inputs";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import type { ResourceOptions } from "../provider";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";

export const OPERATION_WAIT_TYPE: string = RESOURCES.operationWait.dynamicType;

/** An OperationWait's inputs (operation-wait.ts's OperationWaitShape, each an Input). */
export type OperationWaitArgs = Inputs<OperationWaitShape>;

/** Waits for an operation started outside Pulumi to finish; fails with the operation's error. */
export class OperationWait extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.operationWait);
  /**
   * Whether `obj` is one of this class's resources on any face: what @pulumi/policy's `validateResourceOfType` and
   * `remediateResourceOfType` ask, so that one policy guards every language (docs/policy.md).
   */
  static override isInstance(obj: unknown): obj is OperationWait {
    return hasFaceType(OperationWait.faceTypes, obj);
  }
  declare readonly kind: pulumi.Output<"compute" | "longrunning">;
  declare readonly operationName: pulumi.Output<string>;
  declare readonly done: pulumi.Output<boolean>;
  declare readonly status: pulumi.Output<string>;
  declare readonly progress: pulumi.Output<number | undefined>;
  declare readonly endTime: pulumi.Output<string | undefined>;
  /** The response's `@type` (IAM) or the operation's targetLink (compute). */
  declare readonly result: pulumi.Output<string | undefined>;

  constructor(name: string, args: OperationWaitArgs, opts?: ResourceOptions) {
    super(
      RESOURCES.operationWait,
      name,
      {
        ...args,
        kind: undefined,
        operationName: undefined,
        done: undefined,
        status: undefined,
        progress: undefined,
        endTime: undefined,
        result: undefined,
      },
      opts,
    );
  }
}
