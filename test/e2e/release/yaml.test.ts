/**
 * A YAML user needs no installer: `pulumi package add` (the block examples/yaml/README.md marks) declares the package
 * once, writing what examples/yaml holds, and a program whose resources name only their type (no version, no plugin
 * path; test/fixtures/release-install/yaml) then makes the engine download the plugin archive for this platform by
 * itself, in a shell with no Node.js and no npm and an empty plugin cache; `pulumi plugin install --server` installs
 * it ahead of time. And what such a user can meet: a release without this platform's archive, an archive whose
 * checksum does not match, a version that was never released.
 */
import { strict as assert } from "node:assert";
import { createHash } from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { parse } from "yaml";
import { releaseLocation } from "../../../scripts/gen-schema";
import { archiveName } from "../../../scripts/release";
import { exampleDir, REPO_ROOT } from "../../helpers/project-stack";
import { runShell } from "../../helpers/readme-commands";
import {
  archiveRequest,
  installBlock,
  installedPlugins,
  ledgerConfigCommands,
  packageDeclaration,
  pluginDownloadOverride,
  startInstallWorld,
  upAcquiringThePlugin,
  VERSION,
  yamlProjectAsking,
} from "../../helpers/release-install";
import type { InstallWorld } from "../../helpers/release-install";
import { startFileServer } from "../../helpers/registries";
import type { StandIn } from "../../helpers/registries";
import { run } from "../../helpers/python-toolchain";

/** Runs `script` with bash in `cwd`; resolves with its exit code and output (a failure is what some tests want). */
function attempt(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  return run("bash", ["-c", script], { cwd, env });
}

describe("the release for YAML: the engine acquires the plugin a program names, and refuses what it must", function () {
  this.timeout(1_200_000);
  let world: InstallWorld | undefined;
  let project: string;
  const servers: StandIn[] = [];

  /** A user's environment with an empty plugin cache of its own, downloading from `server`. */
  function freshHome(name: string, server: StandIn): Record<string, string> {
    assert.ok(world);
    const home = path.join(world.tmp, name);
    fs.mkdirSync(home, { recursive: true });
    return { ...world.env, PULUMI_HOME: path.join(home, ".pulumi"), ...pluginDownloadOverride(server) };
  }

  /** A server of the release's archives, with `change` made to a copy of the folder first. */
  async function serveCopy(name: string, change: (dir: string) => void): Promise<StandIn> {
    assert.ok(world);
    const dir = path.join(world.tmp, name);
    fs.mkdirSync(dir);
    for (const f of fs.readdirSync(world.release)) {
      if (f.endsWith(".tar.gz") || f === "SHA256SUMS") fs.copyFileSync(path.join(world.release, f), path.join(dir, f));
    }
    change(dir);
    const server = await startFileServer(dir);
    servers.push(server);
    return server;
  }

  before(async () => {
    world = await startInstallWorld("yaml");
    project = path.join(world.tmp, "my-yaml");
    fs.mkdirSync(project);
    fs.copyFileSync(
      path.join(REPO_ROOT, "test", "fixtures", "release-install", "yaml", "Pulumi.yaml"),
      path.join(project, "Pulumi.yaml"),
    );
  });
  after(async () => {
    for (const s of servers) await s.close();
    await world?.close();
  });

  it("has neither Node.js nor npm in the user's shell, and a program whose resources name only their type", async () => {
    assert.ok(world);
    const out = await runShell(
      "command -v node || echo no-node; command -v npm || echo no-npm",
      project,
      world.env,
      "which",
    );
    assert.deepEqual(out.trim().split("\n"), ["no-node", "no-npm"]);
    const program = fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8");
    assert.equal(program.match(/^ {4}type: opsledger:/gm)?.length, 2);
    assert.doesNotMatch(program, /^(plugins|packages):|path:|version:|pluginDownloadURL|options:/m);
  });

  it("declares the package once with examples/yaml/README.md's pulumi package add, writing what examples/yaml holds", async () => {
    assert.ok(world);
    const env = freshHome("package-add", world.plugins);
    const program = fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8");
    const before = world.plugins.requests.length;
    await runShell(installBlock("yaml", "readme-package-add"), project, env, "pulumi package add");
    // The CLI runs the plugin for its schema: one download, of this platform's archive.
    assert.deepEqual(world.plugins.requests.slice(before), [archiveRequest(VERSION)]);
    const declaration = fs.readFileSync(path.join(project, packageDeclaration(VERSION)), "utf8");
    assert.deepEqual(declaration.trim().split("\n"), [
      "packageDeclarationVersion: 1",
      "name: opsledger",
      `version: ${VERSION}`,
      `downloadUrl: ${releaseLocation().pluginDownloadURL}`,
    ]);
    assert.deepEqual(fs.readdirSync(path.join(project, "sdks"), { recursive: true }).sort(), [
      "opsledger",
      path.join("opsledger", path.basename(packageDeclaration(VERSION))),
    ]);
    // examples/yaml is this project's state after the command: the same declaration, the same `packages` entry at the
    // end of a Pulumi.yaml that holds what it held (the CLI writes the file again: a folded line may be refolded).
    const example = exampleDir("yaml");
    assert.equal(declaration, fs.readFileSync(path.join(example, packageDeclaration(VERSION)), "utf8"));
    const entry = (text: string): string => text.slice(text.search(/^packages:$/m));
    const written = fs.readFileSync(path.join(project, "Pulumi.yaml"), "utf8");
    const exampleEntry = entry(fs.readFileSync(path.join(example, "Pulumi.yaml"), "utf8"));
    assert.equal(entry(written), exampleEntry);
    assert.deepEqual(parse(written), { ...(parse(program) as object), ...(parse(exampleEntry) as object) });
  });

  it("pulumi up, from another empty plugin cache, downloads the plugin the declaration names once, then moves, reads and commits a transaction", async () => {
    assert.ok(world);
    assert.ok(
      fs.existsSync(path.join(project, packageDeclaration(VERSION))),
      "pulumi package add declared the package",
    );
    const { outputs } = await upAcquiringThePlugin(world, project, world.env);
    assert.deepEqual(outputs, {
      parent: "folders/200000000003",
      subscriptionState: "ACTIVE",
      ledgerValidationCode: "VALID",
    });
  });

  it("installs ahead of time with examples/yaml/README.md's pulumi plugin install --server", async () => {
    assert.ok(world);
    const env = freshHome("ahead", world.plugins);
    const before = world.plugins.requests.length;
    await runShell(installBlock("yaml"), project, env, "pulumi plugin install");
    assert.deepEqual(installedPlugins(env), [`resource-opsledger-v${VERSION}`]);
    assert.deepEqual(world.plugins.requests.slice(before), [archiveRequest(VERSION)]);
    const ls = await runShell("pulumi plugin ls", project, env, "pulumi plugin ls");
    assert.match(ls, new RegExp(`^opsledger\\s+resource\\s+${VERSION.replace(/\./g, "\\.")}\\b`, "m"));
  });

  it("refuses an archive whose checksum does not match, and installs nothing, outside a project that declares the package", async () => {
    assert.ok(world);
    const name = archiveName(VERSION, "linux-amd64");
    const sums = fs.readFileSync(path.join(world.release, "SHA256SUMS"), "utf8");
    const published = new RegExp(`^([0-9a-f]{64})  ${name.replace(/\./g, "\\.")}$`, "m").exec(sums)?.[1];
    assert.ok(published, `SHA256SUMS lists ${name}`);
    // The same name, other bytes: an archive changed after the checksums were published.
    const tampered = await serveCopy("tampered", (dir) => {
      fs.appendFileSync(path.join(dir, name), Buffer.from([0]));
    });
    const served = createHash("sha256")
      .update(fs.readFileSync(path.join(world.tmp, "tampered", name)))
      .digest("hex");
    assert.notEqual(served, published);
    const install = `pulumi plugin install resource opsledger ${VERSION} --server ${releaseLocation().pluginDownloadURL} --checksum ${published}`;
    const env = freshHome("tampered-home", tampered);
    const r = await attempt(install, path.join(world.tmp, "tampered-home"), env);
    assert.notEqual(r.code, 0, r.output);
    assert.match(r.output, new RegExp(`invalid checksum, expected ${published}, actual [0-9a-f]{64}\\n`));
    assert.deepEqual(tampered.requests, [archiveRequest(VERSION)], "the archive was fetched, then refused");
    assert.deepEqual(installedPlugins(env), [], "nothing installed");
    // Inside a project whose Pulumi.yaml declares the package, CLI 3.259.0 installs that entry instead, dropping
    // --checksum (docs/installation-configuration.md says to run the command elsewhere).
    const inProject = freshHome("tampered-project-home", tampered);
    const quirk = await attempt(install, project, inProject);
    assert.equal(quirk.code, 0, quirk.output);
    assert.deepEqual(installedPlugins(inProject), [`resource-opsledger-v${VERSION}`]);
  });

  it("names the archive of this platform and where it looked when the release has none for it", async () => {
    assert.ok(world);
    const missing = await serveCopy("no-linux-amd64", (dir) => {
      fs.rmSync(path.join(dir, archiveName(VERSION, "linux-amd64")));
    });
    const env = freshHome("no-archive-home", missing);
    const r = await attempt("pulumi stack init none && pulumi preview", project, env);
    assert.notEqual(r.code, 0, r.output);
    // The engine names what it fetched: the archive (so the platform) and the server standing in for the releases.
    assert.match(
      r.output,
      new RegExp(`${missing.url}/pulumi-resource-opsledger-v${VERSION.replace(/\./g, "\\.")}-linux-amd64\\.tar\\.gz`),
    );
    assert.match(r.output, /404/);
    assert.ok(missing.requests.includes(archiveRequest(VERSION)));
    assert.deepEqual(installedPlugins(env), []);
    await runShell("pulumi stack rm none --yes", project, env, "stack rm");
  });

  it("names the version when a program asks for one that was never released", async () => {
    assert.ok(world);
    const env = freshHome("unreleased-home", world.plugins);
    const other = yamlProjectAsking(project, path.join(world.tmp, "unreleased"), "unreleased", "9.9.9");
    const r = await attempt("pulumi stack init dev && pulumi preview", other, env);
    assert.notEqual(r.code, 0, r.output);
    assert.match(r.output, /pulumi-resource-opsledger-v9\.9\.9-linux-amd64\.tar\.gz/);
    assert.match(r.output, /v9\.9\.9/);
    assert.deepEqual(installedPlugins(env), []);
  });

  it("refuses a plugin older than the version the program asks for, naming both", async () => {
    assert.ok(world);
    const env = freshHome("older-plugin-home", world.plugins);
    const other = yamlProjectAsking(project, path.join(world.tmp, "newer-sdk"), "newer-sdk", "9.9.9");
    const before = world.plugins.requests.length;
    // This release's plugin, installed under the version a newer SDK names (as a hand-made install can leave it).
    const archive = path.join(world.release, archiveName(VERSION, "linux-amd64"));
    await runShell(`pulumi plugin install resource opsledger 9.9.9 --file ${archive}`, other, env, "install --file");
    const r = await attempt(
      `pulumi stack init dev && ${ledgerConfigCommands(world.sandbox).join(" && ")} && pulumi preview`,
      other,
      env,
    );
    assert.notEqual(r.code, 0, r.output);
    assert.match(
      r.output,
      new RegExp(
        `the program's SDK asks for the opsledger plugin 9\\.9\\.9, but this plugin is ${VERSION.replace(/\./g, "\\.")}: ` +
          "install the plugin the SDK names",
      ),
    );
    assert.deepEqual(world.plugins.requests.slice(before), [], "the installed plugin was used, not fetched");
  });
});
