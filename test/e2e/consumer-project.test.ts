/**
 * The package as a new user installs it: the `npm pack` tarball in a fresh project beside @pulumi/pulumi from the
 * registry, at the oldest version package.json's range admits and at the newest the registry has (`npm view
 * @pulumi/pulumi version`). For each: npm keeps one copy of the SDK (none nested under pulumi-opsledger), and
 * examples/unit-testing's mocha tests pass under Pulumi's mocks. With the newest, a user's Automation API script
 * (test/fixtures/automation/auto.ts) runs an inline program without a workDir (failing, as Pulumi does, without
 * inlineProgramEnv(); passing with it), a workDir program — preview, up, a
 * parent change applied in place, a no-op up, refresh, destroy — and the ledger component inline, against the
 * sandboxes.
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { googleEnv } from "../../scripts/record-upgrade-fixtures";
import { startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { ledgerTargets } from "../helpers/ledger-targets";
import { REPO_ROOT, exampleDir, pulumiBinDir } from "../helpers/project-stack";
import { FIXTURE } from "../helpers/fixture-ids";
import { deployerConfig } from "../helpers/sandbox-config";

const { folderA: A, folderB: B } = FIXTURE.firewallPolicyMove;

function run(
  command: string,
  args: readonly string[],
  cwd: string,
  env: Record<string, string> = {},
): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code, output });
    });
  });
}

function versionOf(pkg: string): string {
  const file = path.join(REPO_ROOT, "node_modules", pkg, "package.json");
  return (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
}

/** The package's `exports` (package.json): what a program can require, each specifier with the file it resolves to. */
const ENTRY_POINTS = (
  JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as { exports: Record<string, string> }
).exports;

/** The oldest @pulumi/pulumi the package declares (the lower bound of its peer range). */
function oldestSupported(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")) as {
    dependencies: Record<string, string>;
    peerDependencies: Record<string, string>;
  };
  assert.equal(pkg.dependencies["@pulumi/pulumi"], undefined, "the SDK is the program's, a peer dependency");
  const range = pkg.peerDependencies["@pulumi/pulumi"] ?? "";
  assert.match(range, /^\^3\.\d+\.\d+$/, "a caret range: npm keeps the program's one copy");
  return range.slice(1);
}

describe("the packed package in fresh projects with the oldest and the newest @pulumi/pulumi", function () {
  this.timeout(900_000);
  let tmp: string;
  let tarball: string;
  const newest = execFileSync("npm", ["view", "@pulumi/pulumi", "version"], { encoding: "utf8" }).trim();

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-consumer-"));
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", tmp], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    });
    tarball = path.join(tmp, packed.trim().split("\n").pop() ?? "");
    assert.ok(fs.existsSync(tarball), tarball);
  });
  after(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  /** A fresh project with the tarball and @pulumi/pulumi at `version`, and examples/unit-testing's program and tests. */
  async function freshProject(version: string): Promise<string> {
    const dir = path.join(tmp, `project-${version}`);
    fs.mkdirSync(dir);
    const example = exampleDir("unit-testing");
    for (const f of ["index.ts", "index.test.ts", ".mocharc.json", "tsconfig.json", "Pulumi.yaml"]) {
      fs.copyFileSync(path.join(example, f), path.join(dir, f));
    }
    const dev = ["typescript", "ts-node", "@types/node", "mocha", "@types/mocha"];
    fs.writeFileSync(
      path.join(dir, "package.json"),
      JSON.stringify({
        name: "consumer",
        private: true,
        main: "index.ts",
        scripts: { test: "mocha" },
        dependencies: { "@pulumi/pulumi": version, "pulumi-opsledger": `file:${tarball}` },
        devDependencies: Object.fromEntries(dev.map((p) => [p, versionOf(p)])),
      }),
    );
    const install = await run("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], dir);
    assert.equal(install.code, 0, install.output);
    return dir;
  }

  /** Every copy of @pulumi/pulumi under the project's node_modules, by version. */
  function sdkCopies(dir: string): string[] {
    const found: string[] = [];
    const walk = (nm: string): void => {
      if (!fs.existsSync(nm)) return;
      const sdk = path.join(nm, "@pulumi", "pulumi", "package.json");
      if (fs.existsSync(sdk))
        found.push(
          `${path.relative(dir, nm)}@${(JSON.parse(fs.readFileSync(sdk, "utf8")) as { version: string }).version}`,
        );
      for (const entry of fs.readdirSync(nm)) {
        const pkgs = entry.startsWith("@")
          ? fs.readdirSync(path.join(nm, entry)).map((p) => path.join(entry, p))
          : [entry];
        for (const p of pkgs) walk(path.join(nm, p, "node_modules"));
      }
    };
    walk(path.join(dir, "node_modules"));
    return found;
  }

  for (const which of ["oldest", "newest"] as const) {
    it(`installs one @pulumi/pulumi with the ${which} and passes the mocks' unit tests`, async () => {
      const version = which === "oldest" ? oldestSupported() : newest;
      const dir = await freshProject(version);
      assert.deepEqual(sdkCopies(dir), [`node_modules@${version}`]);
      const test = await run("npm", ["test"], dir);
      assert.equal(test.code, 0, test.output);
      assert.match(test.output, /^\s+30 passing/m);
    });
  }

  it("resolves the documented entry points and nothing under dist/; the plugin's wrapper alone runs the package", async () => {
    const dir = fs.existsSync(path.join(tmp, `project-${newest}`))
      ? path.join(tmp, `project-${newest}`)
      : await freshProject(newest);
    const specifiers = [
      ...Object.keys(ENTRY_POINTS).map((s) => `pulumi-opsledger${s.slice(1)}`),
      "pulumi-opsledger/dist/sdk/index.js",
      "pulumi-opsledger/dist/provider/dynamic/index.js",
    ];
    const script =
      `const out = {}; for (const s of ${JSON.stringify(specifiers)}) { try { out[s] = require("path")` +
      `.relative(process.cwd(), require.resolve(s)); } catch (e) { out[s] = e.code; } }` +
      `out.provider = Object.keys(require("pulumi-opsledger/provider").provider).sort().join(",");` +
      `console.log(JSON.stringify(out));`;
    const resolved = await run(process.execPath, ["-e", script], dir);
    assert.equal(resolved.code, 0, resolved.output);
    const pkg = path.join("node_modules", "pulumi-opsledger");
    assert.deepEqual(JSON.parse(resolved.output) as unknown, {
      ...Object.fromEntries(
        Object.entries(ENTRY_POINTS).map(([s, target]) => [`pulumi-opsledger${s.slice(1)}`, path.join(pkg, target)]),
      ),
      "pulumi-opsledger/dist/sdk/index.js": "ERR_PACKAGE_PATH_NOT_EXPORTED",
      "pulumi-opsledger/dist/provider/dynamic/index.js": "ERR_PACKAGE_PATH_NOT_EXPORTED",
      provider: "check,configure,create,delete,diff,read,update",
    });
    // As in Pulumi's plugin cache: the wrapper alone, run from the program's directory.
    const cache = fs.mkdtempSync(path.join(tmp, "plugin-cache-"));
    fs.copyFileSync(
      path.join(dir, pkg, "bin", "pulumi-resource-opsledger"),
      path.join(cache, "pulumi-resource-opsledger"),
    );
    fs.chmodSync(path.join(cache, "pulumi-resource-opsledger"), 0o755);
    const schema = await run(
      path.join(pulumiBinDir(), "pulumi"),
      ["package", "get-schema", path.join(cache, "pulumi-resource-opsledger")],
      dir,
      {
        PATH: [path.dirname(process.execPath), process.env["PATH"] ?? ""].join(path.delimiter),
      },
    );
    assert.equal(schema.code, 0, schema.output);
    assert.equal((JSON.parse(schema.output) as { name: string }).name, "opsledger");
  });

  describe("a user's Automation API script with the newest @pulumi/pulumi", () => {
    let sandbox: GoogleSandbox;
    let ledger: ComponentTarget;
    before(async () => {
      sandbox = await startGoogleSandbox({ moveDurationMs: 300 });
      const [fabric] = ledgerTargets([]);
      assert.ok(fabric);
      ledger = await startComponentTarget(fabric);
    });
    after(async () => {
      await ledger.close();
      await sandbox.close();
    });

    it("runs inline and workDir programs through their whole lifecycle, and the ledger component inline", async () => {
      const dir = fs.existsSync(path.join(tmp, `project-${newest}`))
        ? path.join(tmp, `project-${newest}`)
        : await freshProject(newest);
      fs.copyFileSync(path.join(REPO_ROOT, "test", "fixtures", "automation", "auto.ts"), path.join(dir, "auto.ts"));
      const workDir = path.join(dir, "workdir-program");
      fs.mkdirSync(workDir);
      fs.writeFileSync(path.join(workDir, "Pulumi.yaml"), "name: auto-workdir\nruntime: nodejs\n");
      fs.writeFileSync(path.join(workDir, "package.json"), JSON.stringify({ name: "workdir", main: "index.ts" }));
      fs.copyFileSync(path.join(exampleDir("firewall-policy-move"), "index.ts"), path.join(workDir, "index.ts"));
      fs.copyFileSync(
        path.join(exampleDir("firewall-policy-move"), "tsconfig.json"),
        path.join(workDir, "tsconfig.json"),
      );
      const settings = {
        parents: [A, B],
        workDir,
        ledger: {
          key: uniqueKey("auto"),
          gateway: {
            address: ledger.proxy.address,
            tlsRootCertPem: ledger.proxyTls.rootCertPem,
            serverNameOverride: ledger.proxyTls.serverName,
          },
          channel: ledger.ledger.channel,
          chaincode: ledger.ledger.chaincode,
          identity: ledger.identity,
          trustedRootCertificates: ledger.ledger.caCertificates,
        },
      };
      const home = path.join(tmp, "pulumi-home");
      fs.mkdirSync(path.join(tmp, "backend"), { recursive: true });
      // Started from a folder without node_modules (the temp folder), as a script run from elsewhere is.
      const r = await run(
        "node",
        ["-r", path.join(dir, "node_modules", "ts-node", "register"), path.join(dir, "auto.ts")],
        tmp,
        {
          TS_NODE_PROJECT: path.join(dir, "tsconfig.json"),
          ...googleEnv(deployerConfig(sandbox)),
          OPSLEDGER_AUTO: JSON.stringify(settings),
          PATH: [pulumiBinDir(), path.dirname(process.execPath), process.env["PATH"] ?? ""].join(path.delimiter),
          PULUMI_BACKEND_URL: `file://${path.join(tmp, "backend")}`,
          PULUMI_CONFIG_PASSPHRASE: "opsledger-automation",
          PULUMI_HOME: home,
          PULUMI_SKIP_UPDATE_CHECK: "true",
          PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
          TS_NODE_TRANSPILE_ONLY: "true",
          PULUMI_NODEJS_TRANSPILE_ONLY: "true",
        },
      );
      assert.equal(r.code, 0, r.output);
      const line = /^OPSLEDGER_AUTO_REPORT (.*)$/m.exec(r.output)?.[1];
      assert.ok(line !== undefined, r.output);
      const report = JSON.parse(line) as Record<string, Record<string, unknown>>;
      const lifecycle = {
        preview: { create: 2 },
        up: { summary: { create: 2 }, parent: A },
        moved: { summary: { same: 1, update: 1 }, parent: B },
        noop: { same: 2 },
        refresh: { same: 2 },
        destroy: { delete: 2 },
      };
      // An inline program with neither a workDir nor inlineProgramEnv() cannot start the provider process.
      assert.equal(report["bare"], "Cannot find module");
      assert.deepEqual(report["inline"], lifecycle);
      assert.deepEqual(report["workDir"], lifecycle);
      const moves = sandbox
        .audit()
        .filter((e) => e.kind === "firewallPolicies.move")
        .map((e) => e.details.to);
      assert.deepEqual(moves, [A, B, A, B], "one move per parent change, none on a no-op, refresh or destroy");
      assert.deepEqual(
        { ...report["ledger"], txId: typeof report["ledger"]?.["txId"] },
        { up: { create: 3 }, txId: "string", validationCode: "VALID", again: { same: 3 }, destroy: { delete: 3 } },
      );
    });
  });
});
