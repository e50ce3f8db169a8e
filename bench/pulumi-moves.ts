/**
 * `pulumi up` of a stack of N FirewallPolicyMoves against the sandbox vs a plain script making the same HTTP calls
 * (GET the policy, POST the move, poll the operation, GET the policy) with the same client, waiter and parallelism:
 * the engine's overhead, the bytes of `__provider` per resource, and `pulumi preview` time for the same stack.
 */
import * as pulumi from "@pulumi/pulumi";
import { DEFAULT_SEED, startGoogleSandbox } from "../sandbox/google";
import { createGoogleClient, resolveGoogleSettings } from "../provider/google";
import { waitForComputeOperation } from "../provider/operations";
import { deterministicUuid } from "../provider/resources/common";
import { FirewallPolicyMove } from "../sdk/compute";
import { createThrowawayStack, dynamicResources } from "../scripts/lib/throwaway-stack";

export interface PulumiMovesOptions {
  count: number;
  parallel: number;
  moveDurationMs: number;
}

export interface PulumiMovesResult {
  count: number;
  parallel: number;
  scriptMs: number;
  pulumiUpMs: number;
  ratio: number;
  previewMs: number;
  providerBytesPerResource: number;
}

const TARGET = "folders/200000000003";
const SCOPES = ["compute", "cloud-platform"].map((s) => `https://www.googleapis.com/auth/${s}`);

function policyIds(count: number, base: number): string[] {
  return Array.from({ length: count }, (_, i) => String(base + i));
}

async function runLimited<T>(items: readonly T[], parallel: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(parallel, items.length) }, async () => {
      while (next < items.length) {
        const item = items[next++] as T;
        await work(item);
      }
    }),
  );
}

export async function benchPulumiMoves(options: Partial<PulumiMovesOptions> = {}): Promise<PulumiMovesResult> {
  const count = options.count ?? 100;
  const parallel = options.parallel ?? 16;
  const moveDurationMs = options.moveDurationMs ?? 2000;
  const sandbox = await startGoogleSandbox({ moveDurationMs });
  const scriptIds = policyIds(count, 810000000000);
  const stackIds = policyIds(count, 820000000000);
  sandbox.seed({
    ...DEFAULT_SEED,
    firewallPolicies: [
      ...DEFAULT_SEED.firewallPolicies,
      ...[...scriptIds, ...stackIds].map((id) => ({
        id,
        shortName: `bench-${id}`,
        parent: "folders/200000000001",
        creationTimestamp: "2026-01-01T00:00:00Z",
      })),
    ],
  });
  const principal = "deployer@sandbox-project.iam.gserviceaccount.com";
  try {
    // Baseline: the same calls, same client and waiter, same parallelism, no Pulumi.
    const settings = resolveGoogleSettings({
      explicit: {
        accessToken: sandbox.mintToken({ principal, scopes: SCOPES }),
        computeCustomEndpoint: sandbox.endpoints.compute,
      },
      env: {},
    });
    const client = createGoogleClient({ settings });
    const scriptStart = Date.now();
    await runLimited(scriptIds, parallel, async (id) => {
      await client.call("compute.firewallPolicies.get", { firewallPolicy: id });
      const op = await client.call("compute.firewallPolicies.move", {
        firewallPolicy: id,
        parentId: TARGET,
        requestId: deterministicUuid("bench", id),
      });
      await waitForComputeOperation(
        async (signal) => ({
          operation: await client.call(
            "compute.globalOrganizationOperations.get",
            { operation: op.name ?? "" },
            { signal },
          ),
        }),
        { initial: op },
      );
      await client.call("compute.firewallPolicies.get", { firewallPolicy: id });
    });
    const scriptMs = Date.now() - scriptStart;

    const stack = await createThrowawayStack({
      projectName: "bench-moves",
      program: () => {
        for (const id of stackIds) new FirewallPolicyMove(`move-${id}`, { firewallPolicy: id, parentId: TARGET });
        return Promise.resolve({ count: pulumi.output(stackIds.length) });
      },
      config: {
        "opsledger:computeCustomEndpoint": { value: sandbox.endpoints.compute },
        "opsledger:accessToken": { value: sandbox.mintToken({ principal, scopes: SCOPES }), secret: true },
      },
    });
    try {
      const previewStart = Date.now();
      await stack.preview();
      const previewMs = Date.now() - previewStart;
      const upStart = Date.now();
      await stack.stack.up({ parallel, onOutput: () => undefined });
      const pulumiUpMs = Date.now() - upStart;
      const resources = dynamicResources(await stack.exportState());
      const bytes = resources.reduce((sum, r) => {
        const stub = r.inputs?.["__provider"];
        return sum + (typeof stub === "string" ? stub.length : 0);
      }, 0);
      return {
        count,
        parallel,
        scriptMs,
        pulumiUpMs,
        ratio: pulumiUpMs / scriptMs,
        previewMs,
        providerBytesPerResource: Math.round(bytes / Math.max(1, resources.length)),
      };
    } finally {
      await stack.dispose();
    }
  } finally {
    await sandbox.close();
  }
}
