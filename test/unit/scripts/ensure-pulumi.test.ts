import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const ROOT = join(__dirname, "..", "..", "..", "..");
const SCRIPT = join(ROOT, "scripts", "ensure-pulumi.sh");
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, "node_modules", "@pulumi", "pulumi", "package.json"), "utf8")) as {
    version: string;
  }
).version;
const FILE = `pulumi-v${VERSION}-linux-x64.tar.gz`;
const ALL = ["pulumi", "pulumi-language-nodejs", "pulumi-language-yaml", "pulumi-language-go"];

/** Runs the script with no `pulumi` on PATH (only Node.js and the system tools), so the cache path is taken. */
function run(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = { HOME: process.env.HOME, PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, ...env };
  return new Promise((resolve) => {
    execFile("bash", [SCRIPT], { env: clean }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
    });
  });
}

describe("scripts/ensure-pulumi.sh: the cached CLI tree follows the archive, not only its version", function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "opsledger-ensure-pulumi-"));
    mkdirSync(join(dir, "mirror"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  /** Writes a mirror archive whose `pulumi/` folder holds `hosts` (each prints `tag`), and lists it in SHA256SUMS. */
  function mirror(hosts: readonly string[], tag: string): string {
    const tree = join(dir, `tree-${tag}`, "pulumi");
    mkdirSync(tree, { recursive: true });
    for (const h of [...hosts, "pulumi-resource-pulumi-nodejs"]) {
      writeFileSync(join(tree, h), `#!/bin/sh\necho ${h === "pulumi" ? `v${VERSION}` : tag}\n`);
      chmodSync(join(tree, h), 0o755);
    }
    const tar = join(dir, "mirror", FILE);
    execFileSync("tar", ["-C", dirname(tree), "-czf", tar, "pulumi"]);
    const digest = createHash("sha256").update(readFileSync(tar)).digest("hex");
    writeFileSync(join(dir, "mirror", "SHA256SUMS"), `${digest}  ${FILE}\n`);
    return digest;
  }

  it("replaces a cached tree installed from an older archive of the same version, then keeps the new one", async () => {
    const env = { OPSLEDGER_CACHE_DIR: join(dir, "cache"), OPSLEDGER_RELEASE_MIRROR: join(dir, "mirror") };
    const bin = join(dir, "cache", "pulumi", `v${VERSION}`, "bin");
    // The old archive: the CLI and the Node.js host only (what the cache held before the mirror gained YAML and Go).
    const old = mirror(["pulumi", "pulumi-language-nodejs"], "old");
    const first = await run(env);
    assert.equal(first.code, 1, first.stderr);
    assert.match(first.stderr, /lacks one of: pulumi pulumi-language-nodejs pulumi-language-yaml pulumi-language-go/);
    // A tree like that, already in the cache from the days the script checked three files.
    mkdirSync(bin, { recursive: true });
    for (const h of ["pulumi", "pulumi-language-nodejs", "pulumi-resource-pulumi-nodejs"]) {
      writeFileSync(join(bin, h), "#!/bin/sh\necho old\n");
      chmodSync(join(bin, h), 0o755);
    }
    writeFileSync(join(bin, "..", "sha256"), `${old}\n`);

    const fresh = mirror(ALL, "new");
    const second = await run(env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout.trim(), bin);
    assert.match(second.stderr, /the cached Pulumi tree in .* is stale .*installing again/);
    assert.match(second.stderr, new RegExp(`verified ${FILE.replace(/\./g, "\\.")} \\(sha256 ${fresh}`));
    assert.equal(execFileSync(join(bin, "pulumi-language-yaml"), { encoding: "utf8" }), "new\n");
    assert.equal(readFileSync(join(bin, "..", "sha256"), "utf8").trim(), fresh);

    // Unchanged mirror: the cached tree is used as it is (no copy, no message).
    const third = await run(env);
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout.trim(), bin);
    assert.equal(third.stderr, "");

    // The archive rebuilt again under the same version: a complete tree with the old digest is replaced too.
    rmSync(join(dir, "tree-new"), { recursive: true });
    const again = mirror(ALL, "newer");
    assert.notEqual(again, fresh);
    const fourth = await run(env);
    assert.equal(fourth.code, 0, fourth.stderr);
    assert.match(fourth.stderr, new RegExp(`archive sha256 ${fresh}, mirror lists ${again}`));
    assert.equal(execFileSync(join(bin, "pulumi-language-go"), { encoding: "utf8" }), "newer\n");
    assert.equal(existsSync(join(bin, "..", FILE)), false);
  });
});
