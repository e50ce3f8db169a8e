/**
 * The sandbox's world behind one interface. Handlers read and change it only through `SandboxState`; the in-memory
 * implementation keeps the seed, the live records, the compute and IAM operations and the audit log.
 *
 * Time is lazy: nothing runs in the background. Every entry point first calls `settle(now)`, which applies the
 * moves whose operations have finished successfully by `now`, in completion order, and audits them.
 */
import { randomBytes } from "node:crypto";
import type { AuditEntry, MoveOutcome, SeedKmsKeyVersion } from "./types";
import type {
  InventorySourceGroupOwner,
  SandboxSeed,
  SeedDeployment,
  SeedIamOperation,
  SeedWorkforcePool,
} from "./seed-types";
import type { Creative, SubscriptionV1Beta } from "./wire";

export interface FirewallPolicyRecord {
  readonly id: string;
  readonly shortName: string;
  readonly description?: string;
  readonly creationTimestamp: string;
  parent: string;
  /** base64; changes whenever the policy changes. */
  fingerprint: string;
}

export interface MoveOperationRecord {
  readonly id: string;
  readonly name: string;
  readonly policyId: string;
  readonly to: string;
  readonly requestId?: string;
  readonly principal: string;
  readonly insertMs: number;
  readonly durationMs: number;
  readonly outcome: MoveOutcome;
  /** True once its effect (if any) has been applied. */
  settled: boolean;
}

export interface IamOperationRecord {
  readonly name: string;
  readonly verb: string;
  readonly target: string;
  readonly startMs: number;
  readonly durationMs: number;
  readonly outcome: SeedIamOperation["outcome"];
}

export interface InventorySourceGroupRecord {
  readonly inventorySourceGroupId: string;
  readonly displayName: string;
  readonly owner: InventorySourceGroupOwner;
  readonly sharedWithAdvertiserIds: readonly string[];
}

export type NewAuditEntry = Omit<AuditEntry, "seq">;

export interface SandboxState {
  /** Applies finished moves up to `nowMs`. */
  settle(nowMs: number): void;
  organizationExists(id: string): boolean;
  folderExists(id: string): boolean;
  firewallPolicy(id: string): FirewallPolicyRecord | undefined;
  /** Changes a policy's parent and fingerprint (no audit: the caller audits). */
  setPolicyParent(id: string, parent: string): void;
  moveOperationByNameOrId(nameOrId: string): MoveOperationRecord | undefined;
  moveOperationByRequestId(requestId: string): MoveOperationRecord | undefined;
  addMoveOperation(record: MoveOperationRecord): void;
  /** Forgets operations that ended more than `retentionMs` before `nowMs`. */
  expireOperations(nowMs: number, retentionMs: number): void;
  workforcePool(name: string): SeedWorkforcePool | undefined;
  iamOperation(name: string): IamOperationRecord | undefined;
  addIamOperation(record: IamOperationRecord): void;
  deployment(project: string, name: string): SeedDeployment | undefined;
  subscription(name: string): SubscriptionV1Beta | undefined;
  partnerExists(partnerId: string): boolean;
  /** The partner of an advertiser, or undefined when the advertiser does not exist. */
  advertiserPartner(advertiserId: string): string | undefined;
  inventorySourceGroup(id: string): InventorySourceGroupRecord | undefined;
  putInventorySourceGroup(record: InventorySourceGroupRecord): void;
  deleteInventorySourceGroup(id: string): void;
  creative(advertiserId: string, creativeId: string): Creative | undefined;
  serviceAccountExists(email: string): boolean;
  kmsKeyVersion(name: string): SeedKmsKeyVersion | undefined;
  putKmsKeyVersion(record: SeedKmsKeyVersion): void;
  hasPermission(principal: string, permission: string, resource: string): boolean;
  readonly seedData: SandboxSeed;
  record(entry: NewAuditEntry): AuditEntry;
  audit(): readonly AuditEntry[];
}

export function randomFingerprint(): string {
  return randomBytes(8).toString("base64");
}

/** A random uint64 id as a decimal string, 19 digits. */
export function randomUint64Id(): string {
  const value = randomBytes(8).readBigUInt64BE() % 9_000_000_000_000_000_000n;
  return (value + 1_000_000_000_000_000_000n).toString();
}

/**
 * A grant's principal matches the same principal, and a `principalSet://<pool>/*` grant matches every
 * `principal://<pool>/subject/<subject>` of that pool.
 */
export function principalMatches(granted: string, principal: string): boolean {
  if (granted === principal) return true;
  if (!granted.startsWith("principalSet://") || !granted.endsWith("/*")) return false;
  const pool = granted.slice("principalSet://".length, -1);
  return principal.startsWith(`principal://${pool}subject/`);
}

function endMs(op: { readonly insertMs?: number; readonly startMs?: number; readonly durationMs: number }): number {
  return (op.insertMs ?? op.startMs ?? 0) + op.durationMs;
}

/** The in-memory state, loaded from a seed at a given clock time. */
export class MemoryState implements SandboxState {
  readonly seedData: SandboxSeed;
  private readonly policies = new Map<string, FirewallPolicyRecord>();
  private readonly moves = new Map<string, MoveOperationRecord>();
  private readonly movesByRequestId = new Map<string, MoveOperationRecord>();
  private readonly iamOperations = new Map<string, IamOperationRecord>();
  private readonly groups = new Map<string, InventorySourceGroupRecord>();
  private readonly kmsKeyVersions = new Map<string, SeedKmsKeyVersion>();
  private readonly auditLog: AuditEntry[] = [];

  constructor(seed: SandboxSeed, loadedAtMs: number) {
    this.seedData = structuredClone(seed);
    for (const p of this.seedData.firewallPolicies) {
      this.policies.set(p.id, { ...p, fingerprint: randomFingerprint() });
    }
    for (const op of this.seedData.iamOperations) {
      this.iamOperations.set(op.name, {
        name: op.name,
        verb: op.verb,
        target: op.target,
        startMs: loadedAtMs - (op.startedAgoMs ?? 0),
        durationMs: op.durationMs,
        outcome: op.outcome,
      });
    }
    for (const k of this.seedData.kmsKeyVersions ?? []) this.kmsKeyVersions.set(k.name, k);
    for (const g of this.seedData.inventorySourceGroups) {
      this.groups.set(g.inventorySourceGroupId, {
        inventorySourceGroupId: g.inventorySourceGroupId,
        displayName: g.displayName,
        owner: g.owner,
        sharedWithAdvertiserIds: g.sharedWithAdvertiserIds ?? [],
      });
    }
  }

  settle(nowMs: number): void {
    const due = [...this.moves.values()]
      .filter((op) => !op.settled && endMs(op) <= nowMs)
      .sort((a, b) => endMs(a) - endMs(b));
    for (const op of due) {
      op.settled = true;
      if (op.outcome.kind !== "success") continue;
      const policy = this.policies.get(op.policyId);
      if (policy === undefined) continue;
      const from = policy.parent;
      this.setPolicyParent(op.policyId, op.to);
      this.record({
        timeMs: endMs(op),
        source: "api",
        kind: "firewallPolicies.move",
        target: `firewallPolicies/${op.policyId}`,
        details: {
          from,
          to: op.to,
          ...(op.requestId === undefined ? {} : { requestId: op.requestId }),
          principal: op.principal,
          operation: op.name,
        },
      });
    }
  }

  organizationExists(id: string): boolean {
    return this.seedData.organizations.some((o) => o.id === id);
  }

  folderExists(id: string): boolean {
    return this.seedData.folders.some((f) => f.id === id);
  }

  firewallPolicy(id: string): FirewallPolicyRecord | undefined {
    return this.policies.get(id);
  }

  setPolicyParent(id: string, parent: string): void {
    const policy = this.policies.get(id);
    if (policy === undefined) return;
    policy.parent = parent;
    policy.fingerprint = randomFingerprint();
  }

  moveOperationByNameOrId(nameOrId: string): MoveOperationRecord | undefined {
    const byName = this.moves.get(nameOrId);
    if (byName !== undefined) return byName;
    for (const op of this.moves.values()) if (op.id === nameOrId) return op;
    return undefined;
  }

  moveOperationByRequestId(requestId: string): MoveOperationRecord | undefined {
    return this.movesByRequestId.get(requestId.toLowerCase());
  }

  addMoveOperation(record: MoveOperationRecord): void {
    this.moves.set(record.name, record);
    if (record.requestId !== undefined) this.movesByRequestId.set(record.requestId.toLowerCase(), record);
  }

  expireOperations(nowMs: number, retentionMs: number): void {
    for (const op of [...this.moves.values()]) {
      if (op.settled && endMs(op) + retentionMs < nowMs) {
        this.moves.delete(op.name);
        if (op.requestId !== undefined) this.movesByRequestId.delete(op.requestId.toLowerCase());
      }
    }
    for (const op of [...this.iamOperations.values()]) {
      if (endMs(op) + retentionMs < nowMs) this.iamOperations.delete(op.name);
    }
  }

  workforcePool(name: string): SeedWorkforcePool | undefined {
    return this.seedData.workforcePools.find((p) => p.name === name);
  }

  iamOperation(name: string): IamOperationRecord | undefined {
    return this.iamOperations.get(name);
  }

  addIamOperation(record: IamOperationRecord): void {
    this.iamOperations.set(record.name, record);
  }

  deployment(project: string, name: string): SeedDeployment | undefined {
    return this.seedData.deployments.find((d) => d.project === project && d.name === name);
  }

  subscription(name: string): SubscriptionV1Beta | undefined {
    return this.seedData.subscriptions.find((s) => s.name === name);
  }

  partnerExists(partnerId: string): boolean {
    return this.seedData.partners.some((p) => p.partnerId === partnerId);
  }

  advertiserPartner(advertiserId: string): string | undefined {
    return this.seedData.advertisers.find((a) => a.advertiserId === advertiserId)?.partnerId;
  }

  inventorySourceGroup(id: string): InventorySourceGroupRecord | undefined {
    return this.groups.get(id);
  }

  putInventorySourceGroup(record: InventorySourceGroupRecord): void {
    this.groups.set(record.inventorySourceGroupId, record);
  }

  deleteInventorySourceGroup(id: string): void {
    this.groups.delete(id);
  }

  creative(advertiserId: string, creativeId: string): Creative | undefined {
    return this.seedData.creatives.find((c) => c.advertiserId === advertiserId && c.creativeId === creativeId);
  }

  serviceAccountExists(email: string): boolean {
    return this.seedData.serviceAccounts.some((sa) => sa.email === email);
  }

  kmsKeyVersion(name: string): SeedKmsKeyVersion | undefined {
    return this.kmsKeyVersions.get(name);
  }

  putKmsKeyVersion(record: SeedKmsKeyVersion): void {
    this.kmsKeyVersions.set(record.name, record);
  }

  hasPermission(principal: string, permission: string, resource: string): boolean {
    return this.seedData.grants.some(
      (g) =>
        principalMatches(g.principal, principal) &&
        g.permission === permission &&
        (g.resource === undefined || g.resource === "*" || g.resource === resource),
    );
  }

  record(entry: NewAuditEntry): AuditEntry {
    const full: AuditEntry = { seq: this.auditLog.length + 1, ...entry };
    this.auditLog.push(full);
    return full;
  }

  audit(): readonly AuditEntry[] {
    return [...this.auditLog];
  }
}
