/**
 * Installing a chaincode package on one peer and listing what it has installed: _lifecycle's InstallChaincode and
 * QueryInstalledChaincodes, channelless proposals to that peer's Endorser service signed by its organization's admin
 * (the peer's local Admins policy), as `peer lifecycle chaincode install` / `queryinstalled` send them. An install
 * looks first: a package the peer already has is adopted, not sent again.
 */
import type * as grpc from "@grpc/grpc-js";
import type { Endorser } from "../endorser-client";
import { readChaincodePackage } from "./chaincode-package";
import type { ChaincodePackage } from "./chaincode-package";
import { checkAdminIdentity } from "./admin-identity";
import type { TrustedMsp } from "../cert-chain";
import { lifecycleCodecs } from "./lifecycle-codecs";
import { LifecycleError } from "../../errors/ledger/lifecycle-error";
import { LIFECYCLE_CHAINCODE, lifecycleErrorOf } from "./lifecycle-reads";

/** A package a peer has installed, with the definitions (by channel) that use it. */
export interface InstalledPackage {
  readonly packageId: string;
  readonly label: string;
  readonly references: Readonly<Record<string, readonly { readonly name: string; readonly version: string }[]>>;
}

/** What installChaincode did. */
export interface InstallResult {
  readonly packageId: string;
  readonly label: string;
  /** "installed": sent now; "already-installed": the peer had it, nothing was sent. */
  readonly outcome: "installed" | "already-installed";
}

export interface InstallOptions {
  /** The channel's organizations and their CAs, to check the admin before anything is sent. */
  readonly trustedMsps?: readonly TrustedMsp[];
  readonly callOptions?: grpc.CallOptions;
}

const ALREADY_INSTALLED = /chaincode already successfully installed/;

/** The packages installed on the endorser's peer (its admin's QueryInstalledChaincodes). */
export async function queryInstalledChaincodes(
  endorser: Endorser,
  options?: grpc.CallOptions,
): Promise<InstalledPackage[]> {
  const organization = endorser.getIdentity().mspId;
  try {
    const response = await endorser.processProposal(
      {
        chaincodeName: LIFECYCLE_CHAINCODE,
        functionName: "QueryInstalledChaincodes",
        args: [lifecycleCodecs.QueryInstalledChaincodesArgs.encode({})],
      },
      options,
    );
    const result = lifecycleCodecs.QueryInstalledChaincodesResult.decode(response.payload, {
      path: "QueryInstalledChaincodesResult",
    });
    return result.installedChaincodes.map((c) => ({
      packageId: c.packageId,
      label: c.label,
      references: Object.fromEntries(c.references.map((r) => [r.key, r.value?.chaincodes ?? []])),
    }));
  } catch (error) {
    throw lifecycleErrorOf(error, {
      channel: "",
      organization,
      what: `QueryInstalledChaincodes on the peer at ${endorser.address}`,
    });
  }
}

/**
 * Installs a package (its bytes, or one built or read here) on the endorser's peer unless it is there already.
 * Throws ValidationError for bytes that are no install package, LifecycleError for an identity the peer refuses (or
 * that checkAdminIdentity refuses before anything is sent), EndorserError for any other failure.
 */
export async function installChaincode(
  endorser: Endorser,
  chaincodePackage: Uint8Array | ChaincodePackage,
  options: InstallOptions = {},
): Promise<InstallResult> {
  const pkg = chaincodePackage instanceof Uint8Array ? readChaincodePackage(chaincodePackage) : chaincodePackage;
  const organization = endorser.getIdentity().mspId;
  const what = `InstallChaincode of ${pkg.packageId} on the peer at ${endorser.address}`;
  await checkAdminIdentity(
    endorser.getIdentity(),
    what,
    options.trustedMsps === undefined ? {} : { trustedMsps: options.trustedMsps },
  );
  const installed = await queryInstalledChaincodes(endorser, options.callOptions);
  if (installed.some((p) => p.packageId === pkg.packageId)) {
    return { packageId: pkg.packageId, label: pkg.label, outcome: "already-installed" };
  }
  try {
    const response = await endorser.processProposal(
      {
        chaincodeName: LIFECYCLE_CHAINCODE,
        functionName: "InstallChaincode",
        args: [lifecycleCodecs.InstallChaincodeArgs.encode({ chaincodeInstallPackage: pkg.bytes })],
      },
      options.callOptions,
    );
    const result = lifecycleCodecs.InstallChaincodeResult.decode(response.payload, { path: "InstallChaincodeResult" });
    if (result.packageId !== pkg.packageId) {
      throw new LifecycleError({
        problem: "REFUSED",
        organization,
        field: "package",
        message: `${what}: the peer installed it as ${result.packageId}, not ${pkg.packageId} as the package's bytes give`,
      });
    }
    return { packageId: result.packageId, label: result.label, outcome: "installed" };
  } catch (error) {
    // Another install of the same bytes finished first.
    if (error instanceof Error && ALREADY_INSTALLED.test(error.message)) {
      return { packageId: pkg.packageId, label: pkg.label, outcome: "already-installed" };
    }
    throw lifecycleErrorOf(error, { channel: "", organization, what });
  }
}
