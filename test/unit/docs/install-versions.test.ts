/**
 * The install commands the docs and examples give name the package's version (package.json's) and the one download
 * URL (package.json's repository, docs/decisions/0062-plugin-download-url.md): a release that changes the version
 * fails here until they say the new one.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { releaseLocation } from "../../../scripts/gen-schema";

const ROOT = path.join(__dirname, "..", "..", "..", "..");
/** examples/yaml's package declaration, whose file name carries the version too. */
const DECLARATIONS = path.join("examples", "yaml", "sdks", "opsledger");
const FILES = [
  "README.md",
  "docs/_index.md",
  "docs/installation-configuration.md",
  "examples/yaml/README.md",
  "examples/yaml/Pulumi.yaml",
  "examples/go/README.md",
  "examples/python/README.md",
  "test/fixtures/release-install/yaml/Pulumi.yaml",
  ...fs.readdirSync(path.join(ROOT, DECLARATIONS)).map((f) => path.join(DECLARATIONS, f)),
];
const VERSIONED = [
  /sdk\/go@v(\d+\.\d+\.\d+)/g,
  /plugin install resource opsledger (\d+\.\d+\.\d+)/g,
  /package add opsledger@(\d+\.\d+\.\d+)/g,
  /sdks\/opsledger\/opsledger-(\d+\.\d+\.\d+)\.yaml/g,
  /^\s*version: (\d+\.\d+\.\d+)$/gm,
];

describe("the install commands of the docs and examples", () => {
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { version: string };
  const url = releaseLocation().pluginDownloadURL;

  it("name package.json's version wherever they name one", () => {
    const wrong: string[] = [];
    let seen = 0;
    for (const file of FILES) {
      const text = fs.readFileSync(path.join(ROOT, file), "utf8");
      for (const pattern of VERSIONED) {
        for (const m of text.matchAll(pattern)) {
          seen++;
          if (m[1] !== version) wrong.push(`${file}: ${m[0].trim()}`);
        }
      }
    }
    assert.deepEqual(wrong, []);
    assert.deepEqual(fs.readdirSync(path.join(ROOT, DECLARATIONS)), [`opsledger-${version}.yaml`]);
    assert.ok(seen >= 10, `the patterns find the commands (${String(seen)})`);
  });

  it("name one download URL, the schema's", () => {
    const urls = new Set<string>();
    for (const file of FILES) {
      for (const m of fs
        .readFileSync(path.join(ROOT, file), "utf8")
        .matchAll(/github:\/\/api\.github\.com\/[\w./-]+/g)) {
        urls.add(m[0].replace(/[.`]+$/, ""));
      }
    }
    assert.deepEqual([...urls], [url]);
  });
});
