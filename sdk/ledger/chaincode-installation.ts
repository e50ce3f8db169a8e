import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  ChaincodeInstallationShape,
  ChaincodeInstallationTimeouts as ChaincodeInstallationTimeoutsShape,
} from "../../provider/resources/ledger/chaincode/chaincode-shapes";
import type { LedgerCredentials, LedgerReadGateway } from "../../provider/resources/ledger/ledger-shapes";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { Inputs } from "./inputs";
import { gatewayInputs, identityInputs, secret } from "./ledger-transaction";
import type { LedgerIdentityArgs } from "./ledger-transaction";

/** A peer's address and TLS settings (ledger-shapes.ts's LedgerReadGateway, each field an Input). */
export type LedgerReadGatewayArgs = Inputs<LedgerReadGateway>;

/** An installation's deadline (chaincode-shapes.ts's ChaincodeInstallationTimeouts, each field an Input). */
export type ChaincodeInstallationTimeouts = Inputs<ChaincodeInstallationTimeoutsShape>;

/** An installation's inputs (chaincode-shapes.ts's ChaincodeInstallationShape): `peer`, `identity` plain objects. */
export type ChaincodeInstallationArgs = Inputs<
  ChaincodeInstallationShape,
  "peer" | "identity",
  { peer: LedgerReadGatewayArgs; identity: LedgerIdentityArgs }
>;

/**
 * A chaincode package installed on one peer (InstallChaincode, signed by the peer's organization's admin). A package
 * the peer has installed already is adopted, not sent again; preview says which it will be. Fabric has no uninstall:
 * destroy leaves the package on the peer and says so.
 */
export class ChaincodeInstallation extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.chaincodeInstallation);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChaincodeInstallation {
    return hasFaceType(ChaincodeInstallation.faceTypes, obj);
  }
  /** The package id the peer installed the package under: what a ChaincodeApproval names. */
  declare readonly packageId: pulumi.Output<string>;
  /** The package's label. */
  declare readonly label: pulumi.Output<string>;
  /**
   * The key material refresh signs with that no reference holds (a privateKeyPem or PIN given as a value, the mutual
   * TLS client key given as clientKeyPem). Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<LedgerCredentials>;

  constructor(name: string, args: ChaincodeInstallationArgs, opts?: pulumi.CustomResourceOptions) {
    const { peer, identity, packageBase64, packageFile, ...rest } = args;
    super(
      RESOURCES.chaincodeInstallation,
      name,
      {
        ...rest,
        peer: gatewayInputs(peer),
        identity: identityInputs(identity),
        ...(packageBase64 === undefined ? {} : { packageBase64: secret(packageBase64) }),
        ...(packageFile === undefined ? {} : { packageFile: pulumi.output(packageFile).apply((f) => path.resolve(f)) }),
        packageId: undefined,
        label: undefined,
        credentials: undefined,
      },
      opts,
    );
  }
}
