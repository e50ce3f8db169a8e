/**
 * `npm run demo`: applies examples/demo to the local sandbox with the plain `pulumi` CLI in that directory, printing
 * every command as a newcomer would type it (the values the commands need are in files, so no secret is printed).
 *   1. starts the sandbox (Google endpoints + token service, and a Fabric gateway) on 127.0.0.1;
 *   2. `pulumi stack init`, then the ledger settings with `pulumi config set-all`;
 *   3. `pulumi preview --diff` with a READ-ONLY token (what a pull-request job has);
 *   4. `pulumi up` with the sandbox's Workload Identity Federation credentials file (external_account), including a
 *      ledger transaction submitted to the Fabric sandbox (verified before signing, exactly once);
 *   5. prints the outputs and the audit log of what changed, destroys the stack, and shows how to point the same
 *      program at real Google.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox } from "../sandbox";
import { REPO_ROOT, initProjectStack, shellQuote } from "./lib/pulumi-cli";

/** Read-only scopes where Google has them; IAM and DV360 have none, so the reader principal has no write permission. */
const READ_ONLY_SCOPES = [
  "compute.readonly",
  "iam",
  "cloud-platform.read-only",
  "ndev.cloudman.readonly",
  "chat.spaces.readonly",
  "display-video",
].map((s) => `https://www.googleapis.com/auth/${s}`);

const STACK = "demo";
const PROJECT = path.join(REPO_ROOT, "examples", "demo");

function heading(text: string): void {
  process.stdout.write(`\n=== ${text} ===\n`);
}

function command(line: string): void {
  process.stdout.write(`\n$ ${line}\n`);
}

async function main(): Promise<void> {
  const started = Date.now();
  heading("starting the sandbox (what `npm run sandbox` runs)");
  const sandbox = await startSandbox({ google: { moveDurationMs: 3000 } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-demo-"));
  const file = (name: string, content: string): string => {
    const p = path.join(tmp, name);
    fs.writeFileSync(p, content, { mode: 0o600 });
    return p;
  };
  const credentialsFile = await sandbox.google.writeCredentialsFile(tmp);
  const readerTokenFile = file(
    "reader-token",
    sandbox.google.mintToken({ principal: "reader@sandbox-project.iam.gserviceaccount.com", scopes: READ_ONLY_SCOPES }),
  );
  const e = sandbox.google.endpoints;
  const env: Record<string, string> = {
    GOOGLE_IAM_CUSTOM_ENDPOINT: e.iam,
    GOOGLE_COMPUTE_CUSTOM_ENDPOINT: e.compute,
    GOOGLE_DEPLOYMENT_MANAGER_CUSTOM_ENDPOINT: e.deploymentManager,
    GOOGLE_WORKSPACE_EVENTS_CUSTOM_ENDPOINT: e.workspaceEvents,
    GOOGLE_DISPLAY_VIDEO_CUSTOM_ENDPOINT: e.displayVideo,
    GOOGLE_IAM_CREDENTIALS_CUSTOM_ENDPOINT: e.iamCredentials,
    GOOGLE_OAUTH2_CUSTOM_ENDPOINT: e.oauth2,
    OPSLEDGER_DISPLAY_VIDEO_API_VERSION: "v4",
  };
  const backend = path.join(tmp, "backend");
  fs.mkdirSync(backend);
  process.stdout.write(
    `Google sandbox at ${sandbox.google.url}; Fabric gateway at ${sandbox.fabric?.address ?? "-"}\n`,
  );
  process.stdout.write(
    "\n# The commands a user types, in order. To repeat them by hand: `npm run sandbox` in another terminal prints\n" +
      "# the same kind of `export` lines and files (credentials, Fabric identity) for its own sandbox.\n",
  );
  command(`cd ${path.relative(process.cwd(), PROJECT) || "."}`);
  for (const [k, v] of Object.entries(env)) process.stdout.write(`export ${k}=${v}\n`);
  process.stdout.write(
    `export PULUMI_BACKEND_URL=file://${backend} PULUMI_CONFIG_PASSPHRASE=demo  # a local backend, no account\n`,
  );

  const stack = await initProjectStack({
    projectDir: PROJECT,
    stackName: STACK,
    env: { ...env, PULUMI_BACKEND_URL: `file://${backend}`, PULUMI_CONFIG_PASSPHRASE: "demo" },
    echo: command,
  });
  try {
    const fabric = sandbox.fabric;
    if (fabric) {
      heading("the ledger settings: a Fabric client identity of the sandbox");
      const identity = fabric.newClientIdentity("Org1MSP", "demo-user");
      const certificate = file("fabric-client-cert.pem", identity.certificatePem);
      const key = file("fabric-client-key.pem", identity.privateKeyPem);
      const roots = file("fabric-root-cas.json", JSON.stringify(fabric.caCertificates));
      await stack.setConfig(
        {
          ledgerGateway: { value: fabric.address },
          ledgerMspId: { value: identity.mspId },
          ledgerCertificatePem: { value: identity.certificatePem },
          ledgerPrivateKeyPem: { value: identity.privateKeyPem, secret: true },
          ledgerTrustedRootCertificates: { value: fs.readFileSync(roots, "utf8") },
        },
        {
          shown: [
            "pulumi config set-all",
            `  --plaintext ledgerGateway=${fabric.address} --plaintext ledgerMspId=${identity.mspId}`,
            `  --plaintext ledgerCertificatePem="$(cat ${certificate})"`,
            `  --secret ledgerPrivateKeyPem="$(cat ${key})"`,
            `  --plaintext ledgerTrustedRootCertificates="$(cat ${roots})"`,
          ].join(" \\\n"),
        },
      );
    }

    heading("pulumi preview with a READ-ONLY token, as in a pull request");
    const token = fs.readFileSync(readerTokenFile, "utf8");
    const preview = await stack.run(["preview", "--diff"], {
      env: { GOOGLE_OAUTH_ACCESS_TOKEN: token },
      shown: `GOOGLE_OAUTH_ACCESS_TOKEN="$(cat ${readerTokenFile})" pulumi preview --diff`,
    });
    process.stdout.write(preview.stdout);
    process.stdout.write(`\nMutating calls during the preview: ${sandbox.google.audit().length}\n`);

    heading("pulumi up with the sandbox's Workload Identity Federation credentials file");
    const up = await stack.run(["up", "--yes", "--skip-preview"], {
      env: { GOOGLE_APPLICATION_CREDENTIALS: credentialsFile },
      shown: `GOOGLE_APPLICATION_CREDENTIALS=${shellQuote(credentialsFile)} pulumi up --yes --skip-preview`,
    });
    process.stdout.write(up.stdout);

    heading("what the sandbox recorded (audit log of effective mutations)");
    for (const entry of sandbox.google.audit()) process.stdout.write(`${JSON.stringify(entry)}\n`);
    if (fabric) {
      heading("what the Fabric sandbox committed");
      for (const block of fabric.blocks()) {
        for (const tx of block.transactions)
          process.stdout.write(`block ${String(block.number)}: ${tx.txId} ${tx.codeName}\n`);
      }
    }

    heading("pulumi destroy");
    const destroyed = await stack.run(["destroy", "--yes", "--skip-preview"], {
      env: { GOOGLE_APPLICATION_CREDENTIALS: credentialsFile },
      shown: `GOOGLE_APPLICATION_CREDENTIALS=${shellQuote(credentialsFile)} pulumi destroy --yes --skip-preview`,
    });
    process.stdout.write(destroyed.stdout);
    await stack.run(["stack", "rm", "--yes"], { shown: `pulumi stack rm --yes ${STACK}` });
  } finally {
    await stack.dispose();
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  heading(`done in ${((Date.now() - started) / 1000).toFixed(1)} s — the same program against real Google`);
  process.stdout.write(`  Drop the GOOGLE_*_CUSTOM_ENDPOINT variables and give real credentials, any one of:
    gcloud auth application-default login            # or GOOGLE_APPLICATION_CREDENTIALS=<key or WIF file>
    pulumi config set --secret opsledger:credentials "$(cat key.json)"   # like gcp:credentials (path or contents)
    export GOOGLE_OAUTH_ACCESS_TOKEN=$(gcloud auth print-access-token)
    pulumi config set opsledger:impersonateServiceAccount deployer@<project>.iam.gserviceaccount.com
  and set the ids of your own resources in examples/demo (pulumi config set firewallPolicy <id>, parentId folders/<id>, ...).
  Display & Video 360 v1-v3 are sunset by Google: keep opsledger:displayVideoApiVersion=v4.
`);
}

main().catch((e: unknown) => {
  process.stderr.write(`demo failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
