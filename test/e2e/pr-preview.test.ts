/**
 * examples/pr-preview: the pull-request preview run for real, step by step as its workflow runs it, against the sandbox.
 * The steps come from preview.yml, parsed: each `run` runs with bash; the `uses` steps that need GitHub are done the
 * way those actions do them, with the inputs the workflow gives them (its `${{ vars.X }}` and `${{ secrets.X }}`
 * resolved from the repository variables and secrets a user sets up, per the README): google-github-actions/auth
 * writes an external_account credentials file for the workload identity provider and the service account it is
 * given and exports its path; pulumi/actions selects the stack `stack-name` in `work-dir` with the Automation API,
 * runs `command` with the step's options and env, then posts a comment built from the output
 * (test/helpers/pr-comment.ts). The stack holds a secret config value and a secret output; the comment and the step's
 * log (its stdout and stderr, the CLI's log files) are scanned for every secret in every encoding. Then the README's
 * block of commands, as written, against `npm run sandbox` (here, not in example-readmes.test.ts: this file owns the
 * directory's `npm ci`).
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LocalWorkspace, PulumiCommand } from "@pulumi/pulumi/automation";
import { parse } from "yaml";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { exampleDir, initProjectStack, pulumiBinDir } from "../helpers/project-stack";
import { pullRequestComment } from "../helpers/pr-comment";
import { runReadmeCommands, userShellEnv } from "../helpers/readme-commands";
import { startSandboxCli } from "../helpers/sandbox-cli";
import { DEPLOYER, READER } from "../helpers/sandbox-config";
import { findSecretsDecoded, scanStackFilesAtRest, textForms } from "../helpers/secrets-scan";
import { FIXTURE } from "../helpers/fixture-ids";

const WORKSPACE = exampleDir("pr-preview");
const { folderA: A, folderB: B } = FIXTURE.firewallPolicyMove;

interface WorkflowStep {
  id?: string;
  uses?: string;
  run?: string;
  with?: Record<string, string | boolean | number>;
  env?: Record<string, string>;
}

const MUTATING_ROUTES = ["compute.firewallPolicies.move", "displayvideo.inventorySourceGroups.delete"];
/** What google-github-actions/auth exports (export_environment_variables defaults to true). */
const AUTH_EXPORTS = [
  "GOOGLE_APPLICATION_CREDENTIALS",
  "CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE",
  "GOOGLE_GHA_CREDS_PATH",
];

/** `${{ vars.X }}` and `${{ secrets.X }}` of a workflow value, resolved; any other expression fails the test. */
function resolver(scopes: Record<string, Record<string, string>>): (value: unknown) => string {
  return (value) =>
    String(value).replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_all, expression: string) => {
      const [scope = "", name = ""] = expression.split(".");
      const resolved = scopes[scope]?.[name];
      assert.ok(resolved !== undefined, `the workflow's \${{ ${expression} }} is one the test sets up`);
      return resolved;
    });
}

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
    const kinds = steps.map((s) => s.run ?? s.uses?.replace(/@.*$/, ""));
    assert.deepEqual(kinds, [
      "actions/checkout",
      "actions/setup-node",
      "npm ci",
      "google-github-actions/auth",
      "pulumi/actions",
    ]);

    const e = sandbox.endpoints;
    const endpoints = {
      GOOGLE_IAM_CUSTOM_ENDPOINT: e.iam,
      GOOGLE_COMPUTE_CUSTOM_ENDPOINT: e.compute,
      GOOGLE_IAM_CREDENTIALS_CUSTOM_ENDPOINT: e.iamCredentials,
    };
    // The stack's secrets: a config value set with --secret, and an output the program derives from it.
    const notifyToken = `notify-${crypto.randomBytes(12).toString("hex")}`;
    const notifyWebhook = `https://chat.example.com/hooks/${notifyToken}`;
    // The stack as main left it: applied by the deploy job with write access, parentId A.
    const deployerCredentials = await sandbox.writeCredentialsFile(path.join(tmp, "deployer"), {
      serviceAccount: DEPLOYER,
    });
    // Type-checked by ts-node in the workflow's preview, as in a user's CI job (the stack's env is the job's).
    const stack = await initProjectStack({
      projectDir: WORKSPACE,
      config: { parentId: { value: A }, notifyToken: { value: notifyToken, secret: true } },
      env: endpoints,
      transpileOnly: false,
    });
    try {
      // The repository's settings (README, "Set up"): variables and the secret the workflow reads.
      const f = fixture.FIXTURE_FEDERATION;
      const provider = `projects/${f.projectNumber}/locations/global/workloadIdentityPools/${f.poolId}/providers/${f.providerId}`;
      const pulumiAccessToken = `pul-${crypto.randomBytes(20).toString("hex")}`;
      const resolve = resolver({
        vars: {
          GCP_WORKLOAD_IDENTITY_PROVIDER: provider,
          GCP_PREVIEW_SERVICE_ACCOUNT: READER,
          PULUMI_STACK: stack.name,
        },
        secrets: { PULUMI_ACCESS_TOKEN: pulumiAccessToken },
      });

      // Only setting up what main left: transpiled, not type-checked (this command's env does not reach `jobEnv`).
      const up = await stack.up({
        env: { GOOGLE_APPLICATION_CREDENTIALS: deployerCredentials, PULUMI_NODEJS_TRANSPILE_ONLY: "true" },
      });
      assert.equal(up.outputs["parent"], A);
      const outputs = (await stack.exportState({ showSecrets: true })).resources?.find((r) =>
        r.type.startsWith("pulumi:pulumi:Stack"),
      )?.outputs;
      // A Pulumi secret: the signature key, and the value (shown decrypted here) as JSON.
      assert.deepEqual(
        outputs?.["notifyWebhook"],
        {
          "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
          plaintext: JSON.stringify(notifyWebhook),
        },
        "the stack holds the secret output",
      );
      // The pull request: parentId A => B in the stack's settings file.
      await stack.setConfig({ parentId: { value: B } });

      const jobEnv: Record<string, string> = { ...stack.env };
      let result: { stdout: string; stderr: string; workDir: string; command: string } | undefined;
      let subjectToken = "";
      const before = { requests: sandbox.requests().length, audit: sandbox.audit().length };
      for (const step of steps) {
        const uses = step.uses?.replace(/@.*$/, "");
        const inputs = Object.fromEntries(Object.entries(step.with ?? {}).map(([k, v]) => [k, resolve(v)]));
        if (step.run !== undefined) {
          execFileSync("bash", ["-e", "-c", step.run], { cwd: WORKSPACE, stdio: ["ignore", "ignore", "pipe"] });
        } else if (uses === "actions/checkout" || uses === "actions/setup-node") {
          // The checkout is this directory; the runner's Node is the project's.
          assert.ok(fs.existsSync(path.join(WORKSPACE, "package-lock.json")), `${uses}: a checked-out npm project`);
        } else if (uses === "google-github-actions/auth") {
          const file = await sandbox.writeCredentialsFile(path.join(tmp, "auth"), {
            serviceAccount: inputs["service_account"] ?? null,
          });
          const written = JSON.parse(fs.readFileSync(file, "utf8")) as {
            audience: string;
            credential_source: { file: string };
          };
          assert.equal(written.audience, `//iam.googleapis.com/${inputs["workload_identity_provider"] ?? ""}`);
          subjectToken = fs.readFileSync(written.credential_source.file, "utf8").trim();
          for (const name of AUTH_EXPORTS) jobEnv[name] = file;
        } else if (uses === "pulumi/actions") {
          assert.equal(inputs["comment-on-pr"], "true");
          const workDir = path.resolve(WORKSPACE, inputs["work-dir"] ?? ".");
          const env = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, resolve(v)]));
          const ws = await LocalWorkspace.selectStack(
            { stackName: inputs["stack-name"] ?? "", workDir },
            {
              envVars: { ...jobEnv, ...env },
              pulumiCommand: await PulumiCommand.get({ root: path.dirname(pulumiBinDir()), skipVersionCheck: true }),
            },
          );
          assert.equal(inputs["command"], "preview");
          const { stdout, stderr } = await ws.preview({ diff: inputs["diff"] === "true" });
          result = { stdout, stderr, workDir, command: inputs["command"] };
        } else {
          assert.fail(`a step the test cannot run: ${JSON.stringify(step)}`);
        }
      }
      assert.ok(result, "the workflow ran pulumi/actions");
      assert.ok(
        fs.existsSync(path.join(WORKSPACE, "node_modules", "@pulumi", "pulumi")),
        "npm ci installed the program's deps",
      );
      assert.ok(subjectToken.length > 0, "the auth step wrote a subject token");

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
        "the data source read as the service account the workflow names",
      );
      const changed = result.stdout.split("\n").filter((l) => /^\s+[~+-] \w+\s*:/.test(l));
      assert.deepEqual(
        changed.map((l) => l.trim().replace(/\s+:/, ":")),
        [`~ parentId: "${A}" => "${B}"`],
      );

      const projectName = (parse(fs.readFileSync(path.join(result.workDir, "Pulumi.yaml"), "utf8")) as { name: string })
        .name;
      const comment = pullRequestComment({
        command: result.command,
        projectName,
        stackName: stack.name,
        output: result.stdout,
      });
      assert.ok(comment.startsWith(`#### :tropical_drink: \`preview\` on opsledger-pr-preview/${stack.name}\n`));
      assert.match(comment, new RegExp(`^\\s+~ parentId\\s*: "${A}" => "${B}"$`, "m"));
      assert.match(comment, /^\s+~ 1 to update$/m);
      // eslint-disable-next-line no-control-regex -- readable on GitHub: no terminal control codes at all
      assert.doesNotMatch(comment, /[\u001b\r]/);
      assert.ok(comment.length < 10_000, `a short comment (${comment.length} characters)`);

      // No secret in the comment or the step's log, in any encoding: the stack's secret config value and secret
      // output, the Pulumi access token, the stack's passphrase, the subject token and any access token.
      const secrets = [
        ...textForms("notifyToken (secret config)", notifyToken),
        ...textForms("notifyWebhook (secret output)", notifyWebhook),
        ...textForms("PULUMI_ACCESS_TOKEN", pulumiAccessToken),
        ...textForms("passphrase", stack.env["PULUMI_CONFIG_PASSPHRASE"] ?? ""),
        ...textForms("subject token", subjectToken),
        ...textForms("access token", "ya29.sandbox."),
      ];
      const logFiles = scanStackFilesAtRest(stack).logs;
      assert.ok(
        logFiles.files > 0 && logFiles.bytes > 0,
        `the CLI's log files: ${logFiles.files}, ${logFiles.bytes} B`,
      );
      const log = [result.stdout, result.stderr, logFiles.text].join("\n");
      assert.deepEqual(findSecretsDecoded(comment, secrets), [], "no secret in the comment");
      assert.deepEqual(findSecretsDecoded(log, secrets), [], "no secret in the step's log");
      // The scan reads what it is given: a value that is there (the new parent, in the same encodings) is found.
      assert.deepEqual(findSecretsDecoded(comment, textForms("parent", B)), ["parent"]);
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
