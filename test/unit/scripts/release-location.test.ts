/**
 * Where releases live is written once, in package.json's `repository`: the schema's `pluginDownloadURL`, the Go SDK's
 * import path and every generated SDK's plugin metadata derive from it, and the npm package's `pulumi` key names the
 * same place without asking TypeScript programs for a plugin (docs/decisions/0062-plugin-download-url.md).
 */
import { strict as assert } from "node:assert";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PYTHON_REQUIRES, releaseLocation } from "../../../scripts/gen-schema";

const ROOT = join(__dirname, "..", "..", "..", "..");
const read = (file: string): string => readFileSync(join(ROOT, file), "utf8");
const json = (file: string): Record<string, unknown> => JSON.parse(read(file)) as Record<string, unknown>;

describe("the release location", () => {
  const location = releaseLocation();

  it("derives the download URL and the Go module from package.json's repository", () => {
    assert.deepEqual(location, {
      owner: "pulumi-opsledger",
      repo: "pulumi-opsledger",
      repositoryUrl: "https://github.com/pulumi-opsledger/pulumi-opsledger",
      pluginDownloadURL: "github://api.github.com/pulumi-opsledger/pulumi-opsledger",
      goModule: "github.com/pulumi-opsledger/pulumi-opsledger/sdk/go",
      goImportBasePath: "github.com/pulumi-opsledger/pulumi-opsledger/sdk/go/opsledger",
    });
  });

  it("is carried by the schema, both generated SDKs and the npm package's pulumi key", () => {
    const schema = json("provider/schema/schema.json");
    assert.equal(schema["pluginDownloadURL"], location.pluginDownloadURL);
    assert.equal(schema["repository"], location.repositoryUrl);
    const python = json("sdk/python/pulumi_opsledger/pulumi-plugin.json");
    const version = (json("package.json") as { version: string }).version;
    assert.deepEqual(python, { resource: true, name: "opsledger", version, server: location.pluginDownloadURL });
    assert.deepEqual(json("sdk/go/opsledger/pulumi-plugin.json"), {
      resource: true,
      name: "opsledger",
      server: location.pluginDownloadURL,
    });
    assert.match(read("sdk/go/go.mod"), new RegExp(`^module ${location.goModule}$`, "m"));
    assert.ok(read("sdk/go/opsledger/internal/pulumiUtilities.go").includes(location.pluginDownloadURL));
    const key = (json("package.json") as { pulumi: Record<string, unknown> }).pulumi;
    assert.equal(key["resource"], false, "a TypeScript program is never asked to install the plugin");
    assert.equal(key["name"], "opsledger");
    assert.equal(key["server"], location.pluginDownloadURL);
  });

  it("declares the Python floor of the pulumi package itself", () => {
    assert.equal(PYTHON_REQUIRES, ">=3.10");
    assert.match(read("sdk/python/pyproject.toml"), /^\s*requires-python = ">=3\.10"$/m);
  });

  it("refuses a repository that is not on GitHub, naming the field", () => {
    const dir = mkdtempSync(join(tmpdir(), "opsledger-release-location-"));
    try {
      writeFileSync(join(dir, "package.json"), JSON.stringify({ repository: { url: "https://example.test/x.git" } }));
      assert.throws(() => releaseLocation(dir), /package\.json's repository\.url must name the GitHub repository/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
