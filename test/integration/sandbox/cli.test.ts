import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { CliUsageError, parseCliArgs } from "../../../sandbox/cli";
import { call } from "./helpers";

const CLI = join(__dirname, "../../../sandbox/cli.js");

describe("sandbox CLI", () => {
  it("takes flags over environment variables over defaults", () => {
    assert.deepEqual(parseCliArgs([], {}), { port: 0, moveDurationMs: 3000 });
    assert.deepEqual(parseCliArgs([], { OPSLEDGER_SANDBOX_PORT: "8181", OPSLEDGER_SANDBOX_MOVE_DURATION_MS: "50" }), {
      port: 8181,
      moveDurationMs: 50,
    });
    assert.deepEqual(parseCliArgs(["--port", "9000", "--move-duration-ms=7"], { OPSLEDGER_SANDBOX_PORT: "8181" }), {
      port: 9000,
      moveDurationMs: 7,
    });
    assert.equal(parseCliArgs(["--help"], {}), undefined);
    assert.throws(
      () => parseCliArgs(["--port", "x"], {}),
      new CliUsageError("--port must be a non-negative integer, got 'x'"),
    );
    assert.throws(() => parseCliArgs(["--verbose"], {}), new CliUsageError("unknown argument '--verbose'"));
    assert.throws(() => parseCliArgs(["--port"], {}), new CliUsageError("--port needs a value"));
  });

  it("prints the URLs and export lines, serves requests, and stops cleanly on SIGTERM", async () => {
    const child = spawn(process.execPath, [CLI, "--move-duration-ms", "10"], {
      env: { ...process.env, OPSLEDGER_SANDBOX_PORT: "0", OPSLEDGER_TOOL_PATH: "/opt/node 24/bin:/opt/pulumi/bin" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.setEncoding("utf8");
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (chunk: string) => {
        out += chunk;
        if (out.includes("Press Ctrl+C to stop.")) resolve();
      });
      child.once("exit", (code) => {
        reject(new Error(`the CLI exited early with ${code}: ${out}`));
      });
    });
    const url = /^Google sandbox listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out)?.[1] ?? "";
    const exports = Object.fromEntries(
      [...out.matchAll(/^export ([A-Z0-9_]+)=(.*)$/gm)].map((m) => [m[1] ?? "", m[2] ?? ""]),
    );
    const dir = exports["OPSLEDGER_SANDBOX_DIR"] ?? "";
    assert.deepEqual(exports, {
      GOOGLE_APPLICATION_CREDENTIALS: `${dir}/sandbox-external-account.json`,
      // Else Google's clients ask Resource Manager for one, outside the sandbox.
      GOOGLE_CLOUD_PROJECT: "sandbox-project",
      // Not Google's: google-auth for Python looks up a Regional Access Boundary at Google's host in Google's universe.
      GOOGLE_CLOUD_UNIVERSE_DOMAIN: "opsledger-sandbox.invalid",
      GOOGLE_IAM_CUSTOM_ENDPOINT: `${url}/iam`,
      GOOGLE_COMPUTE_CUSTOM_ENDPOINT: `${url}/compute`,
      GOOGLE_DEPLOYMENT_MANAGER_CUSTOM_ENDPOINT: `${url}/deploymentmanager`,
      GOOGLE_WORKSPACE_EVENTS_CUSTOM_ENDPOINT: `${url}/workspaceevents`,
      GOOGLE_DISPLAY_VIDEO_CUSTOM_ENDPOINT: `${url}/displayvideo`,
      GOOGLE_KMS_CUSTOM_ENDPOINT: `${url}/cloudkms`,
      GOOGLE_IAM_CREDENTIALS_CUSTOM_ENDPOINT: `${url}/iamcredentials`,
      GOOGLE_OAUTH2_CUSTOM_ENDPOINT: `${url}/oauth2`,
      OPSLEDGER_SANDBOX_DIR: dir,
      OPSLEDGER_FABRIC_GATEWAY: exports["OPSLEDGER_FABRIC_GATEWAY"],
      // The tools the project installed that the user's PATH lacks, quoted for the shell, ahead of the user's PATH.
      PATH: `'/opt/node 24/bin':/opt/pulumi/bin:"$PATH"`,
    });
    assert.match(exports["OPSLEDGER_FABRIC_GATEWAY"] ?? "", /^127\.0\.0\.1:\d+$/);
    assert.deepEqual(Object.keys(JSON.parse(readFileSync(join(dir, "fabric-root-cas.json"), "utf8")) as object), [
      "Org1MSP",
      "Org2MSP",
      "Org3MSP",
    ]);
    assert.match(
      out,
      /^Fabric gateway listening on 127\.0\.0\.1:\d+ \(insecure gRPC; channel opsledger, chaincode assets\)$/m,
    );
    assert.match(
      out,
      /client identity Org1MSP: certificate \S+fabric-client-cert\.pem, private key \S+fabric-client-key\.pem/,
    );
    const credentials = exports["GOOGLE_APPLICATION_CREDENTIALS"];
    assert.deepEqual(
      Object.entries(JSON.parse(readFileSync(credentials, "utf8")) as Record<string, unknown>).filter(([k]) =>
        ["token_url", "universe_domain"].includes(k),
      ),
      [
        ["token_url", `${url}/sts/v1/token`],
        ["universe_domain", "opsledger-sandbox.invalid"],
      ],
    );
    const health = await call(`${url}/_sandbox/health`);
    assert.deepEqual([health.status, health.body.status], [200, "ok"]);
    child.kill("SIGTERM");
    const [code] = (await once(child, "exit")) as [number | null];
    assert.equal(code, 0);
    assert.equal(existsSync(dirname(credentials)), false, "the temp directory is removed");
    await assert.rejects(fetch(`${url}/_sandbox/health`), /fetch failed/);
  });
});
