/**
 * What the multi-runner e2e files (test/e2e/postgres-*.test.ts) share: the sandboxes the team program runs against
 * (the Google sandbox, seeded with the policies the programs move; the Fabric sandbox behind a gateway proxy), the
 * stack config of a team program, and the checks that every run ends with: every move made once, one operation per
 * requestId, each txId VALID once, the state complete, the next preview empty.
 */
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { DEFAULT_SEED, fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { startComponentTarget } from "./ledger-component";
import type { ComponentTarget } from "./ledger-component";
import { ledgerTargets } from "./ledger-targets";
import { changeSummary } from "./project-stack";
import type { ConfigValues } from "./project-stack";
import type { Runner, TeamProgram } from "./postgres-runners";
import { deployerConfig } from "./sandbox-config";

export const MOVE = "compute.firewallPolicies.move";
export const TO = `folders/${fixture.FIXTURE_FOLDER_IDS.platform}`;
const FROM = `folders/${fixture.FIXTURE_FOLDER_IDS.engineering}`;

/**
 * Real time that a test can stop and start again: while it stands still, an operation the sandbox is running stays
 * RUNNING (kill points that need one running whatever else happens first).
 */
export interface PausableClock {
  now(): number;
  pause(): void;
  resume(): void;
}

export function pausableClock(): PausableClock {
  let offset = 0;
  let pausedAt: number | undefined;
  return {
    now: () => pausedAt ?? Date.now() - offset,
    pause() {
      pausedAt ??= Date.now() - offset;
    },
    resume() {
      if (pausedAt === undefined) return;
      offset = Date.now() - pausedAt;
      pausedAt = undefined;
    },
  };
}

/** A Google sandbox holding `count` more policies from id `first` on, all under the engineering folder. */
export async function startTeamGoogle(
  first: number,
  count: number,
  options: Parameters<typeof startGoogleSandbox>[0] = {},
): Promise<GoogleSandbox> {
  const google = await startGoogleSandbox(options);
  google.seed({
    ...DEFAULT_SEED,
    firewallPolicies: [
      ...DEFAULT_SEED.firewallPolicies,
      ...Array.from({ length: count }, (_, i) => ({
        id: String(first + i),
        shortName: `team-${String(i)}`,
        parent: FROM,
        creationTimestamp: "2026-01-01T00:00:00Z",
      })),
    ],
  });
  return google;
}

/** The Fabric sandbox (two organizations, TLS) behind a gateway proxy that shows and holds its calls. */
export function startTeamLedger(): Promise<ComponentTarget> {
  const [sandbox] = ledgerTargets([]);
  if (sandbox === undefined) throw new Error("no Fabric sandbox target");
  return startComponentTarget(sandbox);
}

/** A stack name and asset prefix no other test uses (txIds derive from the URN, so from the stack name). */
export function uniqueName(label: string): string {
  return `${label}${randomBytes(4).toString("hex")}`;
}

/** The stack config of a team program (test/helpers/postgres-runners.ts). */
export function teamConfig(
  google: GoogleSandbox,
  ledger: ComponentTarget | undefined,
  p: TeamProgram & { readonly prefix: string },
): ConfigValues {
  const identity = ledger?.identity;
  return {
    ...deployerConfig(google),
    moves: { value: String(p.moves) },
    transactions: { value: String(p.transactions) },
    firstPolicy: { value: String(p.firstPolicy) },
    parentId: { value: TO },
    ...(ledger === undefined || identity === undefined
      ? {}
      : {
          prefix: { value: p.prefix },
          gateway: { value: ledger.proxy.address },
          tlsRootCertPem: { value: ledger.proxyTls.rootCertPem },
          serverNameOverride: { value: ledger.proxyTls.serverName },
          channel: { value: ledger.ledger.channel },
          chaincode: { value: ledger.ledger.chaincode },
          mspId: { value: identity.mspId },
          certificatePem: { value: identity.certificatePem },
          privateKeyPem: { value: identity.privateKeyPem, secret: true },
          trustedRootCertificates: { value: JSON.stringify(ledger.ledger.caCertificates) },
        }),
  };
}

/** The policies of a program, as the audit names them. */
function policyTargets(p: TeamProgram): string[] {
  return Array.from({ length: p.moves }, (_, i) => `firewallPolicies/${String(p.firstPolicy + i)}`).sort();
}

/**
 * Every policy of `p` moved to TO exactly once (the sandbox audits a move when its operation succeeds), and one
 * operation per requestId. Returns the requestIds.
 */
export function assertMovesOnce(google: GoogleSandbox, p: TeamProgram): string[] {
  const targets = new Set(policyTargets(p));
  const moved = google.audit().filter((e) => e.kind === "firewallPolicies.move" && targets.has(e.target));
  assert.deepEqual(moved.map((e) => e.target).sort(), policyTargets(p), "every policy moved exactly once");
  assert.deepEqual(
    moved.filter((e) => e.source !== "api" || e.details.to !== TO),
    [],
    "every move was the program's, to its parent",
  );
  const byRequestId = new Map<string, Set<string>>();
  for (const e of moved) {
    const id = e.details.requestId ?? "";
    assert.notEqual(id, "", `the move of ${e.target} carried a requestId`);
    byRequestId.set(id, (byRequestId.get(id) ?? new Set()).add(e.details.operation ?? ""));
  }
  assert.equal(byRequestId.size, p.moves, "one requestId per move");
  assert.deepEqual(
    [...byRequestId].filter(([, ops]) => ops.size !== 1),
    [],
    "one operation per requestId",
  );
  return [...byRequestId.keys()];
}

/** Each transaction of `p` (key `<prefix>-<i>`) is on the ledger once, VALID. Returns the txIds by key. */
export async function assertTransactionsOnce(
  ledger: ComponentTarget,
  fromBlock: number,
  p: TeamProgram & { readonly prefix: string },
): Promise<Map<string, string>> {
  const entries = (await ledger.reader.entries(fromBlock)).filter(
    (e) => e.args[0] === "PutAsset" && (e.args[1] ?? "").startsWith(`${p.prefix}-`),
  );
  const keys = Array.from({ length: p.transactions }, (_, i) => `${p.prefix}-${String(i)}`);
  assert.deepEqual(
    entries.map((e) => [e.args[1], e.codeName]).sort(),
    keys.map((k) => [k, "VALID"]).sort(),
    "each transaction on the ledger once, VALID",
  );
  assert.equal(new Set(entries.map((e) => e.txId)).size, entries.length, "each txId once");
  return new Map(entries.map((e) => [e.args[1] ?? "", e.txId]));
}

/**
 * The stack's state as the backend holds it: nothing pending, every move and every transaction recorded, the
 * transactions with the txIds the ledger holds, VALID.
 */
export async function assertStateComplete(
  runner: Runner,
  p: TeamProgram,
  txIds: ReadonlyMap<string, string>,
): Promise<void> {
  const deployment = await runner.exportState();
  assert.deepEqual(deployment.pending_operations ?? [], [], "nothing pending");
  const resources = deployment.resources ?? [];
  const named = (prefix: string) =>
    resources.filter((r) => new RegExp(`::${prefix}-\\d+$`).test(r.urn) && r.type.endsWith("FirewallPolicyMove"));
  assert.equal(named("move").length, p.moves, "every move in the state");
  // The custom resource holding each transaction (the dynamic submission, or the plugin's resource), not the
  // TypeScript component over it, which shows the same outputs.
  const recorded = resources
    .filter((r) => typeof r.outputs?.["txId"] === "string" && (r.id ?? "") !== "")
    .map((r) => [r.outputs?.["txId"], r.outputs?.["validationCode"]]);
  assert.deepEqual(
    recorded.sort(),
    [...txIds.values()].map((id) => [id, "VALID"]).sort(),
    "every transaction in the state with the ledger's txId, VALID",
  );
}

/** `pulumi preview` proposes nothing. */
export async function assertPreviewEmpty(runner: Runner): Promise<void> {
  const preview = await runner.run(["preview"]);
  const summary = changeSummary(preview.events);
  assert.ok((summary["same"] ?? 0) > 0, `the preview saw the resources: ${JSON.stringify(summary)}`);
  assert.deepEqual(
    Object.keys(summary).filter((k) => k !== "same"),
    [],
    `the next preview is empty: ${JSON.stringify(summary)}`,
  );
}

/** The lock refusal of a diy backend, as the CLI prints it. */
export const LOCKED = /the stack is currently locked .* delete the lock file with `pulumi cancel`/s;
