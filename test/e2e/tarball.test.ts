/**
 * The package as users get it: `npm pack`, install the tarball into a fresh project, and run up / refresh / destroy
 * there with the real engine. The serialized provider must load the INSTALLED package (by name) in the provider
 * process, and stay a short stub in state.
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { REPO_ROOT, pulumiBinDir } from "../helpers/pulumi-harness";
import { deployerConfig, parentOf } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const { policy: POLICY, folderB: TARGET } = FIXTURE.firewallPolicyMove;

describe("the npm tarball installed into another project (real engine)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let tmp: string;

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 1000 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-tarball-"));
  });
  after(async () => {
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("moves, refreshes and destroys from the installed package, with a short stub in state", async () => {
    const packed =
      execFileSync("npm", ["pack", "--silent", "--pack-destination", tmp], { cwd: REPO_ROOT, encoding: "utf8" })
        .trim()
        .split("\n")
        .pop() ?? "";
    const tarball = path.join(tmp, packed);
    assert.ok(fs.existsSync(tarball), `npm pack produced ${tarball}`);
    const project = path.join(tmp, "consumer");
    fs.mkdirSync(project);
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "consumer", private: true, version: "1.0.0" }),
    );
    const pulumiVersion = (
      JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")) as {
        version: string;
      }
    ).version;
    execFileSync(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--loglevel=error",
        tarball,
        `@pulumi/pulumi@${pulumiVersion}`,
      ],
      {
        cwd: project,
        stdio: ["ignore", "ignore", "inherit"],
      },
    );
    assert.ok(fs.existsSync(path.join(project, "node_modules/pulumi-opsledger/dist/provider/resources/index.js")));
    assert.ok(!fs.existsSync(path.join(project, "node_modules/pulumi-opsledger/dist/test")), "tests are not packed");
    fs.copyFileSync(path.join(__dirname, "tarball-run.js"), path.join(project, "run.js"));

    const config = {
      ...deployerConfig(sandbox),
      "tarball:policy": { value: POLICY },
      "tarball:parentId": { value: TARGET },
    };
    const backendDir = path.join(tmp, "backend");
    fs.mkdirSync(backendDir);
    // Asynchronous: the sandbox serves from this process's event loop while the program runs.
    const { stdout: out } = await promisify(execFile)(
      process.execPath,
      ["run.js", JSON.stringify({ pulumiBin: path.join(pulumiBinDir(), "pulumi"), backendDir, config })],
      {
        cwd: project,
        encoding: "utf8",
        env: { ...process.env, PATH: `${pulumiBinDir()}${path.delimiter}${process.env["PATH"] ?? ""}` },
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    const summary = JSON.parse(out.trim().split("\n").pop() ?? "{}") as Record<string, unknown>;
    assert.deepEqual(
      { ...summary, providerBytes: undefined, resolvedFrom: undefined },
      {
        parent: TARGET,
        upResult: "succeeded",
        refreshResult: "succeeded",
        destroyResult: "succeeded",
        providerRequires: true,
        providerBytes: undefined,
        resolvedFrom: undefined,
      },
    );
    assert.ok(Number(summary["providerBytes"]) <= 2048, `__provider is ${String(summary["providerBytes"])} bytes`);
    assert.ok(
      String(summary["resolvedFrom"]).startsWith(path.join(project, "node_modules")),
      String(summary["resolvedFrom"]),
    );
    const moves = sandbox.audit().filter((e) => e.kind === "firewallPolicies.move");
    assert.deepEqual(
      moves.map((m) => m.details.to),
      [TARGET],
    );
    assert.equal(await parentOf(sandbox, POLICY), TARGET);
  });
});
