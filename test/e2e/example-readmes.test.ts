/**
 * Every example's README works as written: the shell block each README marks (`<!-- readme-commands: ... -->`) runs
 * in the example's directory with bash, exactly as printed, in a user's shell (HOME and the system PATH, not the test
 * runner's environment) that pasted the `export` lines of `npm run sandbox` (started from that shell, as a user
 * starts it): Node and Pulumi are on PATH only through the line it printed. Nothing is transpiled only: the language host compiles each program
 * as it would a user's. examples/pr-preview's block runs in test/e2e/pr-preview.test.ts, which owns that directory's
 * `npm ci` (two test files installing into one node_modules at once would break each other).
 */
import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { goBinDir, goBuild } from "../helpers/go-toolchain";
import { REPO_ROOT, exampleDir } from "../helpers/project-stack";
import { readmeCommands, runReadmeCommands, userShellEnv } from "../helpers/readme-commands";
import { startSandboxCli } from "../helpers/sandbox-cli";
import type { SandboxCli } from "../helpers/sandbox-cli";

/** What each example's commands must print (besides exiting 0), as the README's comments promise. */
const EXPECTED: Readonly<Record<string, readonly RegExp[]>> = {
  "firewall-policy-move": [/^\s+~ parentId\s*: "folders\/200000000003" => "folders\/200000000002"$/m],
  "inventory-source-group-deletion": [/deleted inventory source group 5005/],
  "operation-wait": [/^DONE$/m],
  "read-only": [/"roles\/[a-zA-Z.]+"/],
  // The YAML program through the resource plugin: the parent change is one line, an in-place update.
  yaml: [/^\s+~ parentId\s*: "folders\/200000000003" => "folders\/200000000002"$/m, /^\s+~ 1 updated$/m],
  // The second `pulumi up` changes nothing: the stack, the component and its submission.
  ledger: [/ledgerValidationCode\s*: "VALID"/, /^\s+3 unchanged$/m],
  demo: [/ledgerValidationCode\s*: "VALID"/, /^\s+- \d+ deleted$/m],
  // Org2MSP approves from its stack; Org1MSP's preview sees that approval, its up commits; its second up sends nothing
  // (the stack, its package, installation, approval, definition and the transaction's component and submission).
  chaincode: [
    /approved now: Org1MSP no, Org2MSP yes/,
    /committedSequence\s*: 1/,
    /invokeValidationCode\s*: "VALID"/,
    /^\s+7 unchanged$/m,
  ],
  // The Go program through the generated SDK and the plugin, as the YAML one (last: test/e2e/plugin-examples.test.ts
  // warms Go's build cache meanwhile).
  go: [/^\s+~ parentId\s*: "folders\/200000000003" => "folders\/200000000002"$/m, /^\s+~ 1 updated$/m],
  // The Python program through the generated SDK and the plugin: the same, and its ledger transaction VALID.
  python: [
    /ledgerValidationCode\s*: "VALID"/,
    /^\s+~ parentId\s*: "folders\/200000000003" => "folders\/200000000002"$/m,
    /^\s+~ 1 updated$/m,
  ],
};
/** Examples whose block another test file runs. */
const ELSEWHERE = ["channel", "pr-preview", "unit-testing"];

describe("every example's README commands, as written, against npm run sandbox (pulumi CLI)", function () {
  this.timeout(900_000);
  let sandbox: SandboxCli | undefined;
  let tmp: string;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-readmes-"));
    sandbox = await startSandboxCli();
  });
  after(() => {
    sandbox?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("has a README with a marked block of commands in every example", () => {
    const examples = fs
      .readdirSync(path.join(REPO_ROOT, "examples"), { withFileTypes: true })
      .filter((d) => d.isDirectory() && fs.existsSync(path.join(REPO_ROOT, "examples", d.name, "Pulumi.yaml")))
      .map((d) => d.name);
    const unmarked = examples.filter((name) => {
      const readme = path.join(REPO_ROOT, "examples", name, "README.md");
      if (!fs.existsSync(readme)) return true;
      const text = fs.readFileSync(readme, "utf8");
      // A block for a network of `npm run fabric:up`'s kind is marked as such (examples/channel: its e2e file runs it).
      return readmeCommands(text) === undefined && readmeCommands(text, "fabric-up-commands") === undefined;
    });
    assert.deepEqual(unmarked, []);
    assert.deepEqual(examples.sort(), [...Object.keys(EXPECTED), ...ELSEWHERE].sort());
  });

  it("runs them in a user's shell: Node and Pulumi only through the PATH line npm run sandbox printed", () => {
    assert.ok(sandbox);
    const which = (env: NodeJS.ProcessEnv): { code: number | null; out: string } => {
      const r = spawnSync("bash", ["-c", "command -v pulumi && node -p process.versions.node"], {
        env,
        encoding: "utf8",
      });
      return { code: r.status, out: r.stdout.trim() };
    };
    assert.equal(sandbox.base["PATH"], "/usr/local/bin:/usr/bin:/bin");
    const user = userShellEnv(sandbox);
    const added = (user["PATH"] ?? "").split(":").filter((d) => !sandbox?.base["PATH"]?.split(":").includes(d));
    // The pasted PATH line prepends the project's tool directories to the shell's own PATH, and nothing else.
    assert.equal(user["PATH"], [...added, sandbox.base["PATH"]].join(":"));
    assert.ok(!(user["PATH"] ?? "").includes("node_modules"), user["PATH"]);
    const { code, out } = which(user);
    assert.equal(code, 0, out);
    const [pulumi = "", node = ""] = out.split("\n");
    assert.ok(
      added.includes(path.dirname(pulumi)),
      `${pulumi} is in a directory the export line added (${added.join(":")})`,
    );
    assert.ok(Number(node.split(".")[0]) >= 22, `Node ${node} is the project's (>= 22)`);
  });

  for (const [name, patterns] of Object.entries(EXPECTED)) {
    it(`runs examples/${name}/README.md's commands as written`, async () => {
      assert.ok(sandbox);
      const reset = await fetch(`${sandbox.url}/_sandbox/reset`, { method: "POST" });
      assert.equal(reset.status, 200, "the Google sandbox resets between examples");
      // The Go language host compiles on every command: fill Go's build cache first (or wait for
      // plugin-examples.test.ts's warm-up of the same cache), so a cold cache is paid once, not inside the block's first
      // preview.
      // The user's PATH stays behind Go's: its C compiler decides whether cgo is on, and with it the cache's keys.
      if (name === "go") {
        const user = userShellEnv(sandbox);
        await goBuild(exampleDir("go"), { ...user, PATH: `${goBinDir()}:${user["PATH"] ?? ""}` });
      }
      const output = await runReadmeCommands(name, userShellEnv(sandbox), tmp);
      for (const pattern of patterns) assert.match(output, pattern, `examples/${name}: ${output}`);
    });
  }
});
