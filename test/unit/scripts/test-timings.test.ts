import { strict as assert } from "node:assert";
import { summarize } from "../../../scripts/test-timings";

describe("scripts/test-timings: where a test run's time went", function () {
  it("sums the time per tier and lists the slowest files first", function () {
    const text = summarize(
      [
        { file: "dist/test/unit/a.test.js", ms: 1500 },
        { file: "dist/test/e2e/b.test.js", ms: 90_000 },
        { file: "dist/test/integration/c.test.js", ms: 12_250 },
        { file: "dist/test/e2e/d.test.js", ms: 30_000 },
      ],
      2,
    );
    assert.equal(
      text,
      [
        "test time summed over the workers: 133.8 s in 4 files",
        "  e2e          120.0 s",
        "  integration  12.3 s",
        "  unit         1.5 s",
        "slowest files:",
        "     90.0 s  dist/test/e2e/b.test.js",
        "     30.0 s  dist/test/e2e/d.test.js",
      ].join("\n"),
    );
  });

  it("lists the files that finished last, start and end counted from the first file's start", function () {
    const t0 = 1_700_000_000_000;
    const text = summarize(
      [
        { file: "dist/test/unit/a.test.js", startedAt: t0 + 2_000, ms: 1_000 },
        { file: "dist/test/e2e/b.test.js", startedAt: t0, ms: 90_000 },
        { file: "dist/test/e2e/c.test.js", startedAt: t0 + 40_400, ms: 60_000 },
      ],
      1,
    );
    assert.deepEqual(text.split("\n").slice(-4), [
      "last to finish (start → end, from the first file's start):",
      "    +40 s → +100 s   dist/test/e2e/c.test.js",
      "     +0 s → +90 s    dist/test/e2e/b.test.js",
      "     +2 s → +3 s     dist/test/unit/a.test.js",
    ]);
  });
});
