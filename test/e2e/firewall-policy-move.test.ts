/**
 * FirewallPolicyMove with the real Pulumi engine against the Google sandbox: preview with read-only credentials,
 * up/update/no-op, A→B→A→B, drift and refresh, destroy (with and without restoreOnDelete), a failed operation,
 * faults at 20%, secrets in state. The crash tests are in firewall-policy-move-crash.test.ts.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { FirewallPolicyMove } from "../../sdk/compute";
import { createThrowawayStack, dynamicResources } from "../helpers/pulumi-harness";
import type { ThrowawayStack } from "../helpers/pulumi-harness";
import {
  READER,
  READ_ONLY_SCOPES,
  deployerConfig,
  parentOf,
  plainStrings,
  tokenConfig,
} from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const { policy: POLICY, originalParent: ORIGINAL, folderA: A, folderB: B, folderC: C } = FIXTURE.firewallPolicyMove;

/** The program under test: one move whose target and options come from the stack config. */
async function program(): Promise<Record<string, unknown>> {
  const config = new pulumi.Config();
  const move = new FirewallPolicyMove("edge", {
    firewallPolicy: config.get("firewallPolicy") ?? POLICY,
    parentId: config.require("parentId"),
    restoreOnDelete: config.getBoolean("restoreOnDelete") ?? false,
  });
  return Promise.resolve({
    parent: move.parent,
    previousParent: move.previousParent,
    requestId: move.requestId,
    generation: move.generation,
    operation: move.operation,
  });
}

function moves(sandbox: GoogleSandbox, source: "api" | "control-plane" = "api") {
  return sandbox.audit().filter((e) => e.kind === "firewallPolicies.move" && e.source === source);
}

function mutatingRequests(sandbox: GoogleSandbox) {
  return sandbox.requests().filter((r) => r.method !== "GET" && r.route !== "iam.workforcePools.getIamPolicy");
}

describe("FirewallPolicyMove (real engine, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let stack: ThrowawayStack;

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 1500 });
    stack = await createThrowawayStack({
      projectName: "fpm-e2e",
      program,
      config: { ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), "fpm-e2e:parentId": { value: A } },
    });
  });
  after(async () => {
    await stack.dispose();
    await sandbox.close();
  });

  it("previews with a read-only token and makes no mutating call", async () => {
    const preview = await stack.preview();
    assert.equal(preview.changeSummary["create"], 2);
    assert.deepEqual(mutatingRequests(sandbox), []);
    assert.equal(sandbox.audit().length, 0);
  });

  it("moves on up and outputs the observed parent and the operation", async () => {
    await stack.setConfig(deployerConfig(sandbox));
    const { outputs, output } = await stack.up();
    assert.equal(outputs["parent"]?.value, A);
    assert.equal(outputs["previousParent"]?.value, ORIGINAL);
    assert.equal(outputs["generation"]?.value, 1);
    const op = outputs["operation"]?.value as { status: string; progress: number; name: string };
    assert.equal(op.status, "DONE");
    assert.equal(op.progress, 100);
    assert.match(output, /FirewallPolicyMove edge: moving firewall policy \d+ to folders\/\d+/);
    assert.equal(moves(sandbox).length, 1);
    assert.equal(moves(sandbox)[0]?.details.requestId, outputs["requestId"]?.value);
  });

  it("changes nothing on a second up", async () => {
    const posts = (): number => sandbox.requests().filter((r) => r.method === "POST").length;
    const before = posts();
    const { output } = await stack.up();
    assert.match(output, /2 unchanged/);
    assert.equal(posts(), before);
    assert.equal(moves(sandbox).length, 1);
  });

  it("previews a parent change as an in-place update (read-only token, no mutation)", async () => {
    await stack.setConfig({ ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), "fpm-e2e:parentId": { value: B } });
    const posts = mutatingRequests(sandbox).length;
    const preview = await stack.preview({ diff: true });
    const step = preview.steps.find((s) => s.type.endsWith("FirewallPolicyMove"));
    // The Node dynamic provider sends no diff list to the engine, so the printed --diff is the evidence.
    assert.equal(step?.op, "update");
    assert.match(preview.output, new RegExp(`parentId\\s*:\\s*"${A}"\\s*=>\\s*"${B}"`));
    assert.equal(mutatingRequests(sandbox).length, posts);
  });

  it("moves in place on update, and A→B→A→B makes exactly three moves", async () => {
    await stack.setConfig(deployerConfig(sandbox));
    const start = moves(sandbox).length;
    for (const target of [B, A, B]) {
      await stack.setConfig({ "fpm-e2e:parentId": { value: target } });
      const { outputs } = await stack.up();
      assert.equal(outputs["parent"]?.value, target);
      assert.equal(outputs["previousParent"]?.value, ORIGINAL);
    }
    const made = moves(sandbox).slice(start);
    assert.deepEqual(
      made.map((m) => m.details.to),
      [B, A, B],
    );
    assert.equal(new Set(made.map((m) => m.details.requestId)).size, 3);
  });

  it("shows an out-of-band move as drift on refresh, and the next up moves it back", async () => {
    sandbox.setParent(POLICY, C);
    const refreshOutput = await stack.refresh();
    assert.match(refreshOutput, /parentId|parent/);
    const state = dynamicResources(await stack.exportState())[0];
    assert.equal(state?.outputs?.["parent"], C);
    const { outputs } = await stack.up();
    assert.equal(outputs["parent"]?.value, B);
    assert.equal(moves(sandbox).at(-1)?.details.to, B);
  });

  it("keeps credentials and tokens out of state and provider output", async () => {
    const deployer = deployerConfig(sandbox);
    await stack.setConfig(deployer);
    const { output } = await stack.up();
    const token = deployer["opsledger:accessToken"]?.value ?? "";
    assert.ok(token.length > 10);
    const state = await stack.exportState();
    const plain = plainStrings(state).join("\n");
    assert.ok(!plain.includes(token), "the access token is in state outside a Pulumi secret");
    assert.ok(
      JSON.stringify(state).includes("4dabf18193072939515e22adb298388d"),
      "the token is kept as a Pulumi secret",
    );
    assert.ok(!output.includes(token), "the access token is in the engine or provider output");
    const provider = dynamicResources(state)[0]?.inputs?.["__provider"];
    assert.equal(typeof provider, "string");
    assert.ok(String(provider).length <= 2048, `__provider is ${String(provider).length} bytes`);
  });

  it("leaves the policy where it is on destroy without restoreOnDelete", async () => {
    const count = moves(sandbox).length;
    const output = await stack.destroy();
    assert.match(output, /stays under folders\/\d+ \(restoreOnDelete is false\)/);
    assert.equal(moves(sandbox).length, count);
    assert.equal(await parentOf(sandbox, POLICY), B);
  });
});

describe("FirewallPolicyMove failures and faults (real engine, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 1000, faultSeed: 7 });
  });
  after(async () => {
    await sandbox.close();
  });

  it("moves the policy back on destroy with restoreOnDelete", async () => {
    const stack = await createThrowawayStack({
      projectName: "fpm-restore",
      program,
      config: {
        ...deployerConfig(sandbox),
        "fpm-restore:parentId": { value: B },
        "fpm-restore:restoreOnDelete": { value: "true" },
      },
    });
    try {
      await stack.up();
      assert.equal(await parentOf(sandbox, POLICY), B);
      await stack.destroy();
      assert.equal(await parentOf(sandbox, POLICY), ORIGINAL);
      assert.deepEqual(
        moves(sandbox).map((m) => m.details.to),
        [B, ORIGINAL],
      );
    } finally {
      await stack.dispose();
    }
  });

  it("fails readably on QUOTA_EXCEEDED, keeps the old parent in state, and succeeds once the fault clears", async () => {
    sandbox.reset();
    const stack = await createThrowawayStack({
      projectName: "fpm-quota",
      program,
      config: { ...deployerConfig(sandbox), "fpm-quota:parentId": { value: A } },
    });
    try {
      await stack.up();
      sandbox.setMoveOutcome({ kind: "quotaExceeded" });
      await stack.setConfig({ "fpm-quota:parentId": { value: B } });
      await assert.rejects(stack.up(), (e: Error) => {
        assert.match(e.message, /QUOTA_EXCEEDED/);
        assert.match(e.message, /quota metric \S+/);
        assert.match(e.message, /limit \d+/);
        return true;
      });
      const state = dynamicResources(await stack.exportState())[0];
      assert.equal(state?.outputs?.["parent"], A);
      assert.equal(await parentOf(sandbox, POLICY), A);
      sandbox.setMoveOutcome({ kind: "success" });
      const { outputs } = await stack.up();
      assert.equal(outputs["parent"]?.value, B);
      assert.equal(await parentOf(sandbox, POLICY), B);
    } finally {
      await stack.dispose();
    }
  });

  it("survives 20% faults (503, 429 with Retry-After, dropped connections) with exactly one move per change", async () => {
    sandbox.reset();
    const stack = await createThrowawayStack({
      projectName: "fpm-faults",
      program,
      config: { ...deployerConfig(sandbox), "fpm-faults:parentId": { value: A } },
    });
    try {
      sandbox.setFaults([
        { kind: "status", status: 503, rate: 0.2 },
        { kind: "status", status: 429, retryAfterSeconds: 1, rate: 0.2 },
        { kind: "drop", rate: 0.2, phase: "before" },
        { kind: "drop", rate: 0.2, phase: "after" },
      ]);
      for (const target of [A, B, C]) {
        await stack.setConfig({ "fpm-faults:parentId": { value: target } });
        const { outputs } = await stack.up();
        assert.equal(outputs["parent"]?.value, target);
      }
      assert.ok(sandbox.requests().filter((r) => r.fault !== undefined).length > 0, "faults were injected");
      assert.deepEqual(
        moves(sandbox).map((m) => m.details.to),
        [A, B, C],
      );
    } finally {
      sandbox.clearFaults();
      await stack.dispose();
    }
  });
});
