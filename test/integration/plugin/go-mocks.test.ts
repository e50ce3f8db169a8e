/**
 * Programs through the plugin under Pulumi's mocks: a Go test (test/fixtures/go-mocks, `go test` with
 * `pulumi.WithMocks`) over the generated Go SDK (sdk/go) sees the data source reach the mocks' Call as
 * `opsledger:iam:getWorkforcePoolIamPolicy` with the schema's argument names and the resource reach NewResource as
 * `opsledger:compute:FirewallPolicyMove` with the program's inputs. Go comes from scripts/ensure-go.sh; the build uses
 * the Go language host's compile flags, so it shares Go's build cache with the Go e2e tests.
 */
import { strict as assert } from "node:assert";
import { spawn } from "node:child_process";
import * as path from "node:path";
import { REPO_ROOT } from "../../helpers/project-stack";
import { goBinDir } from "../../helpers/go-toolchain";

describe("the Go SDK under Pulumi's mocks (go test, pulumi.WithMocks)", function () {
  this.timeout(600_000);

  it("answers the generated SDK's invokes and resources from the mocks, under the plugin's tokens", async () => {
    const go = path.join(goBinDir(), "go");
    const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
      const child = spawn(go, ["test", "-trimpath", "-buildvcs=false", "-count=1", "-v", "./..."], {
        cwd: path.join(REPO_ROOT, "test", "fixtures", "go-mocks"),
        // -mod=readonly: the fixture's go.sum is complete, and a test never rewrites it.
        env: { ...process.env, GOFLAGS: "-mod=readonly" },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let out = "";
      child.stdout.setEncoding("utf8").on("data", (s: string) => (out += s));
      child.stderr.setEncoding("utf8").on("data", (s: string) => (out += s));
      child.on("error", reject);
      child.on("close", (c) => {
        resolve({ code: c, output: out });
      });
    });
    assert.equal(code, 0, output);
    assert.match(output, /^--- PASS: TestInvokesAndResourcesReachTheMocks/m, output);
  });
});
