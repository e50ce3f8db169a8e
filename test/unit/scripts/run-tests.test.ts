import assert from "node:assert/strict";
import { closingLine, mochaArguments, mochaCounts, SelectionError } from "../../../scripts/run-tests";

describe("scripts/run-tests: what npm test hands mocha, and the line CI reads", () => {
  const order = ["dist/test/e2e/slow.test.js", "dist/test/unit/a.test.js"];
  const tree: Record<string, string[]> = {
    "dist/test/unit/docs": ["dist/test/unit/docs/docs-links.test.js"],
    "dist/test/integration": [],
  };
  const under = (dir: string): string[] => tree[dir] ?? [];
  const isDir = (p: string): boolean => `dist/${p.replace(/\/$/, "")}` in tree;

  it("runs every tier in the given order when no spec file is named, passing mocha's options on", () => {
    assert.deepEqual(mochaArguments(["--bail"], order, under, isDir), { specs: order, args: ["--bail"] });
  });

  it("runs only the named files (as compiled) and folders (the spec files under them)", () => {
    assert.deepEqual(
      mochaArguments(
        ["test/e2e/x.test.ts", "test/unit/docs/", "dist/test/unit/y.test.js", "--grep", "z"],
        order,
        under,
        isDir,
      ),
      {
        specs: [],
        args: [
          "dist/test/e2e/x.test.js",
          "dist/test/unit/docs/docs-links.test.js",
          "dist/test/unit/y.test.js",
          "--grep",
          "z",
        ],
      },
    );
  });

  it("refuses a folder that does not exist or holds no spec file, naming it", () => {
    assert.throws(() => mochaArguments(["test/nowhere"], order, under, isDir), {
      name: "Error",
      message: "test/nowhere: no such spec file or folder (name test/.../x.test.ts files or a folder under test/)",
    });
    assert.throws(
      () => mochaArguments(["test/integration"], order, under, isDir),
      (e) => {
        return e instanceof SelectionError && e.message === "test/integration: no spec files under it";
      },
    );
  });

  it("reads mocha's last summary, counting absent lines as 0, and writes CI's closing line", () => {
    const output = "  1 passing\n  earlier\n\n  12 passing (3s)\n  2 pending\n  1 failing\n\n  1) a test\n";
    const counts = mochaCounts(output);
    assert.deepEqual(counts, { passed: 12, failed: 1, pending: 2, failedCounted: true });
    assert.equal(closingLine(counts), "mocha: 12 passed, 1 failed, 2 skipped");
    assert.deepEqual(mochaCounts("Error: No test files found\n"), {
      passed: 0,
      failed: 0,
      pending: 0,
      failedCounted: false,
    });
  });
});
