/**
 * The package as a user gets it, used as README.md's "Using it" says, in a user's shell (HOME and the system PATH
 * only, then the `export` lines of `npm run sandbox` pasted: test/helpers/sandbox-cli.ts): the section's first block of
 * commands (a local backend, `pulumi new typescript`, `npm install pulumi-opsledger`), its usage snippet as index.ts,
 * and its second block (`pulumi preview`, `pulumi up --yes --skip-preview`), each run with bash as written. Two
 * commands need what this offline machine lacks and are pointed elsewhere, nothing else changed: `pulumi new
 * typescript` takes the template from GitHub (here `pulumi new <dir>` with the same files: package.json, Pulumi.yaml,
 * tsconfig.json, index.ts), and `npm install pulumi-opsledger` installs the `npm pack` tarball of this tree (what the
 * registry would serve). Then the test's own checks, with `--skip-preview` as the README writes it: refresh, the short
 * stub in state, destroy.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, dynamicResources } from "../helpers/project-stack";
import type { StackDeployment } from "../helpers/project-stack";
import { previewLines, previewPasses, runShell, userShellEnv } from "../helpers/readme-commands";
import { startSandboxCli } from "../helpers/sandbox-cli";
import type { SandboxCli } from "../helpers/sandbox-cli";

/** The TypeScript block the README marks as its runnable usage snippet. */
export function readmeSnippet(readme: string): string {
  const marker = readme.indexOf("<!-- readme-snippet:");
  assert.ok(marker >= 0, "README.md marks its usage snippet");
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(marker));
  assert.ok(block?.[1], "a ```ts block follows the marker");
  return block[1];
}

/** The two ```sh blocks of "Using it": the one after the commands marker, and the one after the snippet. */
export function readmeSnippetCommands(readme: string): { setUp: string; run: string } {
  const marker = readme.indexOf("<!-- readme-snippet-commands:");
  assert.ok(marker >= 0, "README.md marks the commands of its usage snippet");
  const setUp = /```sh\n([\s\S]*?)```/.exec(readme.slice(marker))?.[1];
  const snippet = readme.indexOf("<!-- readme-snippet:");
  const afterSnippet = readme.slice(readme.indexOf("```", readme.indexOf("```ts", snippet) + 5) + 3);
  const run = /^\s*```sh\n([\s\S]*?)```/.exec(afterSnippet)?.[1];
  assert.ok(setUp && run, "a ```sh block follows the marker, and another the snippet");
  return { setUp, run };
}

/** `line` of the README's block in place of the command it starts with; fails when the README no longer has it. */
function replaceCommand(block: string, command: string, replacement: string): string {
  const lines = block.split("\n");
  const at = lines.findIndex((l) => l.startsWith(command));
  assert.ok(at >= 0, `the README's block runs \`${command}\`:\n${block}`);
  lines[at] = `${replacement}${(lines[at] ?? "").slice(command.length)}`;
  return lines.join("\n");
}

interface AuditEntry {
  kind: string;
  details: { to?: string };
}

describe("the README's usage snippet in a fresh project that installed the npm tarball (pulumi CLI, npm run sandbox)", function () {
  this.timeout(900_000);
  let tmp: string;
  let sandbox: SandboxCli | undefined;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-readme-"));
  });
  after(() => {
    sandbox?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("previews, moves, refreshes and destroys from the installed package, with a short stub in state", async () => {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", tmp], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop();
    const tarball = path.join(tmp, packed ?? "");
    assert.ok(fs.existsSync(tarball), `npm pack produced ${tarball}`);

    const versionOf = (pkg: string): string =>
      (
        JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")) as {
          version: string;
        }
      ).version;
    // The files of Pulumi's `typescript` template, for `pulumi new` to use as it would the downloaded one.
    const template = path.join(tmp, "typescript-template");
    fs.mkdirSync(template);
    fs.writeFileSync(
      path.join(template, "Pulumi.yaml"),
      "name: ${PROJECT}\ndescription: ${DESCRIPTION}\nruntime:\n  name: nodejs\n  options:\n    packagemanager: npm\n" +
        "template:\n  description: A minimal TypeScript Pulumi program\n",
    );
    fs.copyFileSync(
      path.join(REPO_ROOT, "examples", "firewall-policy-move", "tsconfig.json"),
      path.join(template, "tsconfig.json"),
    );
    fs.writeFileSync(path.join(template, "index.ts"), 'import * as pulumi from "@pulumi/pulumi";\n');
    const dependencies = {
      "@pulumi/pulumi": versionOf("@pulumi/pulumi"),
      typescript: versionOf("typescript"),
      "ts-node": versionOf("ts-node"),
      "@types/node": versionOf("@types/node"),
    };
    fs.writeFileSync(
      path.join(template, "package.json"),
      JSON.stringify({ name: "${PROJECT}", main: "index.ts", dependencies }, null, 2),
    );

    const readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
    const { setUp, run } = readmeSnippetCommands(readme);
    sandbox = await startSandboxCli();
    const { url } = sandbox;
    const env = { ...userShellEnv(sandbox), HOME: fs.mkdtempSync(path.join(tmp, "home-")) };
    const edited = replaceCommand(
      replaceCommand(setUp, "pulumi new typescript", `pulumi new ${template}`),
      "npm install pulumi-opsledger",
      `npm install --no-audit --no-fund ${tarball}`,
    );
    // One terminal session, as a user types it: the first block, the snippet saved as index.ts, the second block.
    const snippetFile = path.join(tmp, "snippet.ts");
    fs.writeFileSync(snippetFile, readmeSnippet(readme));
    const output = await runShell(
      `${edited}\ncp ${snippetFile} index.ts\n${run}`,
      tmp,
      env,
      "README.md's Using it, both blocks",
    );
    const project = path.join(tmp, "my-infra");
    assert.equal(fs.readFileSync(path.join(project, "index.ts"), "utf8"), readmeSnippet(readme));
    // Printed by the block's `pulumi preview` line alone: `up --yes --skip-preview` runs no preview pass of its own.
    assert.equal(previewLines(run), 1, run);
    assert.equal(previewPasses(output), 1, output);
    assert.match(output, /^\s+\+ 2 to create$/m);
    assert.match(output, /^\s+parent\s*: "folders\/200000000003"$/m);
    assert.match(output, /^\s+bindings\s*: \[/m);

    const installed = path.join(project, "node_modules", "pulumi-opsledger");
    assert.ok(fs.existsSync(path.join(installed, "dist", "provider", "dynamic", "index.js")));
    assert.ok(!fs.lstatSync(installed).isSymbolicLink(), "installed as a copy, as from the registry");
    assert.ok(!fs.existsSync(path.join(installed, "dist", "test")), "tests are not packed");

    const audit = (await (await fetch(`${url}/_sandbox/audit`)).json()) as { entries: AuditEntry[] };
    assert.deepEqual(
      audit.entries.filter((e) => e.kind === "firewallPolicies.move").map((e) => e.details.to),
      ["folders/200000000003"],
    );
    // The test's own checks, in a shell with the first block's exports (its first line).
    const exportLine = setUp.split("\n")[0] ?? "";
    assert.match(exportLine, /^export PULUMI_CONFIG_PASSPHRASE=/);
    const then = (commands: string): string => `${exportLine}\n${commands}`;
    await runShell(then("pulumi refresh --yes --skip-preview"), project, env, "pulumi refresh");
    const exported = JSON.parse(await runShell(then("pulumi stack export"), project, env, "pulumi stack export")) as {
      deployment: StackDeployment;
    };
    const stub = String(dynamicResources(exported.deployment)[0]?.inputs?.["__provider"]);
    // One line that requires the installed package's provider entry: no copy of our code, no credentials.
    assert.equal(stub, 'exports.handler = () => require("pulumi-opsledger/provider").provider;\n');
    // The provider process (started in the project directory) can only have loaded the installed copy: no folder
    // above the project holds another pulumi-opsledger.
    for (let dir = path.dirname(project); dir !== path.dirname(dir); dir = path.dirname(dir)) {
      assert.ok(!fs.existsSync(path.join(dir, "node_modules", "pulumi-opsledger")), `${dir} holds another copy`);
    }
    const destroyed = await runShell(
      then("pulumi destroy --yes --skip-preview && pulumi stack rm dev --yes"),
      project,
      env,
      "destroy",
    );
    assert.match(destroyed, /stays under folders\/200000000003 \(restoreOnDelete is false\)/);
  });
});
