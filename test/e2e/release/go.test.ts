/**
 * A Go user installs the release as Go users install any Pulumi provider's SDK: `go get` of the SDK module at the
 * release's version from a module proxy folder (the release's go/ folder, GOPROXY=file:// before the Go module proxy,
 * which serves the other modules as to any Go user), in a shell with no Node.js and no npm, an empty plugin cache and
 * automatic acquisition on. `pulumi up` of a program with a move, a data source read and a ledger transaction
 * (test/fixtures/release-install/go) makes the engine download the plugin archive for this platform by itself.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as path from "node:path";
import { releaseLocation } from "../../../scripts/gen-schema";
import { goBinDir, goCaches } from "../../helpers/go-toolchain";
import { REPO_ROOT } from "../../helpers/project-stack";
import { runShell } from "../../helpers/readme-commands";
import {
  installBlock,
  startInstallWorld,
  upAcquiringThePlugin,
  VERSION,
  writePulumiYaml,
} from "../../helpers/release-install";
import type { InstallWorld } from "../../helpers/release-install";
import { goProxyEnv } from "../../helpers/registries";

describe("the release through go get: the SDK module from a proxy, then pulumi up acquires the plugin", function () {
  this.timeout(1_500_000);
  let world: InstallWorld | undefined;
  let env: Record<string, string>;
  let project: string;

  before(async () => {
    // A Go user's C compiler decides whether cgo is on, and with it the build cache's keys (examples/go filled it).
    world = await startInstallWorld("go", { tools: ["gcc", "cc", "as", "ld"], path: [goBinDir()] });
    const upstream = execFileSync(path.join(goBinDir(), "go"), ["env", "GOPROXY"], { encoding: "utf8" }).trim();
    env = { ...world.env, ...goCaches(), ...goProxyEnv(world.release, releaseLocation().goModule, upstream) };
    project = path.join(world.tmp, "my-infra");
    fs.mkdirSync(project);
    fs.copyFileSync(
      path.join(REPO_ROOT, "test", "fixtures", "release-install", "go", "main.go"),
      path.join(project, "main.go"),
    );
    writePulumiYaml(project, "my-infra", ["runtime: go"]);
  });
  after(async () => {
    await world?.close();
  });

  it("has neither Node.js nor npm in the user's shell", async () => {
    const out = await runShell("command -v node || echo no-node; command -v npm || echo no-npm", project, env, "which");
    assert.deepEqual(out.trim().split("\n"), ["no-node", "no-npm"]);
  });

  it("takes the SDK module at the release's version with examples/go/README.md's commands", async () => {
    await runShell(installBlock("go"), project, env, "go get");
    const gomod = fs.readFileSync(path.join(project, "go.mod"), "utf8");
    assert.match(gomod, new RegExp(`^\\s*${releaseLocation().goModule.replace(/\./g, "\\.")} v${VERSION}$`, "m"));
    assert.doesNotMatch(gomod, /^replace /m, "no replace: the module as the proxy served it");
    assert.match(fs.readFileSync(path.join(project, "go.sum"), "utf8"), new RegExp(`sdk/go v${VERSION} h1:`));
  });

  it("pulumi up downloads the plugin for this platform once, then moves, reads and commits a transaction", async () => {
    assert.ok(world);
    const { outputs } = await upAcquiringThePlugin(world, project, env);
    assert.deepEqual(outputs, {
      parent: "folders/200000000003",
      subscriptionState: "ACTIVE",
      ledgerValidationCode: "VALID",
    });
  });
});
