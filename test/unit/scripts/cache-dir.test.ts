/**
 * The cache folder's rule, written once in scripts/lib/cache-dir.sh: the ensure-*.sh scripts source it and
 * scripts/lib/run-steps.ts's cacheDir() asks it, so both find the same folder under the same environment.
 */
import assert from "node:assert/strict";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheDir } from "../../../scripts/lib/run-steps";

const SCRIPTS = path.resolve(__dirname, "..", "..", "..", "..", "scripts");

describe("scripts/lib/cache-dir.sh: the project's cache folder, one rule for the scripts and the TypeScript", () => {
  const base = { PATH: process.env["PATH"] ?? "", HOME: "/home/someone" };

  it("takes OPSLEDGER_CACHE_DIR first, then XDG_CACHE_HOME, then ~/.cache, and an empty variable as unset", () => {
    assert.equal(cacheDir({ ...base, OPSLEDGER_CACHE_DIR: "/cache/here", XDG_CACHE_HOME: "/xdg" }), "/cache/here");
    assert.equal(cacheDir({ ...base, XDG_CACHE_HOME: "/xdg" }), "/xdg/pulumi-opsledger");
    assert.equal(cacheDir(base), "/home/someone/.cache/pulumi-opsledger");
    assert.equal(
      cacheDir({ ...base, OPSLEDGER_CACHE_DIR: "", XDG_CACHE_HOME: "" }),
      "/home/someone/.cache/pulumi-opsledger",
    );
  });

  it("is the only file of scripts/ that spells the rule, and every ensure-*.sh that caches sources it", () => {
    const files = fs
      .readdirSync(SCRIPTS, { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(sh|ts)$/.test(f))
      .sort();
    const text = (f: string): string => fs.readFileSync(path.join(SCRIPTS, f), "utf8");
    assert.deepEqual(
      files.filter((f) => text(f).includes("XDG_CACHE_HOME")),
      [path.join("lib", "cache-dir.sh")],
    );
    const ensures = files.filter((f) => /^ensure-.*\.sh$/.test(f));
    assert.ok(ensures.length >= 7, `the ensure scripts are read (${String(ensures.length)})`);
    assert.deepEqual(
      ensures.filter((f) => text(f).includes("$CACHE") && !text(f).includes('/lib/cache-dir.sh"')),
      [],
    );
  });
});
