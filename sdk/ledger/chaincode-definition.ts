import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  ChaincodeCommittedView,
  ChaincodeDefinitionFields,
  ChaincodeDefinitionShape,
  ChaincodeStepTimeouts,
} from "../../provider/resources/ledger/chaincode/chaincode-shapes";
import type { LedgerCredentials } from "../../provider/resources/ledger/ledger-shapes";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { Inputs } from "./inputs";
import { gatewayInputs, identityInputs } from "./ledger-transaction";
import type { LedgerIdentityArgs } from "./ledger-transaction";
import type { LedgerReadGatewayArgs } from "./chaincode-installation";

/** A chaincode definition's fields (chaincode-shapes.ts's ChaincodeDefinitionFields, each an Input). */
export type ChaincodeDefinitionFieldsArgs = Inputs<ChaincodeDefinitionFields>;

/** An approval's or commit's deadlines (chaincode-shapes.ts's ChaincodeStepTimeouts, each an Input). */
export type ChaincodeStepTimeoutsArgs = Inputs<ChaincodeStepTimeouts>;

/** A committed definition's inputs (chaincode-shapes.ts's ChaincodeDefinitionShape): `gateway`, `identity` plain. */
export type ChaincodeDefinitionArgs = Inputs<
  ChaincodeDefinitionShape,
  "gateway" | "identity",
  { gateway: LedgerReadGatewayArgs; identity: LedgerIdentityArgs }
>;

/**
 * A chaincode definition committed on a channel (CommitChaincodeDefinition), sent only when the organizations that
 * approved it meet the channel's LifecycleEndorsement policy — otherwise the update fails naming those that have not
 * approved — and exactly once: its txId is derived from the admin's certificate, the URN and a generation, and a
 * transaction of this resource already committed is adopted; the same definition committed by anyone is not sent
 * again. Preview shows the sequence (a change of any field is the next one) and the commit readiness per
 * organization. Refresh reads the committed definition: another admin's change is drift, which the next `up` undoes
 * at the next sequence. Destroy leaves the definition (Fabric cannot remove one from a channel) and says so.
 */
export class ChaincodeDefinition extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.chaincodeDefinition);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChaincodeDefinition {
    return hasFaceType(ChaincodeDefinition.faceTypes, obj);
  }
  /** The definition as committed, its sequence filled in (the one the resource chose, when none was declared). */
  declare readonly definition: pulumi.Output<ChaincodeDefinitionFields>;
  /** "submitted", "adopted" or "already-committed" (nothing was sent). */
  declare readonly outcome: pulumi.Output<string>;
  /** The commit's transaction, when this resource sent or adopted it. */
  declare readonly txId: pulumi.Output<string | undefined>;
  /** Its block (a decimal string), when this resource sent or adopted it. */
  declare readonly blockNumber: pulumi.Output<string | undefined>;
  /** The definition the channel has committed, with each organization's approval (after `pulumi refresh`: as it is). */
  declare readonly committed: pulumi.Output<ChaincodeCommittedView>;
  /**
   * The key material refresh signs with that no reference holds (a privateKeyPem or PIN given as a value, the mutual
   * TLS client key given as clientKeyPem). Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<LedgerCredentials>;

  constructor(name: string, args: ChaincodeDefinitionArgs, opts?: pulumi.CustomResourceOptions) {
    const { gateway, identity, ...rest } = args;
    super(
      RESOURCES.chaincodeDefinition,
      name,
      {
        ...rest,
        gateway: gatewayInputs(gateway),
        identity: identityInputs(identity),
        outcome: undefined,
        txId: undefined,
        blockNumber: undefined,
        committed: undefined,
        credentials: undefined,
      },
      opts,
    );
  }
}
