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
});
