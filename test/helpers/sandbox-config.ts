/** Stack configuration and tokens that point a program at an in-process Google sandbox. */
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { fixture } from "../../sandbox/google";
import type { GoogleSandbox, SandboxSeed } from "../../sandbox/google";

export const DEPLOYER = "deployer@sandbox-project.iam.gserviceaccount.com";
export const READER = "reader@sandbox-project.iam.gserviceaccount.com";

const SCOPE = "https://www.googleapis.com/auth/";

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
].map((s) => SCOPE + s);

/** The custom endpoints of the sandbox as `opsledger:*CustomEndpoint` stack config. */
export function endpointConfig(sandbox: GoogleSandbox): ConfigMap {
  const e = sandbox.endpoints;
  return {
    "opsledger:iamCustomEndpoint": { value: e.iam },
    "opsledger:computeCustomEndpoint": { value: e.compute },
    "opsledger:deploymentManagerCustomEndpoint": { value: e.deploymentManager },
    "opsledger:workspaceEventsCustomEndpoint": { value: e.workspaceEvents },
    "opsledger:displayVideoCustomEndpoint": { value: e.displayVideo },
    "opsledger:kmsCustomEndpoint": { value: e.kms },
    "opsledger:iamCredentialsCustomEndpoint": { value: e.iamCredentials },
    "opsledger:oauth2CustomEndpoint": { value: e.oauth2 },
  };
}

/** Endpoints plus a minted access token (as a secret) for the principal and scopes given. */
export function tokenConfig(sandbox: GoogleSandbox, principal: string, scopes: readonly string[]): ConfigMap {
  return {
    ...endpointConfig(sandbox),
    "opsledger:accessToken": { value: sandbox.mintToken({ principal, scopes }), secret: true },
  };
}

/** A deployer token with the scopes every endpoint of the package needs. */
export function deployerConfig(sandbox: GoogleSandbox): ConfigMap {
  return tokenConfig(sandbox, DEPLOYER, [
    SCOPE + "compute",
    SCOPE + "cloud-platform",
    SCOPE + "display-video",
    SCOPE + "ndev.cloudman.readonly",
    SCOPE + "chat.spaces.readonly",
    SCOPE + "cloudkms",
  ]);
}

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
