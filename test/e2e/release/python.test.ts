/**
 * A Python user installs the release as Python users install any Pulumi provider: `pip install pulumi-opsledger` from
 * a PEP 503 index on 127.0.0.1 (the release's wheel and sdist, and the wheels they require), in a shell with no
 * Node.js and no npm, an empty plugin cache and automatic acquisition on. `pulumi up` of examples/python's program
 * (copied into a fresh project whose Pulumi.yaml names no plugin path) makes the engine download the plugin archive
 * for this platform by itself, then moves a firewall policy, reads every data source and commits a ledger
 * transaction against the sandboxes; a parent change is one in-place update.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { exampleDir, REPO_ROOT } from "../../helpers/project-stack";
import { runShell } from "../../helpers/readme-commands";
import {
  installBlock,
  startInstallWorld,
  upAcquiringThePlugin,
  VERSION,
  writePulumiYaml,
} from "../../helpers/release-install";
import type { InstallWorld } from "../../helpers/release-install";
import { startSimpleIndex } from "../../helpers/registries";
import type { StandIn } from "../../helpers/registries";

describe("the release through pip: pip install pulumi-opsledger, then pulumi up acquires the plugin", function () {
  this.timeout(1_200_000);
  let world: InstallWorld | undefined;
  let index: StandIn | undefined;
  let env: Record<string, string>;
  let project: string;

  before(async () => {
    world = await startInstallWorld("python", { tools: ["python3"] });
    const wheelhouse = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-python-wheelhouse.sh")], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    }).trim();
    index = await startSimpleIndex([world.release, wheelhouse]);
    env = {
      ...world.env,
      // The user's pip reads only the index it is told of (no machine-wide pip.conf, no wheel cache of ours).
      PIP_INDEX_URL: `${index.url}/simple/`,
      PIP_CONFIG_FILE: "/dev/null",
      PIP_CACHE_DIR: path.join(world.env["HOME"] ?? "", ".cache", "pip"),
      PYTHONDONTWRITEBYTECODE: "1",
    };
    project = path.join(world.tmp, "my-python");
    fs.mkdirSync(project);
    for (const f of ["__main__.py", "opsledger_example.py"]) {
      fs.copyFileSync(path.join(exampleDir("python"), f), path.join(project, f));
    }
    writePulumiYaml(project, "my-python", ["runtime:", "  name: python", "  options:", "    virtualenv: venv"]);
  });
  after(async () => {
    await index?.close();
    await world?.close();
  });

  it("has neither Node.js nor npm in the user's shell", async () => {
    const out = await runShell("command -v node || echo no-node; command -v npm || echo no-npm", project, env, "which");
    assert.deepEqual(out.trim().split("\n"), ["no-node", "no-npm"]);
  });

  it("installs with examples/python/README.md's commands from the index: the package and what it requires", async () => {
    const out = await runShell(installBlock("python"), project, env, "pip install");
    assert.match(
      out,
      new RegExp(`^Successfully installed .*\\bpulumi[-_]opsledger-${VERSION.replace(/\./g, "\\.")}\\b`, "m"),
    );
    const files = index?.requests.filter((r) => r.startsWith("GET /files/")) ?? [];
    assert.ok(files.includes(`GET /files/pulumi_opsledger-${VERSION}-py3-none-any.whl`), files.join("\n"));
    assert.ok(
      files.some((r) => /^GET \/files\/pulumi-\d/.test(r)),
      "pulumi came from the index too",
    );
  });

  it("pulumi up downloads the plugin for this platform once, then moves, reads and commits a transaction", async () => {
    assert.ok(world);
    const { output, outputs } = await upAcquiringThePlugin(world, project, env, [
      "pulumi config set parentId folders/200000000002",
      "pulumi up --yes --skip-preview",
    ]);
    assert.match(output, /ledgerValidationCode\s*: "VALID"/);
    assert.match(output, /^\s+~ 1 updated$/m);
    assert.equal(outputs["parent"], "folders/200000000002");
    assert.equal(outputs["subscriptionState"], "ACTIVE", "a data source read through the plugin");
    assert.equal(outputs["ledgerValidationCode"], "VALID");
  });
});
