/**
 * Which chaincodes the channel has and what endorses them: the built-in asset chaincode (defined at genesis, its
 * policy the sandbox's rule, which is also /Channel/Application/Endorsement), the system chaincodes qscc and
 * _lifecycle, and every chaincode a `_lifecycle` commit defined (lifecycle-store.ts), run by a peer whose organization
 * approved the committed definition with a package installed on it — the sandbox's assets contract under the
 * definition's name and version, whatever the package holds.
 */
import { assetChaincode, type Chaincode } from "./chaincode";
import type { ChannelConfig } from "./channel-config";
import { requiredOrganizationCount, type EndorsementPolicy } from "./endorsement-policy";
import { committedDefinition, LIFECYCLE_SCC, type CommittedDefinition } from "./lifecycle-store";
import { QSCC_NAME } from "./qscc";
import { satisfiesSignaturePolicy, type PolicyIdentity } from "./signature-policy-check";
import { tryDecode } from "./wire";
import type { WorldState } from "./world-state";

/** What endorses a namespace: a check of the endorsers and its description for messages. */
export interface EndorsementCheck {
  readonly description: string;
  satisfiedBy(endorsers: readonly PolicyIdentity[]): boolean;
}

/** A rule over the organizations' peers (the built-in chaincode's policy, the channel's implicit-meta policies). */
export function ruleCheck(policy: EndorsementPolicy): EndorsementCheck {
  return {
    description: `${policy.rule.toUpperCase()} of [${policy.organizations.map((o) => `${o}.peer`).join(", ")}]`,
    satisfiedBy: (endorsers) =>
      policy.organizations.filter((o) => endorsers.some((e) => e.mspId === o && e.role === "peer")).length >=
      requiredOrganizationCount(policy),
  };
}

/** /Channel/Application/LifecycleEndorsement, as the sandbox's channel configuration declares it. */
export function lifecycleEndorsement(config: ChannelConfig): EndorsementCheck {
  return ruleCheck({ rule: "majority", organizations: config.policy.organizations });
}

/** The check of a definition's validation parameter (a serialized ApplicationPolicy). */
export function applicationPolicyCheck(config: ChannelConfig, validationParameter: Buffer): EndorsementCheck {
  const policy = tryDecode("protos.ApplicationPolicy", validationParameter);
  const reference = policy?.channelConfigPolicyReference;
  if (reference === "/Channel/Application/Endorsement") return ruleCheck(config.policy);
  if (reference === "/Channel/Application/LifecycleEndorsement") return lifecycleEndorsement(config);
  const envelope = policy?.signaturePolicy;
  if (envelope !== undefined && envelope !== null) {
    return {
      description: "the definition's signature policy",
      satisfiedBy: (e) => satisfiesSignaturePolicy(envelope, e),
    };
  }
  return { description: `an unknown policy ${reference ?? "(none)"}`, satisfiedBy: () => false };
}

/** A chaincode a `_lifecycle` commit defined, as the channel has it now. */
export function lifecycleDefinition(
  config: ChannelConfig,
  state: WorldState,
  name: string,
): CommittedDefinition | undefined {
  if (name === config.chaincode.name || name === QSCC_NAME || name === LIFECYCLE_SCC) return undefined;
  return committedDefinition(state, name);
}

/** Whether the channel has chaincode `name` (so a gateway knows its endorsement policy). */
export function isDefined(config: ChannelConfig, state: WorldState, name: string): boolean {
  return (
    name === config.chaincode.name ||
    name === QSCC_NAME ||
    name === LIFECYCLE_SCC ||
    lifecycleDefinition(config, state, name) !== undefined
  );
}

/**
 * Why `mspId`'s peer cannot run a defined chaincode (Fabric's ChaincodeEndorsementInfo words), or undefined when it
 * can: its organization approved the committed definition, naming a package installed on the peer.
 */
export function notRunnableBecause(
  config: ChannelConfig,
  state: WorldState,
  mspId: string,
  name: string,
): string | undefined {
  const definition = lifecycleDefinition(config, state, name);
  if (definition === undefined) return undefined;
  if (!config.lifecycle.approved(mspId, name, definition.args)) {
    return `chaincode definition for '${name}' at sequence ${definition.sequence.toString()} on channel '${config.channel}' has not yet been approved by this org`;
  }
  const packageId = config.lifecycle.approval(mspId, name, definition.sequence)?.packageId ?? "";
  if (!config.lifecycle.isInstalled(mspId, packageId)) {
    return `chaincode definition for '${name}' exists, but chaincode is not installed`;
  }
  return undefined;
}

/** The chaincode `mspId`'s peer runs for `name` (the built-in or a defined one), or undefined. */
export function runnableChaincode(
  config: ChannelConfig,
  state: WorldState,
  mspId: string,
  name: string,
): Chaincode | undefined {
  if (name === config.chaincode.name) return config.chaincode;
  const definition = lifecycleDefinition(config, state, name);
  if (definition === undefined || notRunnableBecause(config, state, mspId, name) !== undefined) return undefined;
  return assetChaincode(name, definition.args.version);
}

/** The endorsement policy of an application namespace, or undefined when the channel does not define it. */
export function namespacePolicy(
  config: ChannelConfig,
  state: WorldState,
  namespace: string,
): EndorsementCheck | undefined {
  if (namespace === config.chaincode.name) return ruleCheck(config.policy);
  const definition = lifecycleDefinition(config, state, namespace);
  return definition === undefined ? undefined : applicationPolicyCheck(config, definition.args.validationParameter);
}
