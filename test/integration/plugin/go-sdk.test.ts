/**
 * The committed Go SDK (sdk/go/opsledger) is what Pulumi's generator makes of the plugin's schema today:
 * scripts/gen-go-sdk.sh --check regenerates it with the CLI's Go language host and compares every file.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../../helpers/project-stack";

const SCRIPT = join(REPO_ROOT, "scripts", "gen-go-sdk.sh");
const SDK = join(REPO_ROOT, "sdk", "go", "opsledger");

function check(dir?: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    execFile("bash", [SCRIPT, "--check", ...(dir === undefined ? [] : [dir])], (error, _stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stderr });
    });
  });
}

describe("the Go SDK: committed as Pulumi generates it from the schema", function () {
  this.timeout(120_000);

  it("equals what `pulumi package gen-sdk --language go` writes from provider/schema/schema.json", async () => {
    const { code, stderr } = await check();
    assert.equal(code, 0, stderr);
    // The generated resource has the schema's doc comment and type token.
    const move = readFileSync(join(SDK, "compute", "firewallPolicyMove.go"), "utf8");
    assert.match(move, /ctx\.RegisterResource\("opsledger:compute:FirewallPolicyMove"/);
  });

  it("fails, naming the file and the fix, when the committed SDK drifted", async () => {
    const dir = mkdtempSync(join(tmpdir(), "opsledger-go-sdk-"));
    try {
      const copy = join(dir, "opsledger");
      cpSync(SDK, copy, { recursive: true });
      const file = join(copy, "compute", "firewallPolicyMove.go");
      writeFileSync(
        file,
        readFileSync(file, "utf8").replace("FirewallPolicyMove struct", "FirewallPolicyMoved struct"),
      );
      const { code, stderr } = await check(copy);
      assert.equal(code, 1);
      assert.match(stderr, /firewallPolicyMove\.go/);
      assert.match(
        stderr,
        /sdk\/go\/opsledger differs from what the schema generates: run bash scripts\/gen-go-sdk\.sh/,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
