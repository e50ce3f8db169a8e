/**
 * examples/pr-preview: the pull-request preview run for real, step by step as its workflow runs it, against the sandbox.
 * The steps that need GitHub are done the way those actions do them: google-github-actions/auth writes an
 * external_account credentials file (here for the sandbox's read-only service account) and exports its path;
 * pulumi/actions selects the stack in `work-dir` with the Automation API and calls `stack.preview(options)`, then posts
 * a comment built from the output (test/helpers/pr-comment.ts). Then the README's block of commands, as written, against
 * `npm run sandbox` (here, not in example-readmes.test.ts: this file owns the directory's `npm ci`).
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { parse } from "yaml";
import { startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { exampleDir, initProjectStack, pulumiBinDir } from "../helpers/project-stack";
import { pullRequestComment } from "../helpers/pr-comment";
import { runReadmeCommands, userShellEnv } from "../helpers/readme-commands";
import { startSandboxCli } from "../helpers/sandbox-cli";
import { DEPLOYER, READER } from "../helpers/sandbox-config";
import { FIXTURE } from "../helpers/fixture-ids";

const WORKSPACE = exampleDir("pr-preview");
const { folderA: A, folderB: B } = FIXTURE.firewallPolicyMove;

interface WorkflowStep {
  uses?: string;
  run?: string;
  with?: Record<string, string | boolean>;
}

const MUTATING_ROUTES = ["compute.firewallPolicies.move", "displayvideo.inventorySourceGroups.delete"];

describe("examples/pr-preview, its workflow's steps run against the sandbox (pulumi CLI)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let tmp: string;

  before(async () => {
    sandbox = await startGoogleSandbox({ moveDurationMs: 1000 });
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-pr-"));
  });
  after(async () => {
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it("previews the PR's parent change read-only as one changed line and yields a readable comment with no secret", async () => {
    const workflow = parse(fs.readFileSync(path.join(WORKSPACE, "preview.yml"), "utf8")) as {
      jobs: { preview: { steps: WorkflowStep[] } };
    };
    const steps = workflow.jobs.preview.steps;

    // The install step(s): what the workflow runs itself.
    const runs = steps.flatMap((s) => (s.run === undefined ? [] : [s.run]));
    assert.deepEqual(runs, ["npm ci"]);
    for (const run of runs) execFileSync("bash", ["-c", run], { cwd: WORKSPACE, stdio: ["ignore", "ignore", "pipe"] });
    assert.ok(
      fs.existsSync(path.join(WORKSPACE, "node_modules", "@pulumi", "pulumi")),
      "npm ci installed the program's deps",
    );

    const action = steps.find((s) => s.uses?.startsWith("pulumi/actions@"))?.with ?? {};
    assert.equal(action["command"], "preview");
    assert.equal(action["diff"], true);
    assert.equal(action["comment-on-pr"], true);
    const workDir = path.resolve(WORKSPACE, String(action["work-dir"]));

    const e = sandbox.endpoints;
    const endpoints = {
      GOOGLE_IAM_CUSTOM_ENDPOINT: e.iam,
      GOOGLE_COMPUTE_CUSTOM_ENDPOINT: e.compute,
      GOOGLE_IAM_CREDENTIALS_CUSTOM_ENDPOINT: e.iamCredentials,
    };
    // The stack as main left it: applied by the deploy job with write access, parentId A.
    const deployerCredentials = await sandbox.writeCredentialsFile(path.join(tmp, "deployer"), {
      serviceAccount: DEPLOYER,
    });
    // Type-checked by ts-node, as in a user's CI job.
    const stack = await initProjectStack({
      projectDir: workDir,
      config: { parentId: { value: A } },
      env: endpoints,
      transpileOnly: false,
    });
    try {
      await stack.up({ env: { GOOGLE_APPLICATION_CREDENTIALS: deployerCredentials } });
      // The pull request: parentId A => B in the stack's settings file.
      await stack.setConfig({ parentId: { value: B } });

      // google-github-actions/auth: a read-only federated credentials file, exported as that action exports it.
      const readerCredentials = await sandbox.writeCredentialsFile(path.join(tmp, "reader"), {
        serviceAccount: READER,
      });
      const authEnv = {
        GOOGLE_APPLICATION_CREDENTIALS: readerCredentials,
        CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE: readerCredentials,
        GOOGLE_GHA_CREDS_PATH: readerCredentials,
      };
      // pulumi/actions: select the stack in work-dir, preview with the step's options, keep stdout for the comment.
      const before = { requests: sandbox.requests().length, audit: sandbox.audit().length };
      const ws = await LocalWorkspace.selectStack(
        { stackName: stack.name, workDir },
        {
          envVars: { ...stack.env, ...authEnv },
          pulumiCommand: await PulumiCommand.get({ root: path.dirname(pulumiBinDir()), skipVersionCheck: true }),
        },
      );
      const { stdout } = await ws.preview({ diff: action["diff"] });
      const projectName = (await ws.workspace.projectSettings()).name;

      const during = sandbox.requests().slice(before.requests);
      assert.deepEqual(
        during.filter((r) => MUTATING_ROUTES.includes(r.route ?? "")),
        [],
        "no mutating call",
      );
      assert.equal(sandbox.audit().length, before.audit, "nothing changed in the sandbox");
      assert.deepEqual(
        [
          ...new Set(
            during.filter((r) => r.principal !== undefined && r.route?.startsWith("iam.")).map((r) => r.principal),
          ),
        ],
        [READER],
        "the data source read as the read-only service account",
      );
      const changed = stdout.split("\n").filter((l) => /^\s+[~+-] \w+\s*:/.test(l));
      assert.deepEqual(
        changed.map((l) => l.trim().replace(/\s+:/, ":")),
        [`~ parentId: "${A}" => "${B}"`],
      );

      const comment = pullRequestComment({
        command: action["command"],
        projectName,
        stackName: stack.name,
        output: stdout,
      });
      assert.ok(comment.startsWith(`#### :tropical_drink: \`preview\` on opsledger-pr-preview/${stack.name}\n`));
      assert.match(comment, new RegExp(`^\\s+~ parentId\\s*: "${A}" => "${B}"$`, "m"));
      assert.match(comment, /^\s+~ 1 to update$/m);
      // eslint-disable-next-line no-control-regex -- readable on GitHub: no terminal control codes at all
      assert.doesNotMatch(comment, /[\u001b\r]/);
      assert.ok(comment.length < 10_000, `a short comment (${comment.length} characters)`);
      // No secret: no access token, no subject token, no credentials file content, no passphrase.
      assert.doesNotMatch(comment, /ya29\.|eyJ[\w-]{10,}\.|PRIVATE KEY|client_secret|subject_token/);
      assert.ok(!comment.includes(stack.env["PULUMI_CONFIG_PASSPHRASE"] ?? "-"));
      assert.ok(!comment.includes(fs.readFileSync(readerCredentials, "utf8").slice(0, 40)));
    } finally {
      await stack.dispose();
    }
  });

  it("runs its README's commands as written against npm run sandbox (this file owns the directory's npm ci)", async () => {
    const sandboxCli = await startSandboxCli();
    try {
      const output = await runReadmeCommands("pr-preview", userShellEnv(sandboxCli), tmp);
      assert.match(output, /^\s+~ parentId\s*: "folders\/200000000003" => "folders\/200000000002"$/m);
    } finally {
      sandboxCli.stop();
    }
  });
});
