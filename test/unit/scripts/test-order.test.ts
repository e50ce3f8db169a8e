import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import path from "node:path";
import { compiledSpecs, orderSpecs, parseSlowestFirst } from "../../../scripts/test-order";

const ROOT = path.resolve(__dirname, "../../../..");

describe("scripts/test-order: the order npm test hands spec files to mocha's workers", () => {
  const all = [
    "dist/test/unit/a.test.js",
    "dist/test/e2e/z.test.js",
    "dist/test/integration/fabric-network/f.test.js",
    "dist/test/e2e/b.test.js",
    "dist/test/unit/scripts/c.test.js",
  ];

  it("puts the listed files first in the list's order, then the rest by tier and name, each file once", () => {
    const order = orderSpecs(all, ["test/integration/fabric-network/f.test.ts", "test/e2e/z.test.ts"]);
    assert.deepEqual(order, [
      "dist/test/integration/fabric-network/f.test.js",
      "dist/test/e2e/z.test.js",
      "dist/test/e2e/b.test.js",
      "dist/test/unit/a.test.js",
      "dist/test/unit/scripts/c.test.js",
    ]);
  });

  it("refuses a listed file the build does not have, naming the list", () => {
    assert.throws(
      () => orderSpecs(all, ["test/e2e/gone.test.ts"]),
      /^Error: test\/slowest-first\.txt names dist\/test\/e2e\/gone\.test\.js, which is not a spec file of this build$/,
    );
    assert.throws(() => orderSpecs(all, ["test/e2e/helper.ts"]), /"test\/e2e\/helper\.ts" is not a spec file path/);
  });

  it("reads paths from the list, skipping comments and the figures beside them", () => {
    assert.deepEqual(parseSlowestFirst("# comment\n\ntest/e2e/a.test.ts   156 s\n  test/unit/b.test.ts # why\n"), [
      "test/e2e/a.test.ts",
      "test/unit/b.test.ts",
    ]);
  });

  it("orders this repository's build: every compiled spec file once, test/slowest-first.txt's files first", () => {
    const specs = compiledSpecs(ROOT);
    const listed = parseSlowestFirst(readFileSync(path.join(ROOT, "test/slowest-first.txt"), "utf8"));
    const order = orderSpecs(specs, listed);
    assert.ok(listed.length >= 10, "the list names the long files");
    assert.deepEqual([...order].sort(), [...specs].sort());
    assert.deepEqual(
      order.slice(0, listed.length),
      listed.map((f) => `dist/${f.replace(/\.ts$/, ".js")}`),
    );
    assert.ok(specs.includes("dist/test/unit/scripts/test-order.test.js"), "this file is among them");
  });
});
