/**
 * The `_lifecycle` system chaincode of a sandbox peer (Fabric core/chaincode/lifecycle scc.go and lifecycle.go), for
 * what the library, the demo and the examples use: InstallChaincode, QueryInstalledChaincodes,
 * ApproveChaincodeDefinitionForMyOrg, QueryApprovedChaincodeDefinition, CheckCommitReadiness,
 * CommitChaincodeDefinition, QueryChaincodeDefinition(s). Access control as Fabric's defaults: the peer's local Admins
 * for install, query installed, approve and query approved (so only the peer's own organization's admin), the
 * channel's Writers for the rest. Answers and errors are Fabric 2.5's, word for word where the tests compare them
 * (sandbox/fabric/README.md's parity table).
 *
 * An approval is simulated as Fabric simulates it — a read of the chaincode's committed sequence and hashed writes into
 * the organization's implicit collection — and recorded by the committer when it is VALID (lifecycle-store.ts); a
 * commit writes the definition into the `_lifecycle` namespace.
 */
import { createHash } from "node:crypto";
import type { ChaincodeResponse } from "./chaincode";
import { CHAINCODE_ERROR, CHAINCODE_OK } from "./chaincode";
import { readInstallPackage } from "./install-package";
import type { DefinitionArgs } from "./lifecycle-messages";
import {
  committedDefinition,
  committedNames,
  definitionFieldKey,
  implicitCollection,
  parametersOf,
  stateInt64,
  withDefaults,
  type LifecycleStore,
} from "./lifecycle-store";
import { policyDenied, WRITER_ROLES, type MemberIdentity } from "./msp";
import { TxSimulator } from "./simulator";
import { decode, encode, WireDecodeError } from "./wire";
import { definitionKey, LIFECYCLE_NAMESPACE, type WorldState } from "./world-state";

/** What a _lifecycle invocation runs with: the peer, the validated creator, the channel (empty: channelless). */
export interface LifecycleInvocation {
  readonly peerMsp: string;
  readonly creator: MemberIdentity;
  readonly channelId: string;
  /** The channel's organizations, for approvals. */
  readonly organizations: readonly string[];
  readonly state: WorldState;
  readonly store: LifecycleStore;
  readonly txId: string;
}

export interface LifecycleResult {
  readonly response: ChaincodeResponse;
  /** The serialized TxReadWriteSet of the simulation. */
  readonly results: Buffer;
}

/** The chaincode version Fabric reports for system chaincodes (scc.SysCCVersion). */
export const SYSTEM_CHAINCODE_VERSION = "syscc";

const LOCAL_ADMIN_FUNCTIONS = [
  "InstallChaincode",
  "QueryInstalledChaincodes",
  "ApproveChaincodeDefinitionForMyOrg",
  "QueryApprovedChaincodeDefinition",
];
const CHANNEL_FUNCTIONS = [
  "ApproveChaincodeDefinitionForMyOrg",
  "QueryApprovedChaincodeDefinition",
  "CheckCommitReadiness",
  "CommitChaincodeDefinition",
  "QueryChaincodeDefinition",
  "QueryChaincodeDefinitions",
];
const NAME = /^[a-zA-Z0-9]+([-_][a-zA-Z0-9]+)*$/;
const VERSION = /^[A-Za-z0-9_.+-]+$/;
const COLLECTION_NAME = /^[A-Za-z0-9-]+([A-Za-z0-9_-]+)*$/;
const SYSTEM_NAMES = ["cscc", "escc", "lscc", "qscc", "vscc"];

class Refusal extends Error {
  constructor(
    message: string,
    readonly status: number = CHAINCODE_ERROR,
  ) {
    super(message);
  }
}

const ok = (payload: Buffer): ChaincodeResponse => ({ status: CHAINCODE_OK, message: "", payload });

/** The ACL check of `fn` for `creator` on `peerMsp`'s peer; Fabric's refusal text, or undefined. */
function aclProblem(call: LifecycleInvocation, fn: string): string | undefined {
  const prefix = "Failed to authorize invocation due to failed ACL check: ";
  if (LOCAL_ADMIN_FUNCTIONS.includes(fn)) {
    if (call.creator.mspId !== call.peerMsp) {
      return `${prefix}Failed deserializing proposal creator during channelless check policy with policy [Admins]: [expected MSP ID ${call.peerMsp}, received ${call.creator.mspId}]`;
    }
    if (call.creator.role !== "admin") {
      return (
        `${prefix}Failed verifying that proposal's creator satisfies local MSP principal during channelless check ` +
        `policy with policy [Admins]: [The identity is not an admin under this MSP [${call.peerMsp}]: The identity ` +
        `does not contain OU [ADMIN], MSP: [${call.peerMsp}]]`
      );
    }
    return undefined;
  }
  return WRITER_ROLES.includes(call.creator.role) ? undefined : `${prefix}${policyDenied(call.channelId, "Writers")}`;
}

/** scc.go validateInput: the name, the version and the collections as a peer checks them. */
function validateInput(args: DefinitionArgs): void {
  const refuse = (reason: string): never => {
    throw new Refusal(`error validating chaincode definition: ${reason}`);
  };
  if (!NAME.test(args.name)) {
    refuse(
      `invalid chaincode name '${args.name}'. Names can only consist of alphanumerics, '_', and '-' and can only begin with alphanumerics`,
    );
  }
  if (SYSTEM_NAMES.includes(args.name))
    throw new Refusal(`chaincode name '${args.name}' is the name of a system chaincode`);
  if (!VERSION.test(args.version)) {
    throw new Refusal(
      `invalid chaincode version '${args.version}'. Versions can only consist of alphanumerics, '_', '-', '+', and '.'`,
    );
  }
  const seen = new Set<string>();
  for (const entry of args.collections?.config ?? []) {
    const c = entry.staticCollectionConfig;
    if (c === undefined || c === null) throw new Refusal("collection configuration is empty");
    if (!COLLECTION_NAME.test(c.name)) {
      throw new Refusal(
        `invalid collection name '${c.name}'. Names can only consist of alphanumerics, '_', and '-' and cannot begin with '_'`,
      );
    }
    if (seen.has(c.name))
      throw new Refusal(`collection-name: ${c.name} -- found duplicate in collection configuration`);
    seen.add(c.name);
    if (c.maximumPeerCount < c.requiredPeerCount) {
      throw new Refusal(
        `collection-name: ${c.name} -- maximum peer count (${c.maximumPeerCount}) cannot be less than the required peer count (${c.requiredPeerCount})`,
      );
    }
  }
}

/** ChaincodeParameters.Equal's first difference, in Fabric's words, or undefined. */
function parametersDiffer(expected: DefinitionArgs, passed: DefinitionArgs): string | undefined {
  const a = withDefaults(expected);
  const b = withDefaults(passed);
  if (a.version !== b.version) return `expected Version '${a.version}' does not match passed Version '${b.version}'`;
  if (a.endorsementPlugin !== b.endorsementPlugin)
    return `expected EndorsementPlugin '${a.endorsementPlugin}' does not match passed EndorsementPlugin '${b.endorsementPlugin}'`;
  if (a.initRequired !== b.initRequired)
    return `expected InitRequired '${String(a.initRequired)}' does not match passed InitRequired '${String(b.initRequired)}'`;
  if (a.validationPlugin !== b.validationPlugin)
    return `expected ValidationPlugin '${a.validationPlugin}' does not match passed ValidationPlugin '${b.validationPlugin}'`;
  if (!a.validationParameter.equals(b.validationParameter))
    return `expected ValidationParameter '${a.validationParameter.toString("hex")}' does not match passed ValidationParameter '${b.validationParameter.toString("hex")}'`;
  if (!parametersOf(a).equals(parametersOf(b))) return "Collections do not match";
  return undefined;
}

function currentSequence(call: LifecycleInvocation, simulator: TxSimulator, name: string): bigint {
  simulator.getState(definitionKey(name));
  return committedDefinition(call.state, name)?.sequence ?? 0n;
}

function approve(
  call: LifecycleInvocation,
  input: Buffer,
  simulator: TxSimulator,
): { hashedWrites: [string, Buffer][] } {
  const args = decode("lifecycle.ApproveChaincodeDefinitionForMyOrgArgs", input);
  validateInput(args);
  const current = currentSequence(call, simulator, args.name);
  const requested = args.sequence;
  if (current === requested && requested === 0n)
    throw new Refusal("requested sequence is 0, but first definable sequence number is 1");
  if (requested < current)
    throw new Refusal(
      `currently defined sequence ${current.toString()} is larger than requested sequence ${requested.toString()}`,
    );
  if (requested > current + 1n) {
    throw new Refusal(
      `requested sequence ${requested.toString()} is larger than the next available sequence number ${(current + 1n).toString()}`,
    );
  }
  const packageId = args.source?.localPackage?.packageId ?? "";
  if (requested === current) {
    const committed = committedDefinition(call.state, args.name);
    const differs = committed === undefined ? undefined : parametersDiffer(committed.args, args);
    if (differs !== undefined) {
      throw new Refusal(
        `attempted to redefine the current committed sequence (${current.toString()}) for namespace ${args.name} with different parameters: ${differs}`,
      );
    }
  } else {
    const earlier = call.store.approval(call.peerMsp, args.name, requested);
    if (
      earlier !== undefined &&
      parametersDiffer(earlier.args, args) === undefined &&
      earlier.packageId === packageId
    ) {
      throw new Refusal(
        `attempted to redefine uncommitted sequence (${requested.toString()}) for namespace ${args.name} with unchanged content`,
      );
    }
  }
  const privateName = `${args.name}#${requested.toString()}`;
  return {
    hashedWrites: [
      [`namespaces/fields/${privateName}/Parameters`, parametersOf(args)],
      [`chaincode-sources/fields/${privateName}/PackageID`, Buffer.from(packageId, "utf8")],
    ],
  };
}

function approvalsOf(call: LifecycleInvocation, args: DefinitionArgs): { key: string; value: boolean }[] {
  return [...call.organizations].sort().map((key) => ({ key, value: call.store.approved(key, args.name, args) }));
}

function readiness(
  call: LifecycleInvocation,
  args: DefinitionArgs,
  simulator: TxSimulator,
): { key: string; value: boolean }[] {
  const current = currentSequence(call, simulator, args.name);
  if (args.sequence !== current + 1n) {
    throw new Refusal(
      `requested sequence is ${args.sequence.toString()}, but new definition must be sequence ${(current + 1n).toString()}`,
    );
  }
  return approvalsOf(call, args);
}

function queryApproved(call: LifecycleInvocation, input: Buffer, simulator: TxSimulator): Buffer {
  const { name, sequence } = decode("lifecycle.QueryApprovedChaincodeDefinitionArgs", input);
  let requested = sequence;
  if (requested === 0n) {
    const current = currentSequence(call, simulator, name);
    requested = call.store.approval(call.peerMsp, name, current + 1n) === undefined ? current : current + 1n;
  }
  const approval = call.store.approval(call.peerMsp, name, requested);
  if (approval === undefined) {
    throw new Refusal(
      `could not fetch approved chaincode definition (name: '${name}', sequence: '${sequence.toString()}') on channel '${call.channelId}'`,
    );
  }
  const filled = withDefaults(approval.args);
  return encode("lifecycle.QueryApprovedChaincodeDefinitionResult", {
    ...filled,
    sequence: requested,
    source: approval.packageId === "" ? { unavailable: {} } : { localPackage: { packageId: approval.packageId } },
  });
}

function queryInstalled(call: LifecycleInvocation, channel: string): Buffer {
  const references = (packageId: string) => {
    const chaincodes = committedNames(call.state)
      .map((name) => ({ name, definition: committedDefinition(call.state, name) }))
      .filter(({ name, definition }) =>
        definition === undefined
          ? false
          : call.store.approval(call.peerMsp, name, definition.sequence)?.packageId === packageId,
      )
      .map(({ name, definition }) => ({ name, version: definition?.args.version ?? "" }));
    return chaincodes.length === 0 ? [] : [{ key: channel, value: { chaincodes } }];
  };
  return encode("lifecycle.QueryInstalledChaincodesResult", {
    installedChaincodes: call.store
      .installedOn(call.peerMsp)
      .map((p) => ({ packageId: p.packageId, label: p.label, references: references(p.packageId) })),
  });
}

/** Runs `fn`; Fabric's response (status 200 with the result, 404 for an undefined namespace, 500 otherwise). */
export function invokeLifecycle(call: LifecycleInvocation, args: readonly Buffer[], channel: string): LifecycleResult {
  const simulator = new TxSimulator(call.state, LIFECYCLE_NAMESPACE, call.txId, channel);
  const hashed: [string, Buffer][] = [];
  const fail = (message: string, status = CHAINCODE_ERROR): LifecycleResult => ({
    response: { status, message, payload: Buffer.alloc(0) },
    results: simulator.results(),
  });
  if (args.length === 0) return fail("lifecycle scc must be invoked with arguments");
  if (args.length !== 2)
    return fail(`lifecycle scc operations require exactly two arguments but received ${String(args.length)}`);
  const fn = args[0]?.toString("utf8") ?? "";
  const input = args[1] ?? Buffer.alloc(0);
  const acl = aclProblem(call, fn);
  if (acl !== undefined) return fail(acl);
  const backing = (message: string) => `failed to invoke backing implementation of '${fn}': ${message}`;
  try {
    if (call.channelId === "" && CHANNEL_FUNCTIONS.includes(fn))
      throw new Refusal(`no application config for channel ''`);
    let payload: Buffer;
    switch (fn) {
      case "InstallChaincode": {
        const bytes = decode("lifecycle.InstallChaincodeArgs", input).chaincodeInstallPackage;
        let pkg;
        try {
          pkg = readInstallPackage(bytes);
        } catch (error) {
          throw new Refusal(
            `could not parse as a chaincode install package: ${error instanceof Error ? error.message : String(error)}`,
          );
        }
        if (call.store.isInstalled(call.peerMsp, pkg.packageId))
          throw new Refusal(`chaincode already successfully installed (package ID '${pkg.packageId}')`);
        call.store.install(call.peerMsp, pkg);
        payload = encode("lifecycle.InstallChaincodeResult", { packageId: pkg.packageId, label: pkg.label });
        break;
      }
      case "QueryInstalledChaincodes":
        payload = queryInstalled(call, channel);
        break;
      case "ApproveChaincodeDefinitionForMyOrg":
        hashed.push(...approve(call, input, simulator).hashedWrites);
        payload = encode("lifecycle.ApproveChaincodeDefinitionForMyOrgResult", {});
        break;
      case "QueryApprovedChaincodeDefinition":
        payload = queryApproved(call, input, simulator);
        break;
      case "CheckCommitReadiness":
        payload = encode("lifecycle.CheckCommitReadinessResult", {
          approvals: readiness(call, decode("lifecycle.CheckCommitReadinessArgs", input), simulator),
        });
        break;
      case "CommitChaincodeDefinition": {
        const definition = decode("lifecycle.CommitChaincodeDefinitionArgs", input);
        validateInput(definition);
        const approvals = readiness(call, definition, simulator);
        if (approvals.find((a) => a.key === call.peerMsp)?.value !== true)
          throw new Refusal(`chaincode definition not agreed to by this org (${call.peerMsp})`);
        simulator.putState(definitionKey(definition.name), stateInt64(definition.sequence));
        simulator.putState(
          definitionFieldKey(definition.name),
          encode("lifecycle.CommitChaincodeDefinitionArgs", withDefaults(definition)),
        );
        payload = encode("lifecycle.CommitChaincodeDefinitionResult", {});
        break;
      }
      case "QueryChaincodeDefinition": {
        const { name } = decode("lifecycle.QueryChaincodeDefinitionArgs", input);
        simulator.getState(definitionKey(name));
        const committed = committedDefinition(call.state, name);
        if (committed === undefined) return fail(`namespace ${name} is not defined`, 404);
        payload = encode("lifecycle.QueryChaincodeDefinitionResult", {
          ...committed.args,
          approvals: approvalsOf(call, committed.args),
        });
        break;
      }
      case "QueryChaincodeDefinitions":
        payload = encode("lifecycle.QueryChaincodeDefinitionsResult", {
          chaincodeDefinitions: committedNames(call.state)
            .map((name) => committedDefinition(call.state, name)?.args)
            .filter((d): d is DefinitionArgs => d !== undefined),
        });
        break;
      default:
        throw new Refusal(`receiver *lifecycle.Invocation.${fn} does not exist`);
    }
    return { response: ok(payload), results: withHashedWrites(simulator.results(), call.peerMsp, hashed) };
  } catch (error) {
    if (error instanceof WireDecodeError)
      return fail(backing(`failed to decode input arg to function ${fn}: ${error.message}`));
    if (error instanceof Refusal) return fail(backing(error.message), error.status);
    throw error;
  }
}

/** The simulation's TxReadWriteSet with the approval's hashed writes into the organization's implicit collection. */
function withHashedWrites(results: Buffer, mspId: string, writes: readonly [string, Buffer][]): Buffer {
  if (writes.length === 0) return results;
  const sha256 = (b: Buffer) => createHash("sha256").update(b).digest();
  const txRwSet = decode("rwset.TxReadWriteSet", results);
  const hashedRwset = encode("kvrwset.HashedRWSet", {
    hashedWrites: writes.map(([key, value]) => ({
      keyHash: sha256(Buffer.from(key, "utf8")),
      valueHash: sha256(value),
    })),
  });
  const nsRwset = txRwSet.nsRwset.map((ns) =>
    ns.namespace === LIFECYCLE_NAMESPACE
      ? {
          ...ns,
          collectionHashedRwset: [
            { collectionName: implicitCollection(mspId), hashedRwset, pvtRwsetHash: Buffer.alloc(0) },
          ],
        }
      : ns,
  );
  return encode("rwset.TxReadWriteSet", { dataModel: txRwSet.dataModel, nsRwset });
}
