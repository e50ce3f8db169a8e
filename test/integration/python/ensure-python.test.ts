/**
 * scripts/ensure-python.sh says plainly what cannot be had, before anything is half-made: no CPython 3.10 or newer on
 * PATH (naming each interpreter it found too old and what to install), and an index that serves no `pulumi` (naming
 * PyPI / PIP_INDEX_URL; the half-made virtualenv removed, so the next run starts again).
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "../../helpers/project-stack";
import { run } from "../../helpers/python-toolchain";

const SCRIPT = path.join(REPO_ROOT, "scripts", "ensure-python.sh");

/** A PATH of the tools the script uses (bash, node, coreutils, flock), and `extra` first. */
function toolPath(dir: string, extra: Readonly<Record<string, string>>): string {
  const bin = path.join(dir, "bin");
  fs.mkdirSync(bin);
  for (const tool of [
    "bash",
    "node",
    "sort",
    "head",
    "cut",
    "sha256sum",
    "cat",
    "find",
    "xargs",
    "mkdir",
    "rm",
    "flock",
    "touch",
    "dirname",
    "printf",
  ]) {
    const found = execFileSync("bash", ["-c", `command -v ${tool}`], { encoding: "utf8" }).trim();
    fs.symlinkSync(found, path.join(bin, tool));
  }
  for (const [name, text] of Object.entries(extra)) {
    fs.writeFileSync(path.join(bin, name), text, { mode: 0o755 });
  }
  return bin;
}

describe("scripts/ensure-python.sh when something cannot be had", function () {
  this.timeout(120_000);
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-ensure-python-"));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("names the interpreter that is too old and what to install when no CPython >= 3.10 is on PATH", async () => {
    const old = `#!/bin/sh\necho 3.8.10\n`;
    const PATH = toolPath(dir, { python3: old });
    const { code, output } = await run("bash", [SCRIPT], {
      cwd: dir,
      env: { PATH, HOME: dir, OPSLEDGER_CACHE_DIR: path.join(dir, "cache") },
    });
    assert.equal(code, 1, output);
    assert.match(
      output,
      new RegExp(`\\[opsledger:python\\] ${PATH}/python3 is Python 3\\.8\\.10, older than the 3\\.10`),
    );
    assert.match(
      output,
      /no CPython 3\.10 or newer on PATH \(python3, python3\.10 … python3\.14\): install one \(Debian: apt-get install python3 python3-venv\)/,
    );
    assert.ok(!fs.existsSync(path.join(dir, "cache", "python")), "nothing was created");
  });

  it("names PyPI and PIP_INDEX_URL, and leaves no half-made virtualenv, when pip cannot get pulumi", async () => {
    // An index that refuses every connection: a port that was free a moment ago.
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
    // The interpreter itself, not a wrapper on PATH (pyenv's shims need pyenv's own tools).
    const python = execFileSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).trim();
    const PATH = `${toolPath(dir, {})}:${path.dirname(python)}`;
    const cache = path.join(dir, "cache");
    const { code, output } = await run("bash", [SCRIPT], {
      cwd: dir,
      env: {
        PATH,
        HOME: dir,
        OPSLEDGER_CACHE_DIR: cache,
        PIP_INDEX_URL: `http://127.0.0.1:${String(port)}/simple`,
        PIP_FIND_LINKS: "",
        PIP_RETRIES: "0",
        PIP_DEFAULT_TIMEOUT: "5",
        PIP_NO_CACHE_DIR: "1",
      },
    });
    assert.equal(code, 1, output);
    assert.match(output, /creating a virtualenv \(Python 3\.\d+\.\d+, /);
    assert.match(
      output,
      new RegExp(
        `pip could not install pulumi==\\d+\\.\\d+\\.\\d+ \\(see above\\): PyPI \\(or PIP_INDEX_URL\\) must be reachable`,
      ),
    );
    const left = fs.readdirSync(path.join(cache, "python")).filter((f) => !f.endsWith(".lock"));
    assert.deepEqual(left, [], "the half-made virtualenv was removed");
  });
});
