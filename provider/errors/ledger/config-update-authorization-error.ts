import { LedgerError } from "./ledger-error";
import type { UpdateAuthorization } from "./update-authorization-types";

function describe(a: UpdateAuthorization): string {
  const parts: string[] = [];
  if (a.stale.length > 0)
    parts.push(
      `it was computed against a configuration the channel no longer has (${a.stale
        .map(
          (s) =>
            `${s.element} read at version ${s.readVersion.toString()}, now ${s.currentVersion?.toString() ?? "absent"}`,
        )
        .join("; ")}): read the channel's configuration again and compute the update anew`,
    );
  if (a.badVersions.length > 0)
    parts.push(`its write set has versions the channel would refuse: ${a.badVersions.join("; ")}`);
  for (const c of a.checks.filter((check) => !check.evaluation.satisfied)) {
    const e = c.evaluation;
    const signed = e.satisfiedBy.length === 0 ? "none of the signers counts" : `signed by ${e.satisfiedBy.join(", ")}`;
    const missing = e.missing.length === 0 ? "" : `: ${String(e.needed)} more of ${e.missing.join(", ")} must sign`;
    parts.push(`${c.element} needs its mod_policy ${c.modPolicy} (${e.path}: ${e.rule}), ${signed}${missing}`);
  }
  for (const r of a.rejectedSigners) parts.push(`the channel would not count the signer of ${r.mspId}: ${r.reason}`);
  return parts.join("; ");
}

/**
 * A configuration update refused before it was sent: the signatures given do not satisfy the mod_policy of every
 * element it modifies (the message names each element, its policy and the organizations whose admins must still
 * sign), or it is stale (the channel changed since it was computed), or its versions are ones the orderer refuses.
 * `missingOrganizations` lists who must still sign; `authorization` has the whole verdict.
 */
export class ConfigUpdateAuthorizationError extends LedgerError {
  static override readonly kind: string = "ConfigUpdateAuthorizationError";
  readonly channelId: string;
  readonly missingOrganizations: readonly string[];
  readonly stale: boolean;
  readonly authorization: UpdateAuthorization;

  constructor(properties: Readonly<{ authorization: UpdateAuthorization }>) {
    const a = properties.authorization;
    super({
      message: `the configuration update of channel '${a.channelId}' was not sent: ${describe(a)}`,
    });
    this.channelId = a.channelId;
    this.missingOrganizations = a.missingOrganizations;
    this.stale = a.stale.length > 0;
    this.authorization = a;
  }
}
