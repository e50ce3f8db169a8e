import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { FABRIC_NETWORK_ENV } from "../../../sandbox/fabric-network";
import { commandLineOf } from "../../../sandbox/fabric-network/processes";
import type { SharedSpecReport } from "../../fixtures/fabric-network/shared-network-spec";
import { NETWORK_START_TIMEOUT_MS } from "../../helpers/fabric-network-client";

const ROOT = join(__dirname, "../../../..");
const DIST = join(ROOT, "dist");

describe("one real Fabric network shared by parallel mocha workers (test/helpers/fabric-network-fixture.ts)", () => {
  it("is started once, on the first worker's request, used by two workers, and stopped after the run", async function () {
    this.timeout(NETWORK_START_TIMEOUT_MS + 120_000);
    const reports = mkdtempSync(join(tmpdir(), "opsledger-shared-fixture-"));
    try {
      // No network handed down: the fixture must start one.
      const env: NodeJS.ProcessEnv = { ...process.env, OPSLEDGER_TEST_REPORT_DIR: reports, [FABRIC_NETWORK_ENV]: "" };
      const args = [
        join(ROOT, "node_modules", "mocha", "bin", "mocha.js"),
        "--no-config",
        "--parallel",
        "--jobs",
        "2",
        "--timeout",
        "60000",
        "--require",
        join(DIST, "test", "helpers", "fabric-network-fixture.js"),
        join(DIST, "test", "fixtures", "fabric-network", "shared-a.spec.js"),
        join(DIST, "test", "fixtures", "fabric-network", "shared-b.spec.js"),
      ];
      const mocha = spawn(process.execPath, args, { env, cwd: ROOT, stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      mocha.stdout.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      mocha.stderr.on("data", (chunk: Buffer) => (output += chunk.toString("utf8")));
      const code = await new Promise<number | null>((resolve) => mocha.once("exit", resolve));
      assert.equal(code, 0, output);

      const [a, b] = ["a", "b"].map(
        (label) => JSON.parse(readFileSync(join(reports, `${label}.json`), "utf8")) as SharedSpecReport,
      );
      assert.ok(a && b);
      assert.equal(a.networkFile, b.networkFile, "both workers used the same network");
      assert.notEqual(a.pid, b.pid, "the spec files ran in two worker processes");
      assert.ok(![a.pid, b.pid].includes(mocha.pid ?? -1), "neither ran in mocha's main process");
      assert.notEqual(a.txId, b.txId);
      // Two workers asked for "2.5.16"; the main process started it once (its progress lines, on stderr).
      assert.deepEqual(
        output.match(/^\[opsledger\] shared Fabric network .*$/gm)?.map((l) => l.replace(/\d+ s$/, "N s")),
        [
          '[opsledger] shared Fabric network "2.5.16": starting',
          '[opsledger] shared Fabric network "2.5.16": ready in N s',
        ],
      );
      // After the run: the fixture's teardown stopped the network and removed its folder.
      assert.equal(existsSync(dirname(a.networkFile)), false);
      const left = a.processes.filter((p) => p.pid !== null && commandLineOf(p.pid)?.join(" ") === p.command.join(" "));
      assert.deepEqual(left, []);
    } finally {
      rmSync(reports, { recursive: true, force: true });
    }
  });
});
