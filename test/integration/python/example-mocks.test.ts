/**
 * examples/python's unit tests (test_program.py: the program under pulumi.runtime.set_mocks, every resource and data
 * source answered by the mocks, no network) run with pytest in the project's virtualenv as part of `npm test`: pytest's
 * exit code and counts are this spec's result. A copy whose mock answers a data source differently must fail.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { exampleDir } from "../../helpers/project-stack";
import { pythonBinDir, pythonEnv, run } from "../../helpers/python-toolchain";

/** pytest's closing counts ("3 passed", "1 failed, 2 passed"), as { passed, failed }. */
function counts(output: string): { passed: number; failed: number } {
  const summary = output.trim().split("\n").at(-1) ?? "";
  const n = (word: string): number => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
  return { passed: n("passed"), failed: n("failed") };
}

function pytest(cwd: string): Promise<{ code: number | null; output: string }> {
  const bin = pythonBinDir({ sdk: true });
  return run(path.join(bin, "python3"), ["-m", "pytest", "-q", "-p", "no:cacheprovider", "test_program.py"], {
    cwd,
    env: pythonEnv(bin),
  });
}

describe("examples/python's pytest unit tests under set_mocks", function () {
  // A cold virtualenv is made once (pip from PyPI, about 40 s); then pytest takes about a second.
  this.timeout(300_000);

  it("pass: every test of test_program.py, none failed", async () => {
    const { code, output } = await pytest(exampleDir("python"));
    const { passed, failed } = counts(output);
    console.log(`      pytest examples/python/test_program.py: ${passed} passed, ${failed} failed`);
    assert.equal(code, 0, output);
    assert.deepEqual({ passed, failed }, { passed: 3, failed: 0 }, output);
  });

  it("fail when a data source's answer is not what the program exports (pytest's failure reaches this spec)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-python-mocks-"));
    try {
      fs.cpSync(exampleDir("python"), dir, { recursive: true });
      const file = path.join(dir, "test_program.py");
      const text = fs.readFileSync(file, "utf8");
      assert.ok(text.includes(`"displayName": "Spring launch 30s"`));
      fs.writeFileSync(file, text.replace(`"displayName": "Spring launch 30s"`, `"displayName": "Autumn launch"`));
      const { code, output } = await pytest(dir);
      assert.equal(code, 1, output);
      assert.deepEqual(counts(output), { passed: 2, failed: 1 }, output);
      assert.match(output, /'creativeName': 'Autumn launch'/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
