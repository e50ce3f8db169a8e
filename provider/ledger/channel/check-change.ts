/**
 * The checks of a declared change that need nothing of the channel: run before its configuration is even read, so
 * bad input is named before any request — certificates that do not parse, a capability the release does not support,
 * a batch size or timeout the orderers refuse, a policy reference or anchor peer that is no such thing. What needs
 * the channel (an anchor peer of an organization it does not have, a partial batch size with its current values) is
 * checked when the change is applied, still before anything is sent.
 */
import type { BatchSizeConfig } from "./channel-config";
import { ChannelConfigError } from "../../errors/ledger/channel-config-error";
import { checkCapabilities } from "./capabilities";
import type { ApplyOptions, ChannelConfigChange } from "./change-declaration";
import { checkBatchSize, checkBatchTimeout, checkConsenters } from "./orderer-values";
import { checkAnchorPeers, checkOrganization } from "./organization-declaration";
import type { OrganizationDeclaration } from "./organization-declaration";

function checkOrganizations(
  declared: Readonly<Record<string, OrganizationDeclaration | null>> | undefined,
  kind: "application" | "orderer",
): void {
  for (const [mspId, org] of Object.entries(declared ?? {})) {
    const field = `${kind}.organizations[${mspId}]`;
    if (org === null) continue;
    if (org.mspId !== mspId)
      throw new ChannelConfigError({
        problem: "CONFIG",
        field: `${field}.mspId`,
        organization: mspId,
        message: `is '${org.mspId}' but the organization is declared under '${mspId}': use the same MSP id`,
      });
    checkOrganization(org, field);
  }
}

/** Each given batch size field alone (the whole size is checked with the channel's current values). */
function checkPartialBatchSize(size: Partial<BatchSizeConfig>): void {
  const full: BatchSizeConfig = {
    maxMessageCount: size.maxMessageCount ?? 1,
    absoluteMaxBytes: size.absoluteMaxBytes ?? Math.max(size.preferredMaxBytes ?? 1, 1),
    preferredMaxBytes: size.preferredMaxBytes ?? 1,
  };
  checkBatchSize(full, "orderer.batchSize");
}

/** Throws ChannelConfigError for a declared part Fabric would refuse whatever the channel holds. */
export function checkConfigChange(change: ChannelConfigChange, options: ApplyOptions = {}): void {
  const version = options.fabricVersion;
  if (change.channel?.capabilities !== undefined)
    checkCapabilities(change.channel.capabilities, "channel", "channel.capabilities", version);
  const orderer = change.orderer;
  if (orderer !== undefined) {
    if (orderer.capabilities !== undefined)
      checkCapabilities(orderer.capabilities, "orderer", "orderer.capabilities", version);
    if (orderer.batchTimeout !== undefined) checkBatchTimeout(orderer.batchTimeout, "orderer.batchTimeout");
    if (orderer.batchSize !== undefined) checkPartialBatchSize(orderer.batchSize);
    if (orderer.consenters !== undefined) checkConsenters(orderer.consenters);
    checkOrganizations(orderer.organizations, "orderer");
  }
  const application = change.application;
  if (application !== undefined) {
    if (application.capabilities !== undefined)
      checkCapabilities(application.capabilities, "application", "application.capabilities", version);
    checkOrganizations(application.organizations, "application");
    for (const [mspId, peers] of Object.entries(application.anchorPeers ?? {}))
      checkAnchorPeers(peers, `application.anchorPeers[${mspId}]`, mspId);
    for (const [resource, policyRef] of Object.entries(application.acls ?? {}))
      if (!policyRef.startsWith("/Channel/"))
        throw new ChannelConfigError({
          problem: "POLICY",
          field: `application.acls[${resource}]`,
          message: `'${policyRef}' is not a channel policy reference: write its full path, e.g. /Channel/Application/Readers`,
        });
  }
}
