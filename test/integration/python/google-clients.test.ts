/**
 * Google's own Python clients (google-auth, google-api-python-client, google-cloud-compute, google-cloud-iam, pinned
 * in scripts/python-google-clients.txt) against `npm run sandbox`, from a user's shell with only its export lines:
 * pytest runs test/integration/python/google-clients in the virtualenv of scripts/ensure-python.sh --google-clients,
 * whose conftest.py refuses every host but 127.0.0.1 inside the Python process. pytest's exit code and counts are this
 * spec's result; the guard and the export lines (the project, the sandbox's own universe) are shown to matter by the
 * runs that must fail without them.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { PROJECT_ENV_NAME, UNIVERSE_ENV_NAME } from "../../../sandbox/cli";
import { REPO_ROOT } from "../../helpers/project-stack";
import { pythonBinDir, run } from "../../helpers/python-toolchain";
import { startSandboxCli, type SandboxCli } from "../../helpers/sandbox-cli";

const DIR = path.join(REPO_ROOT, "test", "integration", "python", "google-clients");

/** pytest's closing counts ("4 passed", "1 failed, 3 passed"), as { passed, failed }. */
function counts(output: string): { passed: number; failed: number } {
  const summary = output.trim().split("\n").at(-1) ?? "";
  const n = (word: string): number => Number(new RegExp(`(\\d+) ${word}`).exec(summary)?.[1] ?? 0);
  return { passed: n("passed"), failed: n("failed") };
}

describe("Google's Python clients against npm run sandbox (pytest, egress refused but to 127.0.0.1)", function () {
  // A cold virtualenv installs the four clients from PyPI (about 100 s here); then pytest takes seconds.
  this.timeout(600_000);
  let cli: SandboxCli | undefined;
  let bin: string;
  const sandbox = (): SandboxCli => {
    assert.ok(cli !== undefined, "npm run sandbox started");
    return cli;
  };

  before(async function () {
    this.timeout(900_000);
    bin = pythonBinDir({ googleClients: true });
    cli = await startSandboxCli();
  });
  after(() => {
    cli?.stop();
  });

  /** pytest on `args` in a user's shell that pasted the export lines, the virtualenv first on PATH. */
  function pytest(args: readonly string[], env: Record<string, string> = sandbox().env) {
    return run(path.join(bin, "python3"), ["-m", "pytest", "-q", "-p", "no:cacheprovider", ...args], {
      cwd: DIR,
      env: { ...sandbox().base, ...env, PATH: `${bin}:${sandbox().base["PATH"] ?? ""}`, PYTHONDONTWRITEBYTECODE: "1" },
    });
  }

  it("token by impersonation, the move polled to DONE and moved once per requestId, a v3 policy, an IAM operation", async () => {
    const { code, output } = await pytest(["test_google_clients.py"]);
    const { passed, failed } = counts(output);
    console.log(`      pytest google-clients/test_google_clients.py: ${passed} passed, ${failed} failed`);
    assert.equal(code, 0, output);
    assert.deepEqual({ passed, failed }, { passed: 4, failed: 0 }, output);
  });

  it("fails a test whose client reaches for Google: the guard refuses the host before DNS", async () => {
    const { code, output } = await pytest(["reach_google_probe.py"]);
    assert.equal(code, 1, output);
    assert.deepEqual(counts(output), { passed: 0, failed: 1 }, output);
    assert.match(output, /egress refused: oauth2\.googleapis\.com:443 \(these tests reach 127\.0\.0\.1 only\)/);
  });

  it("needs the project's export line: without it ADC asks Resource Manager (refused, and unresolvable anyway)", async () => {
    const { [PROJECT_ENV_NAME]: project, ...withoutProject } = sandbox().env;
    assert.equal(project, "sandbox-project");
    const { code, output } = await pytest(["test_google_clients.py", "-k", "adc_gets_a_token"], withoutProject);
    assert.equal(code, 1, output);
    assert.match(output, /egress refused: cloudresourcemanager\.opsledger-sandbox\.invalid:443/);
  });

  it("needs its own universe: in Google's, google-auth looks up the token's access boundary at Google", async () => {
    const env = sandbox().env;
    const file = env["GOOGLE_APPLICATION_CREDENTIALS"] ?? "";
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-google-universe-"));
    try {
      const google = path.join(dir, path.basename(file));
      const credentials = JSON.parse(fs.readFileSync(file, "utf8")) as Record<string, unknown>;
      fs.writeFileSync(google, JSON.stringify({ ...credentials, universe_domain: "googleapis.com" }));
      const { code, output } = await pytest(["test_google_clients.py", "-k", "compute_moves"], {
        ...env,
        GOOGLE_APPLICATION_CREDENTIALS: google,
        [UNIVERSE_ENV_NAME]: "googleapis.com",
      });
      assert.equal(code, 1, output);
      assert.match(output, /a client reached outside the sandbox: \['iamcredentials\.googleapis\.com:443'/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
