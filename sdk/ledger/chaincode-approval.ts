import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  ChaincodeApprovalShape,
  ChaincodeApprovalView,
  ChaincodeDefinitionFields,
} from "../../provider/resources/ledger/chaincode/chaincode-shapes";
import type { LedgerCredentials } from "../../provider/resources/ledger/ledger-shapes";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { Inputs } from "./inputs";
import { gatewayInputs, identityInputs } from "./ledger-transaction";
import type { LedgerIdentityArgs } from "./ledger-transaction";
import type { LedgerReadGatewayArgs } from "./chaincode-installation";

/** An approval's inputs (chaincode-shapes.ts's ChaincodeApprovalShape): `gateway`, `identity`, `peers` plain objects. */
export type ChaincodeApprovalArgs = Inputs<
  ChaincodeApprovalShape,
  "gateway" | "identity" | "peers",
  { gateway: LedgerReadGatewayArgs; identity: LedgerIdentityArgs; peers?: LedgerReadGatewayArgs[] }
>;

/**
 * An organization's approval of a chaincode definition (ApproveChaincodeDefinitionForMyOrg, signed by its admin),
 * made exactly once: its txId is derived from the admin's certificate, the URN and a generation, and a transaction of
 * this resource already committed is adopted; an approval the organization has already made is not sent again.
 * Preview shows the sequence it approves (a change of any field is the next one) and the commit readiness per
 * organization. Refresh reads the organization's newest approval: another admin's change is drift, which the next
 * `up` undoes by approving the declared definition at the next sequence. Destroy leaves the approval (Fabric cannot
 * withdraw one) and says so.
 */
export class ChaincodeApproval extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.chaincodeApproval);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChaincodeApproval {
    return hasFaceType(ChaincodeApproval.faceTypes, obj);
  }
  /** The definition as approved, its sequence filled in (the one the resource chose, when none was declared). */
  declare readonly definition: pulumi.Output<ChaincodeDefinitionFields>;
  /** "submitted", "adopted" or "already-approved" (nothing was sent). */
  declare readonly outcome: pulumi.Output<string>;
  /** The approval's transaction, when this resource sent or adopted it. */
  declare readonly txId: pulumi.Output<string | undefined>;
  /** Its block (a decimal string), when this resource sent or adopted it. */
  declare readonly blockNumber: pulumi.Output<string | undefined>;
  /** The organization's approval as its peer answers it (after `pulumi refresh`: its newest, another admin's too). */
  declare readonly approved: pulumi.Output<ChaincodeApprovalView>;
  /**
   * The key material refresh signs with that no reference holds (a privateKeyPem or PIN given as a value, the mutual
   * TLS client key given as clientKeyPem). Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<LedgerCredentials>;

  constructor(name: string, args: ChaincodeApprovalArgs, opts?: pulumi.CustomResourceOptions) {
    const { gateway, identity, peers, ...rest } = args;
    super(
      RESOURCES.chaincodeApproval,
      name,
      {
        ...rest,
        gateway: gatewayInputs(gateway),
        identity: identityInputs(identity),
        ...(peers === undefined ? {} : { peers: peers.map(gatewayInputs) }),
        outcome: undefined,
        txId: undefined,
        blockNumber: undefined,
        approved: undefined,
        credentials: undefined,
      },
      opts,
    );
  }
}
