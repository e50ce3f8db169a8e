/**
 * examples/unit-testing as its user runs it: `npm test` in its directory (mocha with ts-node, Pulumi's mocks). With a
 * Google sandbox's endpoints and a valid access token in the environment, as a developer's machine or a CI runner on
 * Google Cloud has credentials: the tests pass, the sandbox receives no request, and no process connects anywhere but
 * loopback (the egress guard) — every data source was answered by the mocks.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { googleEnv } from "../../scripts/record-upgrade-fixtures";
import { EGRESS_LOG_ENV, takeLoggedViolations } from "../helpers/egress-guard";
import { egressGuardEnv, exampleDir } from "../helpers/project-stack";
import { deployerConfig } from "../helpers/sandbox-config";

/** `npm test` in `dir`: exit code and output. */
function npmTest(dir: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("npm", ["test"], {
      cwd: dir,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.stderr.setEncoding("utf8").on("data", (s: string) => (output += s));
    child.on("error", reject);
    child.on("close", (code) => {
      resolve({ code, output });
    });
  });
}

describe("examples/unit-testing: `npm test` under Pulumi's mocks", function () {
  this.timeout(120_000);
  let sandbox: GoogleSandbox;
  let tmp: string;
  before(async () => {
    sandbox = await startGoogleSandbox();
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-unit-testing-"));
  });
  after(async () => {
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("passes with credentials in the environment, and nothing reaches Google or leaves the machine", async () => {
    const egressLog = path.join(tmp, "egress.log");
    const { code, output } = await npmTest(exampleDir("unit-testing"), {
      ...googleEnv(deployerConfig(sandbox)),
      ...egressGuardEnv(),
      [EGRESS_LOG_ENV]: egressLog,
    });
    assert.equal(code, 0, output);
    // 13 data-source cases (5 Google reads with and without a provider, 3 ledger reads) and the failure, in update
    // and preview, and the program's two.
    assert.match(output, /^\s+30 passing/m, output);
    assert.doesNotMatch(output, /failing|pending/);
    assert.deepEqual(
      sandbox.requests().map((r) => `${r.method} ${r.path}`),
      [],
      "no request reached the Google sandbox",
    );
    assert.deepEqual(takeLoggedViolations(egressLog), [], "no connection left loopback");
  });
});
