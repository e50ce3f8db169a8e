import * as path from "node:path";
import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import type {
  CcaasConnection,
  ChaincodePackageOutcome,
  ChaincodePackageShape,
} from "../../provider/resources/ledger/chaincode/chaincode-shapes";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";
import type { Inputs } from "./inputs";
import { secret } from "./ledger-transaction";

/** Where a chaincode server listens and how the peer reaches it (chaincode-shapes.ts's CcaasConnection, as Inputs). */
export type CcaasConnectionArgs = Inputs<CcaasConnection>;

/** A chaincode package's inputs (chaincode-shapes.ts's ChaincodePackageShape, each field an Input). */
export type ChaincodePackageArgs = Inputs<ChaincodePackageShape>;

/**
 * A chaincode install package, computed where `pulumi` runs (nothing is sent): chaincode as a service from a label and
 * the chaincode server's connection — the same bytes, so the same package id, every time — or a package built
 * elsewhere, read from its file. Its id is what `peer lifecycle chaincode calculatepackageid` prints, known in
 * preview; its bytes are only ever a Pulumi secret (with client authentication they carry the peer's TLS key).
 */
export class ChaincodePackage extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.chaincodePackage);
  /** Whether `obj` is one of this class's resources on any face (docs/policy.md). */
  static override isInstance(obj: unknown): obj is ChaincodePackage {
    return hasFaceType(ChaincodePackage.faceTypes, obj);
  }
  /** `<label>:<hex SHA-256 of the package>`, as `peer lifecycle chaincode calculatepackageid` prints it. */
  declare readonly packageId: pulumi.Output<ChaincodePackageOutcome["packageId"]>;
  /** The package's label. */
  declare readonly label: pulumi.Output<string>;
  /** The package's type: "ccaas", "golang", "node", ... */
  declare readonly type: pulumi.Output<string>;
  /**
   * The package's bytes (.tar.gz), base64: what a ChaincodeInstallation installs. Only ever a Pulumi secret.
   * @secret
   */
  declare readonly packageBase64: pulumi.Output<string>;

  constructor(name: string, args: ChaincodePackageArgs, opts?: pulumi.CustomResourceOptions) {
    const { connection, file, ...rest } = args;
    super(
      RESOURCES.chaincodePackage,
      name,
      {
        ...rest,
        label: rest.label,
        ...(connection === undefined ? {} : { connection: connectionInputs(connection) }),
        ...(file === undefined ? {} : { file: pulumi.output(file).apply((f) => path.resolve(f)) }),
        packageId: undefined,
        type: undefined,
        packageBase64: undefined,
      },
      opts,
    );
  }
}

/**
 * A connection as the provider takes it: given as an object, its client key (the peer's TLS key) a secret; given as
 * an Output (a secret stack config value, say), as it is.
 */
function connectionInputs(connection: pulumi.Input<CcaasConnectionArgs>): pulumi.Input<unknown> {
  if (pulumi.Output.isInstance(connection) || connection instanceof Promise) return connection;
  const { clientKey, ...rest } = connection;
  return { ...rest, ...(clientKey === undefined ? {} : { clientKey: secret(clientKey) }) };
}
