/**
 * What `npm run release` writes (the folder the install tests install from, test/helpers/release-folder.ts): every
 * file listed in SHA256SUMS and matching it, the plugin archive with its executable at the root, the npm tarball at
 * the version with its `pulumi` key, the wheel and sdist with the Python floor and the plugin's download URL, the Go
 * module zip in the layout the go command checks, and the SBOM in CycloneDX naming the runtime dependencies.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { releaseLocation } from "../../../scripts/gen-schema";
import { archiveName } from "../../../scripts/release";
import { releaseFolder } from "../../helpers/release-folder";
import { BASE_TOOLS, toolbox, userPath, VERSION } from "../../helpers/release-install";

/** The names of the entries of a zip file (a wheel, the Go module), through Python's zipfile. */
function zipEntries(file: string): string[] {
  return execFileSync(
    "python3",
    ["-c", "import sys, zipfile; print('\\n'.join(zipfile.ZipFile(sys.argv[1]).namelist()))", file],
    {
      encoding: "utf8",
    },
  )
    .trim()
    .split("\n");
}

function zipText(file: string, entry: string): string {
  return execFileSync(
    "python3",
    [
      "-c",
      "import sys, zipfile; sys.stdout.write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]).decode())",
      file,
      entry,
    ],
    {
      encoding: "utf8",
    },
  );
}

describe("the release folder npm run release writes", function () {
  this.timeout(900_000);
  let dir: string;
  const location = releaseLocation();

  before(async () => {
    dir = await releaseFolder();
  });

  it("lists every artifact in SHA256SUMS, and each matches", () => {
    const listed = fs
      .readFileSync(path.join(dir, "SHA256SUMS"), "utf8")
      .trim()
      .split("\n")
      .map((l) => l.slice(66));
    const go = `go/${location.goModule}/@v`;
    for (const f of [
      archiveName(VERSION, "linux-amd64"),
      `pulumi-opsledger-${VERSION}.tgz`,
      `pulumi-opsledger-${VERSION}.cdx.json`,
      `pulumi_opsledger-${VERSION}-py3-none-any.whl`,
      `pulumi_opsledger-${VERSION}.tar.gz`,
      `${go}/list`,
      `${go}/v${VERSION}.info`,
      `${go}/v${VERSION}.mod`,
      `${go}/v${VERSION}.zip`,
    ]) {
      assert.ok(listed.includes(f), `SHA256SUMS lists ${f}`);
    }
    execFileSync("sha256sum", ["--check", "--strict", "--quiet", "SHA256SUMS"], { cwd: dir });
  });

  it("puts the executable at the root of this platform's archive, and it prints its schema with no Node.js", () => {
    const list = execFileSync("tar", ["-tzf", path.join(dir, archiveName(VERSION, "linux-amd64"))], {
      encoding: "utf8",
    });
    assert.ok(list.split("\n").includes("pulumi-resource-opsledger"), list);
    assert.ok(!list.includes("/"), "no folders: every file at the root");
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-release-archive-"));
    try {
      execFileSync("tar", ["-xzf", path.join(dir, archiveName(VERSION, "linux-amd64")), "-C", tmp]);
      const tools = toolbox(path.join(tmp, "toolbox"), BASE_TOOLS);
      const schema = execFileSync("pulumi", ["package", "get-schema", path.join(tmp, "pulumi-resource-opsledger")], {
        encoding: "utf8",
        env: {
          HOME: tmp,
          PATH: userPath(tools),
          PULUMI_HOME: path.join(tmp, ".pulumi"),
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
        maxBuffer: 64 << 20,
      });
      const parsed = JSON.parse(schema) as { name: string; version: string; pluginDownloadURL: string };
      assert.deepEqual(
        [parsed.name, parsed.version, parsed.pluginDownloadURL],
        ["opsledger", VERSION, location.pluginDownloadURL],
      );
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });

  it("packs the npm package at the version, naming the plugin with resource false", () => {
    const pkg = JSON.parse(
      execFileSync("tar", ["-xOzf", path.join(dir, `pulumi-opsledger-${VERSION}.tgz`), "package/package.json"], {
        encoding: "utf8",
      }),
    ) as { version: string; pulumi: Record<string, unknown>; peerDependencies: Record<string, string> };
    assert.equal(pkg.version, VERSION);
    assert.deepEqual(
      { ...pkg.pulumi, comment: undefined },
      {
        comment: undefined,
        resource: false,
        name: "opsledger",
        server: location.pluginDownloadURL,
      },
    );
    assert.match(pkg.peerDependencies["@pulumi/pulumi"] ?? "", /^\^3\./);
  });

  it("builds the wheel and sdist with the Python floor and the plugin's download URL", () => {
    const wheel = path.join(dir, `pulumi_opsledger-${VERSION}-py3-none-any.whl`);
    const metadata = zipText(wheel, `pulumi_opsledger-${VERSION}.dist-info/METADATA`);
    assert.match(metadata, /^Requires-Python: >=3\.10$/m);
    assert.match(metadata, /^Name: pulumi_opsledger$/m);
    assert.deepEqual(JSON.parse(zipText(wheel, "pulumi_opsledger/pulumi-plugin.json")), {
      resource: true,
      name: "opsledger",
      version: VERSION,
      server: location.pluginDownloadURL,
    });
    const sdist = execFileSync("tar", ["-tzf", path.join(dir, `pulumi_opsledger-${VERSION}.tar.gz`)], {
      encoding: "utf8",
    });
    assert.ok(sdist.includes(`pulumi_opsledger-${VERSION}/pulumi_opsledger/pulumi-plugin.json`), sdist);
  });

  it("writes the Go module as a proxy serves it: every file under <module>@v<version>/, the module's own go.mod", () => {
    const v = path.join(dir, "go", location.goModule, "@v");
    assert.equal(fs.readFileSync(path.join(v, "list"), "utf8"), `v${VERSION}\n`);
    assert.equal(
      (JSON.parse(fs.readFileSync(path.join(v, `v${VERSION}.info`), "utf8")) as { Version: string }).Version,
      `v${VERSION}`,
    );
    assert.equal(
      fs.readFileSync(path.join(v, `v${VERSION}.mod`), "utf8"),
      fs.readFileSync(path.join(__dirname, "..", "..", "..", "..", "sdk", "go", "go.mod"), "utf8"),
    );
    const entries = zipEntries(path.join(v, `v${VERSION}.zip`));
    const prefix = `${location.goModule}@v${VERSION}/`;
    assert.deepEqual(
      entries.filter((e) => !e.startsWith(prefix)),
      [],
    );
    assert.ok(
      entries.includes(`${prefix}go.mod`) && entries.includes(`${prefix}opsledger/compute/firewallPolicyMove.go`),
    );
    assert.ok(entries.includes(`${prefix}opsledger/pulumi-plugin.json`));
  });

  it("writes an SBOM in CycloneDX naming the package and its runtime dependencies", () => {
    const sbom = JSON.parse(fs.readFileSync(path.join(dir, `pulumi-opsledger-${VERSION}.cdx.json`), "utf8")) as {
      bomFormat: string;
      metadata: { component: { name: string; version: string } };
      components: { name: string; version: string }[];
    };
    assert.equal(sbom.bomFormat, "CycloneDX");
    assert.deepEqual([sbom.metadata.component.name, sbom.metadata.component.version], ["pulumi-opsledger", VERSION]);
    const names = sbom.components.map((c) => c.name);
    for (const dep of ["@grpc/grpc-js", "google-auth-library", "protobufjs", "@pulumi/pulumi"])
      assert.ok(names.includes(dep), dep);
    assert.ok(!names.includes("mocha"), "no dev dependency");
  });
});
