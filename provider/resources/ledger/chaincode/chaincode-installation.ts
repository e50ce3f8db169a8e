/**
 * ledger.ChaincodeInstallation: a chaincode package installed on one peer (_lifecycle's InstallChaincode, a
 * channelless proposal to the peer's own Endorser service, signed by its organization's admin). An installation is
 * idempotent on the peer's side: the peer's QueryInstalledChaincodes is asked first, in check (so preview says
 * whether it would send the package) and again before sending, and a package already there is adopted, not sent
 * again. The package is checked as a peer parses it, and the admin's certificate as an admin's, before anything is
 * sent. destroy sends nothing — Fabric has no uninstall — and says the package stays on the peer.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { FieldFailure } from "../../../errors";
import { LifecycleError } from "../../../errors/ledger/lifecycle-error";
import { newIdentity } from "../../../ledger";
import { checkAdminIdentity } from "../../../ledger/lifecycle/admin-identity";
import { installChaincode, queryInstalledChaincodes } from "../../../ledger/lifecycle/lifecycle-install";
import { log } from "../../../runtime/context";
import { checkTimeouts, nameFromUrn, timeoutMs } from "../../common";
import type { Timeouts } from "../../common";
import { hasUnknown } from "../ledger-values";
import { sessionOfOutputs, sessionOutputs } from "../session/ledger-session";
import type { LedgerIdentityOutputs } from "../session/ledger-session";
import { identityFailures } from "../session/ledger-signers";
import type { LedgerCredentials, LedgerReadGateway } from "../ledger-shapes";
import { peerFailures, readInstallationPackage } from "./chaincode-inputs";
import { checkPeerSession, withPeerSession } from "./chaincode-peers";
import { readFailure } from "./chaincode-plan";
import type { ChaincodeInstallationOutcome, ChaincodeInstallationShape } from "./chaincode-shapes";
import { differs } from "./chaincode-step";

export interface ChaincodeInstallationInputs extends Omit<ChaincodeInstallationShape, "timeouts"> {
  __urn: string;
  timeouts?: Timeouts;
}

/** The outputs: the settings (the peer's and the identity's as the state keeps them), and what was installed. */
export type ChaincodeInstallationOutputs = Omit<ChaincodeInstallationInputs, "peer" | "identity"> &
  ChaincodeInstallationOutcome & {
    peer: Omit<LedgerReadGateway, "clientKeyPem">;
    identity: LedgerIdentityOutputs;
    credentials: LedgerCredentials;
  };

const subjectOf = (urn: string): string => `ChaincodeInstallation ${nameFromUrn(urn)}`;

/** The admin check, from the certificate alone: a client's, peer's or orderer's certificate is refused. */
async function adminFailures(i: ChaincodeInstallationInputs): Promise<FieldFailure[]> {
  try {
    await checkAdminIdentity(newIdentity(i.identity.mspId, i.identity.certificatePem), "the identity");
    return [];
  } catch (error) {
    if (!(error instanceof LifecycleError)) throw error;
    return [{ property: error.field ?? "identity", reason: error.message.replace(/^the identity: /, "") }];
  }
}

async function check(_olds: unknown, news: ChaincodeInstallationInputs): Promise<dynamic.CheckResult> {
  const read = readInstallationPackage(news);
  const failures = [
    ...peerFailures("peer", news.peer),
    ...identityFailures(news.identity),
    ...(read !== undefined && "failures" in read ? read.failures : []),
    ...checkTimeouts(news.timeouts),
  ];
  if (failures.length === 0 && !hasUnknown(news.identity)) failures.push(...(await adminFailures(news)));
  if (failures.length > 0) return { failures };
  if (hasUnknown([news.peer, news.identity])) return { inputs: news };
  const pkg = read !== undefined && "package" in read ? read.package : undefined;
  const checked = await checkPeerSession(news.peer, news.identity, "peer", async (endorser) => {
    try {
      const installed = await queryInstalledChaincodes(endorser);
      const what =
        pkg === undefined
          ? "to install the package this update makes"
          : installed.some((p) => p.packageId === pkg.packageId)
            ? `${pkg.packageId} is installed on the peer already: nothing to send`
            : `to send: InstallChaincode of ${pkg.packageId}`;
      log(
        "info",
        `${subjectOf(news.__urn)}: ${what} (the peer at ${news.peer.address}, as ${news.identity.mspId}'s admin)`,
        news.__urn,
      );
      return undefined;
    } catch (error) {
      return readFailure(error);
    }
  });
  if (checked !== undefined) return { failures: "failures" in checked ? checked.failures : [checked] };
  return { inputs: news };
}

function diff(
  _id: string,
  olds: ChaincodeInstallationOutputs,
  news: ChaincodeInstallationInputs,
): Promise<dynamic.DiffResult> {
  const read = readInstallationPackage(news);
  const packageId = read !== undefined && "package" in read ? read.package.packageId : undefined;
  const replaces = [
    ...(differs(olds.peer.address, news.peer.address) ? ["peer"] : []),
    ...(differs(olds.identity.mspId, news.identity.mspId) ? ["identity"] : []),
    ...(packageId === undefined || packageId !== olds.packageId
      ? [news.packageFile === undefined ? "packageBase64" : "packageFile"]
      : []),
  ];
  const now = sessionOutputs({ gateway: news.peer, identity: news.identity });
  const changed =
    differs(olds.peer, now.gateway) ||
    differs(olds.identity, now.identity) ||
    differs(olds.credentials, now.credentials) ||
    differs(olds.timeouts, news.timeouts);
  return Promise.resolve({ changes: replaces.length > 0 || changed, replaces, deleteBeforeReplace: false });
}

/** The outputs of an installation of `outcome`'s package. */
function outputsOf(
  i: ChaincodeInstallationInputs,
  outcome: ChaincodeInstallationOutcome,
): ChaincodeInstallationOutputs {
  const { peer: _p, identity: _i, ...rest } = i;
  const session = sessionOutputs({ gateway: i.peer, identity: i.identity });
  return { ...rest, peer: session.gateway, identity: session.identity, credentials: session.credentials, ...outcome };
}

export const chaincodeInstallationProvider = {
  check,
  diff,
  async create(inputs: ChaincodeInstallationInputs): Promise<dynamic.CreateResult> {
    const read = readInstallationPackage(inputs);
    if (read === undefined || "failures" in read)
      throw new Error(`${subjectOf(inputs.__urn)}: the package is not known`);
    const pkg = read.package;
    const subject = subjectOf(inputs.__urn);
    const result = await withPeerSession(inputs.peer, inputs.identity, subject, (endorser) =>
      installChaincode(endorser, pkg, { callOptions: { deadline: Date.now() + timeoutMs(inputs.timeouts, "create") } }),
    );
    log(
      "info",
      result.outcome === "installed"
        ? `${subject}: installed ${result.packageId} on the peer at ${inputs.peer.address}`
        : `${subject}: ${result.packageId} was installed on the peer at ${inputs.peer.address} already: adopted, nothing sent`,
      inputs.__urn,
    );
    return {
      id: `${inputs.peer.address}/${result.packageId}`,
      outs: outputsOf(inputs, { packageId: result.packageId, label: result.label }),
    };
  },
  /** Only how the peer is reached or how the admin signs changed (a package change is a new installation). */
  update(
    _id: string,
    olds: ChaincodeInstallationOutputs,
    news: ChaincodeInstallationInputs,
  ): Promise<dynamic.UpdateResult> {
    return Promise.resolve({ outs: outputsOf(news, { packageId: olds.packageId, label: olds.label }) });
  },
  /** Refresh: the peer's installed packages; one the peer no longer has (a peer rebuilt) leaves the stack. */
  async read(id: string, props: ChaincodeInstallationOutputs): Promise<dynamic.ReadResult> {
    const session = sessionOfOutputs({ ...props, gateway: props.peer, channel: "" });
    const installed = await withPeerSession(session.gateway, session.identity, subjectOf(props.__urn), (endorser) =>
      queryInstalledChaincodes(endorser),
    );
    if (installed.some((p) => p.packageId === props.packageId)) return { id, props };
    log(
      "warning",
      `${subjectOf(props.__urn)}: the peer at ${props.peer.address} no longer has ${props.packageId}`,
      props.__urn,
    );
    return { id: "" };
  },
  /** Fabric has no uninstall: destroy sends nothing, and says the package stays. */
  delete(_id: string, props: ChaincodeInstallationOutputs): Promise<void> {
    log(
      "info",
      `${subjectOf(props.__urn)}: package ${props.packageId} stays installed on the peer at ${props.peer.address} ` +
        "(Fabric has no uninstall); it leaves the stack only",
      props.__urn,
    );
    return Promise.resolve();
  },
};
