/**
 * Every example's README works as written: the shell block each README marks (`<!-- readme-commands: ... -->`) runs
 * in the example's directory with bash, exactly as printed, in a shell that pasted the `export` lines of
 * `npm run sandbox` (started as a user starts it) and has a fresh HOME (the blocks keep their local backend under
 * `$HOME/.pulumi-local`). Nothing is type-checked only or skipped: the language host compiles each program as it would
 * a user's.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, exampleDir, stripAnsi } from "../helpers/project-stack";
import { startSandboxCli } from "../helpers/sandbox-cli";
import type { SandboxCli } from "../helpers/sandbox-cli";

const MARKER = "<!-- readme-commands:";

/** The ```sh block that follows the README's marker, or undefined when it has none. */
export function readmeCommands(readme: string): string | undefined {
  const at = readme.indexOf(MARKER);
  if (at < 0) return undefined;
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(at));
  assert.ok(block?.[1], "a ```sh block follows the readme-commands marker");
  return block[1];
}

/** What each example's commands must print (besides exiting 0), as the README's comments promise. */
const EXPECTED: Readonly<Record<string, readonly RegExp[]>> = {
  "firewall-policy-move": [/^\s+~ parentId\s*: "folders\/200000000003" => "folders\/200000000002"$/m],
  "inventory-source-group-deletion": [/deleted inventory source group 5005/],
  "operation-wait": [/^DONE$/m],
  "read-only": [/"roles\/[a-zA-Z.]+"/],
  // The second `pulumi up` changes nothing: the stack, the component and its submission.
  ledger: [/ledgerValidationCode\s*: "VALID"/, /^\s+3 unchanged$/m],
  demo: [/ledgerValidationCode\s*: "VALID"/, /^\s+- \d+ deleted$/m],
  "pr-preview": [/^\s+~ parentId\s*: "folders\/200000000003" => "folders\/200000000002"$/m],
};

/** Every example directory, with its README's marked block. */
function examples(): { name: string; commands: string | undefined }[] {
  return fs
    .readdirSync(path.join(REPO_ROOT, "examples"), { withFileTypes: true })
    .filter((d) => d.isDirectory() && fs.existsSync(path.join(REPO_ROOT, "examples", d.name, "Pulumi.yaml")))
    .map((d) => {
      const readme = path.join(REPO_ROOT, "examples", d.name, "README.md");
      return { name: d.name, commands: fs.existsSync(readme) ? readmeCommands(fs.readFileSync(readme, "utf8")) : "" };
    });
}

/** Runs `script` with bash in `cwd`; resolves with its exit code and interleaved output. */
function bash(script: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", script], {
      cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code, output: stripAnsi(output) });
    });
  });
}

describe("every example's README commands, as written, against npm run sandbox (pulumi CLI)", function () {
  this.timeout(900_000);
  let sandbox: SandboxCli | undefined;
  let tmp: string;
  /** The user's shell: their environment (no Pulumi or Google settings of the test run), then the pasted lines. */
  let shellEnv: NodeJS.ProcessEnv;

  before(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-readmes-"));
    sandbox = await startSandboxCli();
    const user = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !k.startsWith("PULUMI_") && !k.startsWith("GOOGLE_")),
    );
    shellEnv = {
      ...user,
      ...sandbox.env,
      // This machine is offline: the CLI must not look for updates or download plugins (a user's machine would).
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      // The fresh HOME keeps npm's cache where it was (examples/pr-preview runs `npm ci`).
      npm_config_cache: process.env["npm_config_cache"] ?? path.join(os.homedir(), ".npm"),
    };
  });
  after(() => {
    sandbox?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("has a README with a marked block of commands in every example", () => {
    const missing = examples()
      .filter((e) => e.commands === undefined || e.commands === "")
      .map((e) => e.name);
    assert.deepEqual(missing, []);
    assert.deepEqual(
      examples()
        .map((e) => e.name)
        .sort(),
      Object.keys(EXPECTED).sort(),
    );
  });

  for (const name of Object.keys(EXPECTED)) {
    it(`runs examples/${name}/README.md's commands as written`, async () => {
      const commands = readmeCommands(fs.readFileSync(path.join(exampleDir(name), "README.md"), "utf8")) ?? "";
      const home = fs.mkdtempSync(path.join(tmp, `${name}-home-`));
      const reset = await fetch(`${sandbox?.url ?? ""}/_sandbox/reset`, { method: "POST" });
      assert.equal(reset.status, 200, "the Google sandbox resets between examples");
      const { code, output } = await bash(commands, exampleDir(name), { ...shellEnv, HOME: home });
      assert.equal(code, 0, `examples/${name}: the README's commands failed:\n${commands}\n--- output ---\n${output}`);
      for (const pattern of EXPECTED[name] ?? []) assert.match(output, pattern, `examples/${name}: ${output}`);
      assert.ok(!fs.existsSync(path.join(exampleDir(name), "Pulumi.dev.yaml")), "`pulumi stack rm` removed its file");
    });
  }
});
