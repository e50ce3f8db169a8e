/**
 * What the sandbox's _lifecycle keeps, as Fabric keeps it:
 *
 * - each peer's installed packages (a peer's own store, outside the ledger: gone on reset(), not in a snapshot);
 * - each organization's approvals (Fabric: the organization's implicit private collection): recorded by the committer
 *   from a VALID ApproveChaincodeDefinitionForMyOrg transaction — its organization from the implicit collection it
 *   writes, the definition from its proposal — so replaying the blocks rebuilds them;
 * - the committed definitions, in the world state's `_lifecycle` namespace: `namespaces/fields/<name>/Sequence`
 *   (world-state.ts definitionKey: a StateData{Int64}, as Fabric stores it; every endorsement of the chaincode reads
 *   it) and, a sandbox simplification,
 *   `namespaces/fields/<name>/Definition` (the CommitChaincodeDefinitionArgs with Fabric's defaults filled in).
 *
 * Definitions compare as Fabric compares them (ChaincodeParameters.Equal, IsSerialized): every field but the name,
 * the sequence and the package, with the defaults filled in: plugins escc and vscc, the endorsement policy
 * /Channel/Application/Endorsement.
 */
import { createHash } from "node:crypto";
import { DEFAULT_CHAINCODE_VERSION } from "./chaincode";
import type { InstallPackage } from "./install-package";
import type { DefinitionArgs } from "./lifecycle-messages";
import { encode, tryDecode } from "./wire";
import { definitionKey, LIFECYCLE_NAMESPACE, type StateVersion, type StateWrite, type WorldState } from "./world-state";

export const LIFECYCLE_SCC = LIFECYCLE_NAMESPACE;
/** The channel's default endorsement policy, which a definition without one gets. */
export const DEFAULT_POLICY_REFERENCE = "/Channel/Application/Endorsement";

/** The implicit collection of an organization (Fabric implicitcollection.NameForOrg). */
export function implicitCollection(mspId: string): string {
  return `_implicit_org_${mspId}`;
}

/** The MSP id of an implicit collection's name, or undefined. */
export function organizationOfCollection(collection: string): string | undefined {
  return collection.startsWith("_implicit_org_") ? collection.slice("_implicit_org_".length) : undefined;
}

export const definitionFieldKey = (name: string): string => `namespaces/fields/${name}/Definition`;

/** StateData{Int64: n}: field 1, varint. */
export function stateInt64(n: bigint): Buffer {
  const bytes = [0x08];
  let v = n;
  do {
    const low = Number(v & 0x7fn);
    v >>= 7n;
    bytes.push(v > 0n ? low | 0x80 : low);
  } while (v > 0n);
  return Buffer.from(bytes);
}

/** The Int64 of a StateData, 0 for none. */
export function readStateInt64(bytes: Buffer | undefined): bigint {
  if (bytes === undefined || bytes[0] !== 0x08) return 0n;
  let value = 0n;
  let shift = 0n;
  for (const byte of bytes.subarray(1)) {
    value |= BigInt(byte & 0x7f) << shift;
    shift += 7n;
    if ((byte & 0x80) === 0) break;
  }
  return value;
}

/** The definition's arguments with Fabric's defaults filled in (SetChaincodeDefinitionDefaults). */
export function withDefaults(args: DefinitionArgs): DefinitionArgs {
  return {
    ...args,
    endorsementPlugin: args.endorsementPlugin === "" ? "escc" : args.endorsementPlugin,
    validationPlugin: args.validationPlugin === "" ? "vscc" : args.validationPlugin,
    validationParameter:
      args.validationParameter.length === 0
        ? encode("protos.ApplicationPolicy", { channelConfigPolicyReference: DEFAULT_POLICY_REFERENCE })
        : args.validationParameter,
    collections: (args.collections?.config.length ?? 0) === 0 ? null : args.collections,
  };
}

/** The bytes two definitions' parameters compare by: all but name and sequence, defaults filled in. */
export function parametersOf(args: DefinitionArgs): Buffer {
  return encode("lifecycle.CommitChaincodeDefinitionArgs", { ...withDefaults(args), name: "", sequence: 0n });
}

/** A definition committed on the channel. */
export interface CommittedDefinition {
  readonly sequence: bigint;
  readonly args: DefinitionArgs;
  /** The version of the Sequence key (what endorsements read). */
  readonly version: StateVersion;
}

export function committedDefinition(state: WorldState, name: string): CommittedDefinition | undefined {
  const sequence = state.get(LIFECYCLE_NAMESPACE, definitionKey(name));
  const definition = state.get(LIFECYCLE_NAMESPACE, definitionFieldKey(name));
  if (sequence === undefined || definition === undefined) return undefined;
  const args = tryDecode("lifecycle.CommitChaincodeDefinitionArgs", definition.value);
  if (args === undefined) return undefined;
  return { sequence: readStateInt64(sequence.value), args, version: sequence.version };
}

/** The names of every committed definition (the namespace's Definition keys). */
export function committedNames(state: WorldState): string[] {
  return state
    .range(LIFECYCLE_NAMESPACE, "namespaces/fields/", "namespaces/fields0")
    .map(([key]) => /^namespaces\/fields\/([^/]+)\/Definition$/.exec(key)?.[1])
    .filter((n): n is string => n !== undefined);
}

/** The genesis definition of the built-in chaincode: sequence 1, version 1.0, the channel's default policy. */
export function genesisDefinitionArgs(name: string): DefinitionArgs {
  return withDefaults({
    sequence: 1n,
    name,
    version: DEFAULT_CHAINCODE_VERSION,
    endorsementPlugin: "",
    validationPlugin: "",
    validationParameter: Buffer.alloc(0),
    collections: null,
    initRequired: false,
  });
}

/** The world-state writes of the built-in chaincode's genesis definition. */
export function genesisDefinitionWrites(name: string): StateWrite[] {
  return [
    { key: definitionKey(name), isDelete: false, value: stateInt64(1n) },
    {
      key: definitionFieldKey(name),
      isDelete: false,
      value: encode("lifecycle.CommitChaincodeDefinitionArgs", genesisDefinitionArgs(name)),
    },
  ];
}

/** One organization's approval of one sequence of a chaincode. */
export interface Approval {
  readonly args: DefinitionArgs;
  readonly packageId: string;
}

export class LifecycleStore {
  private readonly installed = new Map<string, Map<string, InstallPackage>>();
  private readonly approvals = new Map<string, Map<string, Approval>>();

  install(mspId: string, pkg: InstallPackage): void {
    const peer = this.installed.get(mspId) ?? new Map<string, InstallPackage>();
    peer.set(pkg.packageId, pkg);
    this.installed.set(mspId, peer);
  }

  installedOn(mspId: string): InstallPackage[] {
    return [...(this.installed.get(mspId)?.values() ?? [])];
  }

  isInstalled(mspId: string, packageId: string): boolean {
    return this.installed.get(mspId)?.has(packageId) ?? false;
  }

  approve(mspId: string, name: string, sequence: bigint, approval: Approval): void {
    const org = this.approvals.get(mspId) ?? new Map<string, Approval>();
    org.set(`${name}#${sequence.toString()}`, approval);
    this.approvals.set(mspId, org);
  }

  approval(mspId: string, name: string, sequence: bigint): Approval | undefined {
    return this.approvals.get(mspId)?.get(`${name}#${sequence.toString()}`);
  }

  /** Whether `mspId` approved exactly these parameters for `name` at `args.sequence`. */
  approved(mspId: string, name: string, args: DefinitionArgs): boolean {
    const approval = this.approval(mspId, name, args.sequence);
    return approval !== undefined && parametersOf(approval.args).equals(parametersOf(args));
  }

  /** Forgets everything (the sandbox's reset: a new channel, new peers). */
  clear(): void {
    this.installed.clear();
    this.approvals.clear();
  }
}

/**
 * The built-in chaincode as every organization had approved and installed it at genesis: a package id of its own
 * (`<name>_1.0:<hex>`, no package behind it) on every peer, each organization's approval of its definition.
 */
export function seedBuiltinChaincode(store: LifecycleStore, organizations: readonly string[], name: string): void {
  const label = `${name}_${DEFAULT_CHAINCODE_VERSION}`;
  const packageId = `${label}:${createHash("sha256").update(`sandbox built-in ${name}`).digest("hex")}`;
  for (const mspId of organizations) {
    store.install(mspId, { label, packageId, type: "ccaas" });
    store.approve(mspId, name, 1n, { args: genesisDefinitionArgs(name), packageId });
  }
}
