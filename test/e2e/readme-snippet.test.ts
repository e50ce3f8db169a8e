/**
 * The package as a user gets it: `npm pack`, a fresh TypeScript project that installs the tarball, the README's usage
 * snippet as its index.ts (taken from README.md as written), and the commands the README gives — `pulumi stack init
 * dev && pulumi preview`, then `pulumi up`, `refresh`, `destroy` — run with the plain CLI against `npm run sandbox`
 * (started as a user starts it, its `export` lines pasted into the environment).
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT, dynamicResources, initProjectStack } from "../helpers/project-stack";
import { startSandboxCli } from "../helpers/sandbox-cli";
import type { SandboxCli } from "../helpers/sandbox-cli";

/** The TypeScript block the README marks as its runnable usage snippet. */
export function readmeSnippet(readme: string): string {
  const marker = readme.indexOf("<!-- readme-snippet:");
  assert.ok(marker >= 0, "README.md marks its usage snippet");
  const block = /```ts\n([\s\S]*?)```/.exec(readme.slice(marker));
  assert.ok(block?.[1], "a ```ts block follows the marker");
  return block[1];
}

interface AuditEntry {
  kind: string;
  details: { to?: string };
}

describe("the README's usage snippet in a fresh project that installed the npm tarball (pulumi CLI, npm run sandbox)", function () {
  this.timeout(900_000);
  let tmp: string;
  let sandbox: SandboxCli | undefined;

  before(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-readme-"));
  });
  after(() => {
    sandbox?.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("previews, moves, refreshes and destroys from the installed package, with a short stub in state", async () => {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", tmp], {
      cwd: REPO_ROOT,
      encoding: "utf8",
    })
      .trim()
      .split("\n")
      .pop();
    const tarball = path.join(tmp, packed ?? "");
    assert.ok(fs.existsSync(tarball), `npm pack produced ${tarball}`);

    const project = path.join(tmp, "my-infra");
    fs.mkdirSync(project);
    const versionOf = (pkg: string): string =>
      (
        JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "node_modules", pkg, "package.json"), "utf8")) as {
          version: string;
        }
      ).version;
    // What `pulumi new typescript` writes, with the package installed from its tarball.
    fs.writeFileSync(path.join(project, "Pulumi.yaml"), "name: my-infra\nruntime: nodejs\n");
    fs.copyFileSync(
      path.join(REPO_ROOT, "examples", "firewall-policy-move", "tsconfig.json"),
      path.join(project, "tsconfig.json"),
    );
    fs.writeFileSync(
      path.join(project, "index.ts"),
      readmeSnippet(fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8")),
    );
    fs.writeFileSync(
      path.join(project, "package.json"),
      JSON.stringify({ name: "my-infra", private: true, main: "index.ts" }, null, 2),
    );
    execFileSync(
      "npm",
      [
        "install",
        "--no-audit",
        "--no-fund",
        "--prefer-offline",
        "--loglevel=error",
        tarball,
        `@pulumi/pulumi@${versionOf("@pulumi/pulumi")}`,
        `typescript@${versionOf("typescript")}`,
        `ts-node@${versionOf("ts-node")}`,
        `@types/node@${versionOf("@types/node")}`,
      ],
      { cwd: project, stdio: ["ignore", "ignore", "inherit"] },
    );
    const installed = path.join(project, "node_modules", "pulumi-opsledger");
    assert.ok(fs.existsSync(path.join(installed, "dist", "provider", "resources", "index.js")));
    assert.ok(!fs.lstatSync(installed).isSymbolicLink(), "installed as a copy, as from the registry");
    assert.ok(!fs.existsSync(path.join(installed, "dist", "test")), "tests are not packed");

    sandbox = await startSandboxCli();
    const { env, url } = sandbox;
    assert.ok(env["GOOGLE_APPLICATION_CREDENTIALS"] && env["GOOGLE_COMPUTE_CUSTOM_ENDPOINT"], JSON.stringify(env));
    const stack = await initProjectStack({ projectDir: project, stackName: "dev", env, transpileOnly: false });
    try {
      const preview = await stack.preview();
      assert.match(preview.stdout, /^\s+\+ 2 to create$/m);
      const up = await stack.up();
      assert.equal(up.outputs["parent"], "folders/200000000003");
      assert.ok(Array.isArray(up.outputs["bindings"]) && (up.outputs["bindings"] as unknown[]).length === 2);
      const audit = (await (await fetch(`${url}/_sandbox/audit`)).json()) as { entries: AuditEntry[] };
      assert.deepEqual(
        audit.entries.filter((e) => e.kind === "firewallPolicies.move").map((e) => e.details.to),
        ["folders/200000000003"],
      );
      await stack.refresh();
      const move = dynamicResources(await stack.exportState())[0];
      const stub = String(move?.inputs?.["__provider"]);
      // One line that requires the installed package's provider entry: no copy of our code, no credentials.
      assert.equal(stub, 'exports.handler = () => require("pulumi-opsledger/provider").provider;\n');
      // The provider process (started in the project directory) can only have loaded the installed copy: no folder
      // above the project holds another pulumi-opsledger.
      for (let dir = path.dirname(project); dir !== path.dirname(dir); dir = path.dirname(dir)) {
        assert.ok(!fs.existsSync(path.join(dir, "node_modules", "pulumi-opsledger")), `${dir} holds another copy`);
      }
      const destroyed = await stack.destroy();
      assert.match(destroyed.stdout, /stays under folders\/200000000003 \(restoreOnDelete is false\)/);
    } finally {
      await stack.dispose();
    }
  });
});
