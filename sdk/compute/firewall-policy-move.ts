import * as pulumi from "@pulumi/pulumi";
import type {
  FirewallPolicyMoveShape,
  MoveTimeouts as MoveTimeoutsShape,
  OperationSummary,
} from "../../provider/resources/firewall-policy-move";
import { RESOURCES } from "../../provider/registry";
import type { Inputs } from "../inputs";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import type { ResourceOptions } from "../provider";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";

export const FIREWALL_POLICY_MOVE_TYPE: string = RESOURCES.firewallPolicyMove.dynamicType;

/** Deadlines of the move steps (firewall-policy-move.ts's MoveTimeouts, each an Input). */
export type MoveTimeouts = Inputs<MoveTimeoutsShape>;

/** A FirewallPolicyMove's inputs (firewall-policy-move.ts's FirewallPolicyMoveShape, each an Input). */
export type FirewallPolicyMoveArgs = Inputs<FirewallPolicyMoveShape>;

/** The move's long-running operation, as the provider summarizes it. */
export type MoveOperation = OperationSummary;

/**
 * Keeps an organization firewall policy under a chosen folder or organization, moving it with
 * compute `firewallPolicies.move` and waiting for the operation. A parent change is an in-place update.
 */
export class FirewallPolicyMove extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.firewallPolicyMove);
  /**
   * Whether `obj` is one of this class's resources on any face: what @pulumi/policy's `validateResourceOfType` and
   * `remediateResourceOfType` ask, so that one policy guards every language (docs/policy.md).
   */
  static override isInstance(obj: unknown): obj is FirewallPolicyMove {
    return hasFaceType(FirewallPolicyMove.faceTypes, obj);
  }
  /** The numeric id of the policy. */
  declare readonly firewallPolicyId: pulumi.Output<string>;
  /** The parent observed after the last create, update or refresh. */
  declare readonly parent: pulumi.Output<string>;
  /** The parent the policy had before this resource first moved it (where restoreOnDelete puts it back). */
  declare readonly previousParent: pulumi.Output<string>;
  /** The requestId of the current target parent: yours, or the one derived for you. */
  readonly requestId: pulumi.Output<string>;
  /** How many distinct target parents this resource has had. */
  readonly generation: pulumi.Output<number>;
  /** The last move operation (absent when the policy was already under the parent). */
  declare readonly operation: pulumi.Output<MoveOperation | undefined>;
  // Plumbing kept in state under `__` keys, which Pulumi leaves out of previews; exposed above under plain names.
  declare private readonly __requestId: pulumi.Output<string>;
  declare private readonly __generation: pulumi.Output<number>;

  constructor(name: string, args: FirewallPolicyMoveArgs, opts?: ResourceOptions) {
    super(
      RESOURCES.firewallPolicyMove,
      name,
      {
        ...args,
        __requestId: undefined,
        __generation: undefined,
        firewallPolicyId: undefined,
        parent: undefined,
        previousParent: undefined,
        operation: undefined,
      },
      opts,
    );
    this.requestId = this.__requestId;
    this.generation = this.__generation;
  }
}
