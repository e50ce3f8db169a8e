/**
 * The tests' side of a Google sandbox: a read-only principal, its scopes, what the sandbox holds. The stack config that
 * points a program at it is scripts/lib/sandbox-stack-config.ts's, which the upgrade recorder writes too.
 */
import { fixture } from "../../sandbox/google";
import type { GoogleSandbox, SandboxSeed } from "../../sandbox/google";
import { SCOPE_PREFIX } from "../../scripts/lib/sandbox-stack-config";

export { DEPLOYER, deployerConfig, endpointConfig, tokenConfig } from "../../scripts/lib/sandbox-stack-config";

export const READER = "reader@sandbox-project.iam.gserviceaccount.com";

/**
 * What a pull-request preview job holds: read-only scopes wherever Google has one. IAM (`iam`) and Display & Video 360
 * (`display-video`) have no read-only scope, so those two are carried by a principal without write permissions.
 */
export const READ_ONLY_SCOPES = [
  "compute.readonly",
  "iam",
  "cloud-platform.read-only",
  "ndev.cloudman.readonly",
  "chat.spaces.readonly",
  "display-video",
].map((s) => SCOPE_PREFIX + s);

/** The parent the sandbox reports for a firewall policy (a GET with a read-only token). */
export async function parentOf(sandbox: GoogleSandbox, policyId: string): Promise<string> {
  const token = sandbox.mintToken({ principal: READER, scopes: READ_ONLY_SCOPES });
  const res = await fetch(`${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/${policyId}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const body = (await res.json()) as { parent?: string };
  return body.parent ?? `(HTTP ${res.status})`;
}

/** Walks a stack export and returns every string that is NOT inside a Pulumi secret value object. */
export function plainStrings(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const v of value) plainStrings(v, out);
  else if (value !== null && typeof value === "object") {
    const record = value as Record<string, unknown>;
    if (record["4dabf18193072939515e22adb298388d"] === "1b47061264138c4ac30d75fd1eb44270") return out;
    for (const v of Object.values(record)) plainStrings(v, out);
  }
  return out;
}

/**
 * The built-in fixture with its running IAM operation (`op-binding-pending`) still running a day after the seed loads.
 * The fixture's own finishes 30 s after the seed loads, on the real clock: a test that needs it running must not depend
 * on reaching that check within 30 s of the sandbox's start (on a loaded machine, three `pulumi import` commands before
 * it took longer, and the operation was done).
 */
export function seedWithOperationStillRunning(): SandboxSeed {
  const base = fixture.DEFAULT_SEED;
  return {
    ...base,
    iamOperations: base.iamOperations.map((op) =>
      op.name === fixture.FIXTURE_IAM_OPERATIONS.running ? { ...op, durationMs: 24 * 3_600_000 } : op,
    ),
  };
}
