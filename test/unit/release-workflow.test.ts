/**
 * .github/workflows/release.yml: valid for GitHub (the action validator examples/pr-preview's workflow is checked
 * with), and it publishes what `npm run release` wrote and the install tests proved, each artifact to its registry.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { validateWorkflow } from "@action-validator/core";
import { archiveName } from "../../scripts/release";

const ROOT = path.resolve(__dirname, "..", "..", "..");
const WORKFLOW = path.join(ROOT, ".github", "workflows", "release.yml");
const text = (): string => fs.readFileSync(WORKFLOW, "utf8");

describe(".github/workflows/release.yml", () => {
  it("passes the GitHub workflow schema check", () => {
    assert.deepEqual(validateWorkflow(text()).errors, []);
  });

  it("is caught by the check when a step is malformed (the check can fail)", () => {
    const broken = text().replace("runs-on: ubuntu-latest", "runs-on: [ubuntu-latest\n");
    assert.notEqual(validateWorkflow(broken).errors.length, 0);
  });

  it("runs on version tags, builds with npm run release and runs the install tests on that folder first", () => {
    const t = text();
    assert.match(t, /on:\n {2}push:\n {4}tags: \["v\*\.\*\.\*"\]/);
    const build = t.indexOf("run: npm run release");
    const tests = t.indexOf("run: npm test -- test/e2e/release");
    const publish = t.indexOf("gh release create");
    assert.ok(build > 0 && tests > build && publish > tests, "build, then the install tests, then publishing");
    assert.match(t, /OPSLEDGER_RELEASE_DIR: \$\{\{ github\.workspace \}\}\/dist\/release/);
    assert.ok(fs.existsSync(path.join(ROOT, "test", "e2e", "release")), "the install tests' folder exists");
  });

  it("publishes each artifact where its users' installer looks", () => {
    const t = text();
    // The plugin archives go to the GitHub release the schema's github:// URL names, with their checksums.
    assert.match(t, /gh release create "\$GITHUB_REF_NAME"[\s\S]*find dist\/release -maxdepth 1 -type f/);
    assert.ok(archiveName("1.2.3", "linux-amd64").startsWith("pulumi-resource-opsledger-v1.2.3-"));
    assert.match(t, /npm publish --provenance --access public "dist\/release\/pulumi-opsledger-\$VERSION\.tgz"/);
    assert.match(t, /uses: pypa\/gh-action-pypi-publish@release\/v1[\s\S]*packages-dir: dist\/pypi/);
    // A module in the repository's sdk/go folder is tagged sdk/go/v<version>, as Go requires.
    assert.match(t, /git tag "sdk\/go\/v\$VERSION" "\$GITHUB_SHA"/);
    assert.match(t, /"\$GITHUB_REF_NAME" != "v\$version"/);
  });
});
