/**
 * The committed Python SDK (sdk/python) is what Pulumi's generator makes of the plugin's schema today
 * (scripts/gen-python-sdk.sh --check), at package.json's version, and installs with pip as users install it: from the
 * sdk/python folder of the npm package (`npm pack`'s tarball) and from the wheel `npm run build:python` builds, each
 * into a fresh virtualenv of the machine's Python, where the package imports with its type marker and its docs.
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { releaseLocation } from "../../../scripts/gen-schema";
import { REPO_ROOT } from "../../helpers/project-stack";
import { pythonBinDir, pythonEnv, run } from "../../helpers/python-toolchain";

const SCRIPT = join(REPO_ROOT, "scripts", "gen-python-sdk.sh");
const SDK = join(REPO_ROOT, "sdk", "python");
const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as { version: string }).version;

function check(dir?: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile("bash", [SCRIPT, "--check", ...(dir === undefined ? [] : [dir])], (error, _stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stderr });
    });
  });
}

/** What a program importing the installed package sees: its version, files and one property's documentation. */
const PROBE = `
import importlib.metadata, json, pathlib, pulumi_opsledger
from pulumi_opsledger import compute
root = pathlib.Path(pulumi_opsledger.__file__).parent
print(json.dumps({
  "version": importlib.metadata.version("pulumi_opsledger"),
  "site": "site-packages" in str(root),
  "typed": (root / "py.typed").exists(),
  "plugin": json.loads((root / "pulumi-plugin.json").read_text()),
  "doc": compute.FirewallPolicyMoveArgs.parent_id.__doc__.strip(),
}))
`;

/** Installs `target` with pip into a fresh virtualenv in `dir` and returns what PROBE prints there. */
async function installAndProbe(dir: string, target: string): Promise<Record<string, unknown>> {
  // The machine's interpreter, the one the project's virtualenv was made from.
  const base = pythonBinDir();
  const python = execFileSync(join(base, "python3"), ["-c", "import sys; print(sys._base_executable)"], {
    encoding: "utf8",
  }).trim();
  const venv = join(dir, "venv");
  const env = pythonEnv(join(venv, "bin"));
  const made = await run(python, ["-m", "venv", venv], { cwd: dir, env });
  assert.equal(made.code, 0, made.output);
  // pulumi and its dependencies (grpcio, protobuf, ...) come from the project's virtualenv through a .pth file, so pip
  // finds them installed and installs the SDK alone: a cold install of them from pip's cache took ~100 s here.
  const site = (bin: string): string =>
    execFileSync(join(bin, "python3"), ["-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], {
      encoding: "utf8",
    }).trim();
  writeFileSync(join(site(join(venv, "bin")), "opsledger-base.pth"), `${site(base)}\n`);
  const pip = await run(join(venv, "bin", "python3"), ["-m", "pip", "install", "--disable-pip-version-check", target], {
    cwd: dir,
    env,
  });
  assert.equal(pip.code, 0, pip.output);
  const probe = await run(join(venv, "bin", "python3"), ["-c", PROBE], { cwd: dir, env });
  assert.equal(probe.code, 0, probe.output);
  return JSON.parse(probe.output) as Record<string, unknown>;
}

const EXPECTED = {
  version: VERSION,
  site: true,
  typed: true,
  // Where the engine downloads the plugin from (docs/decisions/0062-plugin-download-url.md).
  plugin: { resource: true, name: "opsledger", version: VERSION, server: releaseLocation().pluginDownloadURL },
  doc: "The parent to keep the policy under: `folders/<digits>` or `organizations/<digits>`. Changing it moves the policy in place.",
};

describe("the Python SDK: committed as Pulumi generates it from the schema, installable with pip", function () {
  this.timeout(300_000);

  it("equals what `pulumi package gen-sdk --language python --version <package.json's>` writes", async () => {
    const { code, stderr } = await check();
    assert.equal(code, 0, stderr);
    const pyproject = readFileSync(join(SDK, "pyproject.toml"), "utf8");
    assert.match(pyproject, new RegExp(`^\\s*version = "${VERSION.replace(/\./g, "\\.")}"$`, "m"));
    assert.match(pyproject, /^\s*name = "pulumi_opsledger"$/m);
    assert.match(pyproject, /pulumi_opsledger = \["py\.typed", "pulumi-plugin\.json"\]/);
    const move = readFileSync(join(SDK, "pulumi_opsledger", "compute", "firewall_policy_move.py"), "utf8");
    assert.match(move, /@pulumi\.type_token\("opsledger:compute:FirewallPolicyMove"\)/);
  });

  it("fails, naming the file and the fix, when the committed SDK drifted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "opsledger-python-sdk-"));
    try {
      cpSync(SDK, dir, { recursive: true });
      const file = join(dir, "pulumi_opsledger", "compute", "firewall_policy_move.py");
      writeFileSync(file, readFileSync(file, "utf8").replace("class FirewallPolicyMoveArgs:", "class MoveArgs:"));
      const { code, stderr } = await check(dir);
      assert.equal(code, 1);
      assert.match(stderr, /firewall_policy_move\.py/);
      assert.match(stderr, /sdk\/python differs from what the schema generates: run bash scripts\/gen-python-sdk\.sh/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("installs with `pip install ./node_modules/pulumi-opsledger/sdk/python` from the npm package", async () => {
    const dir = mkdtempSync(join(tmpdir(), "opsledger-python-pack-"));
    try {
      const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", dir], {
        cwd: REPO_ROOT,
        encoding: "utf8",
      }).trim();
      execFileSync("tar", ["-xzf", join(dir, packed), "-C", dir]);
      assert.deepEqual(await installAndProbe(dir, join(dir, "package", "sdk", "python")), EXPECTED);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("installs from the wheel `npm run build:python` builds", async () => {
    const dir = mkdtempSync(join(tmpdir(), "opsledger-python-wheel-"));
    try {
      const wheel = execFileSync("bash", [join(REPO_ROOT, "scripts", "build-python-wheel.sh"), join(dir, "out")], {
        encoding: "utf8",
        stdio: ["ignore", "pipe", "inherit"],
      }).trim();
      assert.equal(wheel, join(dir, "out", `pulumi_opsledger-${VERSION}-py3-none-any.whl`));
      assert.deepEqual(await installAndProbe(dir, wheel), EXPECTED);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
