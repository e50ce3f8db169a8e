/**
 * examples/policy-pack, whose policies use @pulumi/policy's own `validateResourceOfType(compute.FirewallPolicyMove, …)`
 * and `remediateResourceOfType`, guards a FirewallPolicyMove declared in every language a user writes: TypeScript
 * (examples/firewall-policy-move) and JavaScript (that program transpiled, a project of its own) through the dynamic
 * provider, YAML (its twin), Go
 * (examples/go) and Python (examples/python) through the plugin. On each: an advisory violation (a move without
 * restoreOnDelete in a stack named prod) is printed and the preview and the up succeed; a mandatory one (a move of a
 * policy that is not allow-listed to an organization's root) fails the preview and the up, naming the policy, with no
 * move made; with the pack's config at `remediate`, up sets restoreOnDelete itself. Every other class, on every face's
 * type string, is test/unit/sdk/policy.test.ts's (through @pulumi/policy's own Analyze and Remediate handlers).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox, GoogleSandboxOptions } from "../../sandbox/google";
import { fixture } from "../../sandbox/google";
import { FIREWALL_POLICY_MOVE_TYPE } from "../../sdk/compute/firewall-policy-move";
import { RESOURCES } from "../../provider/registry";
import { goBinDir, goBuild } from "../helpers/go-toolchain";
import { apiMoves } from "../helpers/plugin-example";
import { REPO_ROOT, exampleDir, initProjectStack, pulumiBinDir, stripAnsi } from "../helpers/project-stack";
import type { CommandResult, ConfigValues, ProjectStack } from "../helpers/project-stack";
import { pythonExampleEnv } from "../helpers/python-toolchain";
import { deployerConfig } from "../helpers/sandbox-config";
import { ORG_B_POOL, SA_B, SCOPES, TWO_ORGANIZATIONS_SEED } from "../helpers/two-organizations";

const PACK = exampleDir("policy-pack");
const FOLDER = `folders/${fixture.FIXTURE_FOLDER_IDS.security}`;
const ORGANIZATION = `organizations/${fixture.FIXTURE_ORGANIZATION_ID}`;
const PLUGIN_MOVE = RESOURCES.firewallPolicyMove.token;
/** Google has sunset DV360 v1-v3: the plugin's provider takes the version from stack config (the programs say v4). */
const DV360 = { "opsledger:displayVideoApiVersion": { value: "v4" } };

interface Program {
  readonly language: string;
  /** The project directory, or a function that writes one into a temp dir (removed after the tests). */
  readonly dir: string | (() => string);
  /** The move's type in the stack: the dynamic provider's or the plugin's. */
  readonly moveType: string;
  readonly sandbox?: GoogleSandboxOptions;
  /** The stacks' environment (once, before the tests). */
  readonly setUp?: (sandbox: GoogleSandbox) => Promise<Record<string, string>>;
  /** A stack's config beyond the deployer's and parentId (per stack: the sandbox forgets its tokens on reset). */
  readonly config?: (sandbox: GoogleSandbox) => ConfigValues;
}

/**
 * examples/firewall-policy-move as a JavaScript project of its own (in a temp dir): its program with the types taken
 * out by TypeScript's transpiler, `main: index.js`, the repository's node_modules.
 */
function javascriptTwin(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-policy-javascript-"));
  const source = fs.readFileSync(path.join(exampleDir("firewall-policy-move"), "index.ts"), "utf8");
  const { outputText } = ts.transpileModule(source, {
    compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 },
  });
  fs.writeFileSync(path.join(dir, "index.js"), outputText);
  fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: opsledger-firewall-policy-move-javascript\nruntime: nodejs\n");
  fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "javascript-twin", main: "index.js" }));
  fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
  return dir;
}

const PROGRAMS: readonly Program[] = [
  { language: "TypeScript", dir: exampleDir("firewall-policy-move"), moveType: FIREWALL_POLICY_MOVE_TYPE },
  { language: "JavaScript", dir: javascriptTwin, moveType: FIREWALL_POLICY_MOVE_TYPE },
  {
    language: "YAML",
    dir: path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", "firewall-policy-move"),
    moveType: PLUGIN_MOVE,
  },
  {
    language: "Go",
    dir: exampleDir("go"),
    moveType: PLUGIN_MOVE,
    setUp: async () => {
      const PATH = [pulumiBinDir(), path.dirname(process.execPath), goBinDir(), process.env["PATH"] ?? ""].join(":");
      await goBuild(exampleDir("go"), { ...process.env, PATH });
      return { PATH };
    },
    config: () => DV360,
  },
  {
    language: "Python",
    dir: exampleDir("python"),
    moveType: PLUGIN_MOVE,
    sandbox: { seed: TWO_ORGANIZATIONS_SEED },
    setUp: (sandbox) => Promise.resolve(pythonExampleEnv(sandbox)),
    config: (sandbox) => ({
      ...DV360,
      orgBAccessToken: { value: sandbox.mintToken({ principal: SA_B, scopes: SCOPES }), secret: true },
      orgBWorkforcePool: { value: ORG_B_POOL },
    }),
  },
];

for (const program of PROGRAMS) {
  describe(`examples/policy-pack on a ${program.language} program's move (validateResourceOfType, pulumi CLI)`, function () {
    this.timeout(600_000);
    let sandbox: GoogleSandbox;
    let projectDir: string;
    let env: Record<string, string> | undefined;
    let packConfig: string;
    before(async function () {
      // A cold Go build cache compiles the Pulumi Go SDK; a cold virtualenv installs pulumi from PyPI.
      this.timeout(1_200_000);
      projectDir = typeof program.dir === "string" ? program.dir : program.dir();
      sandbox = await startGoogleSandbox({ moveDurationMs: 500, ...program.sandbox });
      env = await program.setUp?.(sandbox);
      packConfig = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-policy-config-")), "config.json");
      fs.writeFileSync(packConfig, JSON.stringify({ "restore-on-delete-in-prod": { enforcementLevel: "remediate" } }));
    });
    after(async () => {
      await sandbox.close();
      fs.rmSync(path.dirname(packConfig), { recursive: true, force: true });
      if (typeof program.dir !== "string") fs.rmSync(projectDir, { recursive: true, force: true });
    });
    beforeEach(() => {
      sandbox.reset();
    });

    /** Runs `command` with the pack on a new stack of the program (`parentId` set), then removes the stack. */
    async function withPack(
      stackName: string,
      parentId: string,
      command: "preview" | "up",
      check: (r: CommandResult, out: string, stack: ProjectStack) => Promise<void> | void,
      extra: readonly string[] = [],
    ): Promise<void> {
      const stack = await initProjectStack({
        projectDir,
        stackName,
        ...(env === undefined ? {} : { env }),
        config: { ...deployerConfig(sandbox), ...program.config?.(sandbox), parentId: { value: parentId } },
      });
      try {
        const args = command === "up" ? ["up", "--yes", "--skip-preview"] : ["preview"];
        const r = await stack.run([...args, "--policy-pack", PACK, ...extra], { allowFailure: true });
        await check(r, stripAnsi(r.output), stack);
      } finally {
        if (command === "up") await stack.destroy({ allowFailure: true });
        await stack.dispose();
      }
    }

    for (const command of ["preview", "up"] as const) {
      it(`${command}: warns of an advisory violation and succeeds`, () =>
        withPack("prod", FOLDER, command, (r, out) => {
          assert.equal(r.code, 0, out);
          assert.match(out, /\[advisory\]\s+restore-on-delete-in-prod/);
          assert.match(out, /set restoreOnDelete: true on edge-policy in prod/);
          assert.doesNotMatch(out, /\[mandatory\]/);
          assert.equal(apiMoves(sandbox).length, command === "up" ? 1 : 0);
        }));

      it(`${command}: blocks a mandatory violation, naming the policy, the resource's type and the fix; nothing moves`, () =>
        withPack("dev", ORGANIZATION, command, (r, out) => {
          assert.notEqual(r.code, 0, out);
          assert.match(out, /\[mandatory\]\s+org-root-moves-allow-listed/);
          assert.match(out, new RegExp(`firewall policy 700000000002 may not move to ${ORGANIZATION}`));
          assert.match(out, new RegExp(program.moveType.replace(/[/.]/g, "\\$&")));
          assert.deepEqual(apiMoves(sandbox), []);
        }));
    }

    it("up: remediates with the pack's config at remediate: the move is made with restoreOnDelete set", () =>
      withPack(
        "prod",
        FOLDER,
        "up",
        async (r, out, stack) => {
          assert.equal(r.code, 0, out);
          assert.doesNotMatch(out, /\[(advisory|mandatory)\]/);
          const move = ((await stack.exportState()).resources ?? []).find((s) => s.type === program.moveType);
          assert.ok(move, `a ${program.moveType} in state`);
          assert.equal(move.inputs?.["restoreOnDelete"], true);
          assert.deepEqual(
            apiMoves(sandbox).map((m) => m.details.to),
            [FOLDER],
          );
        },
        ["--policy-pack-config", packConfig],
      ));
  });
}
