/**
 * `npm run demo`: applies examples/demo to the local sandbox with the real Pulumi engine.
 *   1. starts the sandbox (Google endpoints + token service) on 127.0.0.1;
 *   2. creates a throwaway local stack (file backend in a temp dir);
 *   3. `pulumi preview` with a READ-ONLY token (what a pull-request job has);
 *   4. `pulumi up` with the sandbox's Workload Identity Federation credentials file (external_account), including a
 *      ledger transaction submitted to the Fabric sandbox (verified before signing, exactly once);
 *   5. prints the outputs and the audit log of what changed, destroys the stack, and shows how to point the same
 *      program at real Google.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { startSandbox } from "../sandbox";
import { createThrowawayStack } from "./lib/throwaway-stack";
import demoProgram from "../examples/demo";

/** Read-only scopes where Google has them; IAM and DV360 have none, so the reader principal has no write permission. */
const READ_ONLY_SCOPES = [
  "compute.readonly",
  "iam",
  "cloud-platform.read-only",
  "ndev.cloudman.readonly",
  "chat.spaces.readonly",
  "display-video",
].map((s) => `https://www.googleapis.com/auth/${s}`);

function heading(text: string): void {
  process.stdout.write(`\n=== ${text} ===\n`);
}

async function main(): Promise<void> {
  const started = Date.now();
  heading("starting the sandbox");
  const sandbox = await startSandbox({ google: { moveDurationMs: 3000 } });
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-demo-"));
  const credentialsFile = await sandbox.google.writeCredentialsFile(tmp);
  process.stdout.write(`Google sandbox at ${sandbox.google.url}; credentials file ${credentialsFile}\n`);

  const endpoints = sandbox.google.endpoints;
  const baseConfig = {
    "opsledger:iamCustomEndpoint": { value: endpoints.iam },
    "opsledger:computeCustomEndpoint": { value: endpoints.compute },
    "opsledger:deploymentManagerCustomEndpoint": { value: endpoints.deploymentManager },
    "opsledger:workspaceEventsCustomEndpoint": { value: endpoints.workspaceEvents },
    "opsledger:displayVideoCustomEndpoint": { value: endpoints.displayVideo },
    "opsledger:iamCredentialsCustomEndpoint": { value: endpoints.iamCredentials },
    "opsledger:displayVideoApiVersion": { value: "v4" },
  };
  const fabric = sandbox.fabric;
  const ledgerConfig: Record<string, { value: string; secret?: boolean }> = {};
  if (fabric) {
    const identity = fabric.newClientIdentity("Org1MSP", "demo-user");
    Object.assign(ledgerConfig, {
      "opsledger-demo:ledgerGateway": { value: fabric.address },
      "opsledger-demo:ledgerChannel": { value: fabric.channel },
      "opsledger-demo:ledgerChaincode": { value: fabric.chaincode },
      "opsledger-demo:ledgerMspId": { value: identity.mspId },
      "opsledger-demo:ledgerCertificatePem": { value: identity.certificatePem },
      "opsledger-demo:ledgerPrivateKeyPem": { value: identity.privateKeyPem, secret: true },
      "opsledger-demo:ledgerTrustedRootCertificates": { value: JSON.stringify(fabric.caCertificates) },
      "opsledger-demo:ledgerArgs": { value: JSON.stringify(["demo-asset", "teal"]) },
    });
    process.stdout.write(
      `Fabric gateway at ${fabric.address} (channel ${fabric.channel}, chaincode ${fabric.chaincode})\n`,
    );
  }
  const readOnlyToken = sandbox.google.mintToken({
    principal: "reader@sandbox-project.iam.gserviceaccount.com",
    scopes: READ_ONLY_SCOPES,
  });
  const stack = await createThrowawayStack({
    projectName: "opsledger-demo",
    program: demoProgram,
    config: { ...baseConfig, ...ledgerConfig, "opsledger:accessToken": { value: readOnlyToken, secret: true } },
  });
  try {
    heading("pulumi preview (read-only token, as in a pull request)");
    const preview = await stack.preview({ diff: true });
    process.stdout.write(preview.output);
    const mutations = sandbox.google.audit().length;
    process.stdout.write(`\nMutating calls during preview: ${mutations}\n`);

    heading("pulumi up --yes (Workload Identity Federation credentials)");
    await stack.stack.workspace.removeConfig(stack.stack.name, "opsledger:accessToken");
    await stack.setConfig({ "opsledger:credentials": { value: credentialsFile, secret: true } });
    const up = await stack.up();
    process.stdout.write(up.output);

    heading("outputs");
    for (const [key, value] of Object.entries(up.outputs)) {
      process.stdout.write(`${key}: ${value.secret ? "[secret]" : JSON.stringify(value.value)}\n`);
    }
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
    process.stdout.write(await stack.destroy());
  } finally {
    await stack.dispose();
    await sandbox.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  heading(`done in ${((Date.now() - started) / 1000).toFixed(1)} s — the same program against real Google`);
  process.stdout.write(`  Drop the *CustomEndpoint settings and give real credentials, any one of:
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
