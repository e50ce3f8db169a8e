/**
 * examples/firewall-policy-move with the plain `pulumi` CLI in its directory against the Google sandbox, through both
 * faces (test/helpers/faces.ts): the TypeScript program's dynamic resource, and its YAML twin through the resource plugin
 * pulumi-resource-opsledger. Each body runs once per face: preview with read-only credentials, up/update/no-op,
 * A→B→A→B, drift and refresh, destroy, a failed operation printed as one paragraph, faults, secrets in state. The
 * crash tests are in firewall-policy-move-crash.test.ts.
 */
import { strict as assert } from "node:assert";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { changeSummary, diagnostics, initProjectStack } from "../helpers/project-stack";
import type { CommandResult, ConfigValues, ProjectStack, StateResource } from "../helpers/project-stack";
import {
  READER,
  READ_ONLY_SCOPES,
  deployerConfig,
  parentOf,
  plainStrings,
  tokenConfig,
} from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";
import { findSecretsDecoded, textForms } from "../helpers/secrets-scan";
import { FIREWALL_POLICY_MOVE_TYPE } from "../../sdk/compute/firewall-policy-move";
import {
  GOOGLE_FACES,
  driftProperty,
  moveBlock,
  moveIn,
  projectOf,
  serializesProvider,
  typeOf,
} from "../helpers/faces";
import type { Face } from "../helpers/faces";

const { policy: POLICY, originalParent: ORIGINAL, folderA: A, folderB: B, folderC: C } = FIXTURE.firewallPolicyMove;

function moves(sandbox: GoogleSandbox, source: "api" | "control-plane" = "api") {
  return sandbox.audit().filter((e) => e.kind === "firewallPolicies.move" && e.source === source);
}

function mutatingRequests(sandbox: GoogleSandbox) {
  return sandbox.requests().filter((r) => r.method !== "GET" && r.route !== "iam.workforcePools.getIamPolicy");
}

/** The move's resource in state. */
async function moveResource(face: Face, stack: ProjectStack): Promise<StateResource> {
  return moveIn(face, await stack.exportState());
}

/** The move's state: its outputs, including the plumbing kept under `__` keys. */
async function moveState(face: Face, stack: ProjectStack): Promise<Record<string, unknown>> {
  return (await moveResource(face, stack)).outputs ?? {};
}

/**
 * The move's error as the CLI printed it under Diagnostics: the lines from the first `error:` in the move's section up
 * to the blank line that ends the paragraph, trimmed.
 */
function moveErrorParagraph(face: Face, stdout: string): string[] {
  const lines = stdout.slice(stdout.indexOf("Diagnostics:")).split("\n");
  const section = lines.findIndex((l) => l.trim() === `${typeOf(face, FIREWALL_POLICY_MOVE_TYPE)} (edge-policy):`);
  const start = lines.findIndex((l, i) => i > section && /^\s+error: /.test(l));
  assert.ok(section >= 0 && start >= 0, stdout);
  const end = lines.findIndex((l, i) => i > start && l.trim() === "");
  return lines.slice(start, end < 0 ? undefined : end).map((l) => l.trim());
}

for (const face of GOOGLE_FACES) {
  describe(`examples/firewall-policy-move through the ${face.name} (pulumi CLI, sandbox)`, function () {
    this.timeout(600_000);
    let sandbox: GoogleSandbox;
    let stack: ProjectStack;
    // Every access token the stack's config has held, and the output of every command it ran: what the scan for
    // credentials in output reads.
    const tokens: string[] = [];
    const printed: string[] = [];
    const configure = async (config: ConfigValues): Promise<void> => {
      const token = config["opsledger:accessToken"]?.value;
      if (token !== undefined) tokens.push(token);
      await stack.setConfig(config);
    };
    const shown = <T extends CommandResult>(result: T): T => {
      printed.push(result.output);
      return result;
    };

    before(async () => {
      sandbox = await startGoogleSandbox({ moveDurationMs: 1500 });
      const config: ConfigValues = { ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), parentId: { value: A } };
      tokens.push(config["opsledger:accessToken"]?.value ?? "");
      stack = await initProjectStack({ projectDir: await projectOf(face, "move"), config });
    });
    after(async () => {
      await stack.dispose();
      await sandbox.close();
    });

    it("previews with a read-only token, listing only the inputs the program sets, and makes no mutating call", async () => {
      const preview = shown(await stack.preview({ diff: true }));
      assert.deepEqual(changeSummary(preview.events), { create: 2 });
      assert.deepEqual(
        moveBlock(face, preview.stdout)
          .filter((l) => /^\s+\S+\s*:/.test(l) && !/^\s+\[/.test(l))
          .map((l) => l.trim().split(/\s*:/)[0]),
        ["firewallPolicy", "parentId", "restoreOnDelete", "timeouts", "create", "update"],
      );
      assert.deepEqual(mutatingRequests(sandbox), []);
      assert.equal(sandbox.audit().length, 0);
    });

    it("moves on up and outputs the observed parent and the operation", async () => {
      await configure(deployerConfig(sandbox));
      const { outputs, stdout, events } = shown(await stack.up());
      assert.equal(outputs["parent"], A);
      assert.equal(outputs["previousParent"], ORIGINAL);
      const op = outputs["operation"] as { status: string; progress: number; name: string };
      assert.equal(op.status, "DONE");
      assert.equal(op.progress, 100);
      assert.match(stdout, new RegExp(`FirewallPolicyMove edge-policy: moving firewall policy ${POLICY} to ${A}`));
      const { urn, outputs: state = {} } = await moveResource(face, stack);
      assert.equal(state["__generation"], 1);
      // Progress is shown on the move's own row: ephemeral status events attached to its URN, not loose lines.
      const statuses = diagnostics(events).filter((d) => d.ephemeral);
      assert.ok(statuses.length >= 2, `status events: ${JSON.stringify(statuses)}`);
      assert.deepEqual([...new Set(statuses.map((d) => d.urn))], [urn]);
      assert.match(statuses.at(-1)?.message ?? "", new RegExp(`^moving to ${A}: operation-\\S+ DONE 100%\\n?$`));
      assert.match(
        statuses[0]?.message ?? "",
        new RegExp(`^moving to ${A}: operation-\\S+ (PENDING|RUNNING) \\d+%\\n?$`),
      );
      assert.deepEqual(
        diagnostics(events).filter(
          (d) => d.urn === "" && d.severity !== "debug" && /FirewallPolicyMove|firewall policy/.test(d.message),
        ),
        [],
        "no loose lines about the move",
      );
      assert.deepEqual(
        moves(sandbox).map((m) => m.details.requestId),
        [state["__requestId"]],
      );
    });

    it("changes nothing on a second up", async () => {
      const posts = (): number => sandbox.requests().filter((r) => r.method === "POST").length;
      const before = posts();
      const { stdout } = shown(await stack.up());
      assert.match(stdout, /^\s+2 unchanged$/m);
      assert.equal(posts(), before);
      assert.equal(moves(sandbox).length, 1);
    });

    it("previews a parent change as one changed line, `parentId: A => B`, with a read-only token", async () => {
      await configure({ ...tokenConfig(sandbox, READER, READ_ONLY_SCOPES), parentId: { value: B } });
      const posts = mutatingRequests(sandbox).length;
      const preview = shown(await stack.preview({ diff: true }));
      assert.deepEqual(changeSummary(preview.events), { update: 1, same: 1 });
      const changed = moveBlock(face, preview.stdout).filter((l) => /^\s*[~+-] /.test(l));
      assert.deepEqual(
        changed.map((l) => l.trim().replace(/\s+:/, ":")),
        [`~ parentId: "${A}" => "${B}"`],
      );
      assert.doesNotMatch(preview.stdout, /generation|requestId|resourceUrn|__urn/);
      assert.equal(mutatingRequests(sandbox).length, posts);
    });

    it("moves in place on update, and A→B→A→B makes exactly three moves", async () => {
      await configure(deployerConfig(sandbox));
      const start = moves(sandbox).length;
      for (const target of [B, A, B]) {
        await stack.setConfig({ parentId: { value: target } });
        const { outputs } = shown(await stack.up());
        assert.equal(outputs["parent"], target);
        assert.equal(outputs["previousParent"], ORIGINAL);
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
      const refreshed = shown(await stack.run(["refresh", "--yes", "--skip-preview", "--diff"]));
      assert.match(refreshed.stdout, new RegExp(`^\\s+~ ${driftProperty(face)}\\s*: "${B}" => "${C}"$`, "m"));
      assert.equal((await moveState(face, stack))["parent"], C);
      const { outputs } = shown(await stack.up());
      assert.equal(outputs["parent"], B);
      assert.equal(moves(sandbox).at(-1)?.details.to, B);
    });

    it("keeps credentials and tokens out of state, output and the CLI's log files", async () => {
      // The two read-only tokens and the two deployer tokens the tests above set, and the output of their 9 commands.
      assert.equal(tokens.length, 4);
      assert.ok(tokens.every((token) => token.length > 10));
      assert.equal(printed.length, 9, "every command's output is scanned");
      const state = await stack.exportState();
      const plain = plainStrings(state).join("\n");
      assert.ok(
        JSON.stringify(state).includes("4dabf18193072939515e22adb298388d"),
        "the token is kept as a Pulumi secret",
      );
      for (const [i, token] of tokens.entries()) {
        assert.ok(!plain.includes(token), `access token ${i} is in state outside a Pulumi secret`);
        assert.deepEqual(
          printed.flatMap((output, command) => (output.includes(token) ? [command] : [])),
          [],
          `access token ${i} is in the output of these commands`,
        );
      }
      // The CLI's own logs of those commands (PULUMI_HOME/logs) are encrypted at rest with the stack's secrets
      // provider, as the state's secrets are: no form of a token in their bytes, read decoded, on either face.
      // Decrypted as a user would read them (they hold the move's requestId: the scan reads what the commands logged),
      // they hold every token on both faces: the engine logs what it sends the provider, the dynamic provider's
      // Configure (the stack config, base64-encoded) and the plugin's CheckConfig and Configure (docs/plugin.md).
      const raw = stack.rawLogs();
      assert.ok(raw.length > 0, "the CLI wrote log files");
      const logs = (await stack.decryptedLogs()).join("\n");
      const requestId = moveIn(face, state).outputs?.["__requestId"];
      assert.ok(typeof requestId === "string" && logs.includes(requestId), "the logs were read");
      for (const [i, token] of tokens.entries()) {
        const forms = textForms(`access token ${String(i)}`, token);
        assert.deepEqual(findSecretsDecoded(raw.join("\n"), forms), [], `access token ${i} in the log files' bytes`);
        assert.ok(findSecretsDecoded(logs, forms).length > 0, `access token ${i} is not in the decrypted logs`);
      }
      const provider = moveIn(face, state).inputs?.["__provider"];
      if (serializesProvider(face)) {
        // The dynamic provider is serialized into state as a short stub that requires this package, holding no setting.
        assert.equal(typeof provider, "string");
        assert.ok(String(provider).length <= 2048, `__provider is ${String(provider).length} bytes`);
      } else {
        assert.equal(provider, undefined, "the plugin's state names its provider, it holds no code");
      }
    });

    it("leaves the policy where it is on destroy without restoreOnDelete", async () => {
      const count = moves(sandbox).length;
      const { stdout } = await stack.destroy();
      assert.match(stdout, new RegExp(`firewall policy ${POLICY} stays under ${B} \\(restoreOnDelete is false\\)`));
      assert.equal(moves(sandbox).length, count);
      assert.equal(await parentOf(sandbox, POLICY), B);
    });
  });
}

for (const face of GOOGLE_FACES) {
  describe(`examples/firewall-policy-move failures and faults through the ${face.name} (pulumi CLI, sandbox)`, function () {
    this.timeout(600_000);
    let sandbox: GoogleSandbox;

    before(async () => {
      sandbox = await startGoogleSandbox({ moveDurationMs: 1000, faultSeed: 7 });
    });
    beforeEach(() => {
      sandbox.reset();
    });
    after(async () => {
      await sandbox.close();
    });

    it("moves the policy back on destroy with restoreOnDelete", async () => {
      const stack = await initProjectStack({
        projectDir: await projectOf(face, "move"),
        config: { ...deployerConfig(sandbox), parentId: { value: B }, restoreOnDelete: { value: "true" } },
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

    it("fails on QUOTA_EXCEEDED with one paragraph under the move, keeps the old parent in state, and succeeds once the fault clears", async () => {
      const stack = await initProjectStack({
        projectDir: await projectOf(face, "move"),
        config: { ...deployerConfig(sandbox), parentId: { value: A } },
      });
      try {
        await stack.up();
        sandbox.setMoveOutcome({ kind: "quotaExceeded" });
        await stack.setConfig({ parentId: { value: B } });
        const failed = await stack.up({ allowFailure: true });
        assert.notEqual(failed.code, 0);
        // One paragraph in the move's own section, the same through both faces: what failed, the server's words (its
        // reason, quota metric and limit), the fix (the help link); no object dump, no stack.
        const quota = `Quota 'FIREWALL_POLICIES_PER_CONTAINER' exceeded.  Limit: 10.0 in ${B}.`;
        const paragraph = moveErrorParagraph(face, failed.stdout);
        assert.match(
          paragraph[0] ?? "",
          new RegExp(
            `^error: Operation operation-\\S+ \\(move of firewall policy ${POLICY} to ${B}\\) failed: HTTP 403 FORBIDDEN$`,
          ),
        );
        assert.deepEqual(paragraph.slice(1), [
          `QUOTA_EXCEEDED: ${quota}`,
          "reason QUOTA_EXCEEDED (compute.googleapis.com) {quotaMetric=compute.googleapis.com/firewall_policies_per_container, " +
            `limitName=FIREWALL-POLICIES-PER-CONTAINER, container=${B}, firewallPolicy=${POLICY}}`,
          "quota metric compute.googleapis.com/firewall_policies_per_container, limit 10 (FIREWALL-POLICIES-PER-CONTAINER), " +
            `dimensions {container=${B}}`,
          "help: Requesting more quota <https://cloud.google.com/docs/quotas/help/request_increase>",
          `message (en-US): ${quota}`,
        ]);
        assert.equal((await moveState(face, stack))["parent"], A);
        assert.equal(await parentOf(sandbox, POLICY), A);
        sandbox.setMoveOutcome({ kind: "success" });
        const { outputs } = await stack.up();
        assert.equal(outputs["parent"], B);
        assert.equal(await parentOf(sandbox, POLICY), B);
      } finally {
        await stack.dispose();
      }
    });

    it("moves exactly once per change under 20% faults, every run losing the answer of a move that took effect", async () => {
      const stack = await initProjectStack({
        projectDir: await projectOf(face, "move"),
        config: { ...deployerConfig(sandbox), parentId: { value: A } },
      });
      try {
        for (const target of [A, B, C]) {
          // The fault that matters for exactly-once: the move POST is handled (the move starts) and its answer is lost.
          // It fires on the first move POST of every run; seeded faults (about 20% of requests, four kinds) hit
          // everything else, that POST's retries included.
          sandbox.setFaults([
            { route: "compute.firewallPolicies.move", kind: "drop", phase: "after", times: 1 },
            { kind: "status", status: 503, rate: 0.05 },
            { kind: "status", status: 429, retryAfterSeconds: 1, rate: 0.05 },
            { kind: "drop", rate: 0.05, phase: "before" },
            { kind: "drop", rate: 0.06, phase: "after" },
          ]);
          const before = sandbox.requests().length;
          await stack.setConfig({ parentId: { value: target } });
          const { outputs } = await stack.up();
          assert.equal(outputs["parent"], target);
          const posts = sandbox
            .requests()
            .slice(before)
            .filter((r) => r.route === "compute.firewallPolicies.move");
          assert.equal(
            posts[0]?.fault,
            "drop:after",
            `the first move POST toward ${target} was handled and its answer lost`,
          );
          assert.ok(
            posts.slice(1).some((r) => r.status === 200),
            `a retry with the same requestId got the operation (${posts.map((p) => `${p.status}${p.fault ? ` ${p.fault}` : ""}`).join(", ")})`,
          );
          // Present and equal: the requestId the state holds for this move, on every POST of it.
          const requestId = (await moveState(face, stack))["__requestId"];
          assert.ok(typeof requestId === "string" && requestId !== "", "the state holds the move's requestId");
          assert.deepEqual(
            posts.map((r) => r.query["requestId"]),
            posts.map(() => requestId),
            "every POST repeated the state's requestId",
          );
          assert.equal(
            moves(sandbox).at(-1)?.details.requestId,
            requestId,
            "the move took effect under that requestId",
          );
        }
        const faulted = sandbox.requests().filter((r) => r.fault !== undefined);
        assert.ok(faulted.length > 3, `random faults were injected too (${faulted.length})`);
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
}
