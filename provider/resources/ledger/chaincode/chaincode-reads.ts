/**
 * ledger.getChaincodeDefinition, shared by both faces like ledger-reads.ts: the TypeScript SDK's function
 * (sdk/ledger/get-chaincode-definition.ts, run in the program process) and the plugin's invoke
 * (`opsledger:ledger:getChaincodeDefinition`). It reads the definition committed on the channel with each
 * organization's approval of it (QueryChaincodeDefinition: Fabric's default ACL lets the channel's Writers, a client or
 * an admin, ask) and, when the identity is an organization's admin, that organization's newest approval
 * (QueryApprovedChaincodeDefinition: only its own admin may ask its peer). Inputs are checked before anything is
 * opened or sent; the read runs in a session as the ledger reads do. A refusal names the identity, the ACL and who may
 * read (docs/chaincode-lifecycle.md, "Who may read what").
 */
import { ValidationError } from "../../../errors";
import { LifecycleError } from "../../../errors/ledger/lifecycle-error";
import { newIdentity } from "../../../ledger";
import { checkAdminIdentity } from "../../../ledger/lifecycle/admin-identity";
import { queryApprovedDefinition, queryCommittedDefinition } from "../../../ledger/lifecycle/lifecycle-reads";
import type { LedgerReadShape } from "../ledger-shapes";
import { readFrame } from "../ledger-reads";
import { CHAINCODE_NAME_PATTERN } from "../../../ledger/lifecycle/chaincode-definition";
import { checkedClientTlsKey } from "../session/client-tls";
import { withSession } from "../session/ledger-session";
import { nonEmpty, sessionFailures } from "../session/session-checks";
import { approvalView, textView } from "./chaincode-inputs";
import type { ChaincodeApprovalView, ChaincodeCommittedView } from "./chaincode-shapes";

/** ledger.getChaincodeDefinition's inputs: a ledger read's, and the chaincode's name. */
export interface GetChaincodeDefinitionInputs extends LedgerReadShape {
  /** The chaincode's name on the channel. */
  name: string;
}

/** What getChaincodeDefinition reads. */
export interface GetChaincodeDefinitionOutcome {
  /** The definition committed on the channel, with each organization's approval of it; absent when none is. */
  committed?: ChaincodeCommittedView;
  /**
   * The identity's organization's newest approval of the chaincode, read when the identity is that organization's
   * admin (Fabric lets only an organization's admin read its approvals); absent otherwise, or when it approved none.
   */
  approval?: ChaincodeApprovalView;
}

const KIND = "getChaincodeDefinition";

/** Whether the identity's certificate is its organization's admin's (its node OU). */
async function isAdmin(identity: { mspId: string; certificatePem: string }): Promise<boolean> {
  try {
    await checkAdminIdentity(newIdentity(identity.mspId, identity.certificatePem), KIND);
    return true;
  } catch (error) {
    if (error instanceof LifecycleError && error.problem === "NOT_AN_ADMIN") return false;
    throw error;
  }
}

/** ledger.getChaincodeDefinition: the committed definition with each organization's approval, and the admin's own. */
export async function readChaincodeDefinition(
  inputs: GetChaincodeDefinitionInputs,
): Promise<GetChaincodeDefinitionOutcome> {
  const failures = [...sessionFailures(inputs, "optional"), ...nonEmpty("name", inputs.name, "the chaincode's name")];
  if (failures.length === 0 && !CHAINCODE_NAME_PATTERN.test(inputs.name)) {
    failures.push({
      property: "name",
      reason: `'${inputs.name}' is not a chaincode name (letters and digits, single '-' or '_' between them)`,
    });
  }
  const tls = failures.length === 0 ? checkedClientTlsKey(inputs.gateway) : { key: undefined };
  if ("failures" in tls) failures.push(...tls.failures);
  if (failures.length > 0) throw new ValidationError({ subject: `ledger.${KIND}`, failures });
  const admin = await isAdmin(inputs.identity);
  return withSession(inputs, "create", readFrame(KIND), async ({ gateway }) => {
    const committed = await queryCommittedDefinition(gateway, inputs.channel, inputs.name);
    const approved = admin ? await queryApprovedDefinition(gateway, inputs.channel, inputs.name) : undefined;
    return {
      ...(committed === undefined
        ? {}
        : { committed: { ...textView(committed), approvals: { ...committed.approvals } } }),
      ...(approved === undefined ? {} : { approval: approvalView(approved) }),
    };
  });
}
