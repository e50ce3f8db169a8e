/**
 * pulumi-resource-opsledger as one executable per platform carrying its own Node.js (scripts/build-plugin-executables.ts):
 * every target built here, the same bytes from a second build, each file of the machine its platform names; the darwin
 * executables ad-hoc signed (every page hash of the code directory matches, as macOS checks at exec); the Windows
 * ones without the official binary's Authenticode signature and with the blob in the PE's resources; the linux-arm64
 * one run through qemu-user (its schema, a preview); the linux-amd64 one serving `pulumi up` with no Node.js on PATH,
 * where the script cannot start, and signing a ledger read with a SoftHSM2 key through the pkcs11.node beside it, or
 * refusing in one paragraph where none is. The plugin's behaviours through the executable are the plugin test files'
 * executable rows (test/helpers/plugin-builds.ts).
 */
import { strict as assert } from "node:assert";
import { execFileSync, spawn, spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { packageVersion } from "../../provider/assets/package-files";
import { executableWithoutPkcs11 } from "../../provider/ledger/hsm-signer";
import { startFabricSandbox } from "../../sandbox/fabric";
import { startGoogleSandbox } from "../../sandbox/google";
import { buildPluginExecutables } from "../../scripts/build-plugin-executables";
import type { BuiltPluginExecutable } from "../../scripts/build-plugin-executables";
import { signingTool } from "../../scripts/lib/plugin-signing";
import { nodeBinary, PLUGIN_TARGETS } from "../../scripts/lib/plugin-targets";
import { cacheDir } from "../../scripts/lib/run-steps";
import { machineOf, machoSignature, peResources, RT_RCDATA } from "../helpers/executable-headers";
import { call } from "../helpers/grpc-unary";
import { projectWithPlugin } from "../helpers/plugin-builds";
import { changeSummary, initProjectStack, pulumiBinDir, REPO_ROOT } from "../helpers/project-stack";
import { deployerConfig } from "../helpers/sandbox-config";
import { createSoftHsmToken } from "../helpers/softhsm";
import { waitFor } from "../helpers/wait-for";

const TWIN = path.join(REPO_ROOT, "test", "fixtures", "yaml-twins", "firewall-policy-move");
/** Text of the bundled plugin (provider/plugin/main.ts's error prefix): found in every executable's blob. */
const BUNDLE_MARKER = "pulumi-resource-opsledger: ";
const MACHINES: Readonly<Record<string, string>> = {
  "linux-amd64": "elf-x86_64",
  "linux-arm64": "elf-aarch64",
  "darwin-amd64": "macho-x86_64",
  "darwin-arm64": "macho-arm64",
  "windows-amd64": "pe-x86_64",
  "windows-arm64": "pe-arm64",
};

function struct(value: Record<string, unknown>): structproto.Struct {
  return structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);
}

/** Starts a plugin process (no engine address) and connects to the port it prints. */
async function startPlugin(
  executable: string,
  env: NodeJS.ProcessEnv,
): Promise<{ client: provrpc.ResourceProviderClient; stop: () => Promise<void>; stderr: () => string }> {
  const child = spawn(executable, [], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  await waitFor({
    what: "the plugin to print its port",
    read: () => stdout,
    until: (s) => /^\d+\n/.test(s),
    timeoutMs: 120_000,
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${stdout.trim()}`, grpc.credentials.createInsecure());
  return {
    client,
    stderr: () => stderr,
    stop: async () => {
      client.close();
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}

describe("pulumi-resource-opsledger as one executable per platform (scripts/build-plugin-executables.ts)", function () {
  this.timeout(1_800_000);
  const out = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-exe-a-"));
  const again = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-exe-b-"));
  let built: readonly BuiltPluginExecutable[] = [];
  const executable = (target: string): string => {
    const b = built.find((x) => x.target.name === target);
    assert.ok(b !== undefined, `${target} was built`);
    return b.executable;
  };

  before(async () => {
    // Every target: the Node.js packages and rcodesign come into the cache the first time (minutes; progress on stderr).
    built = await buildPluginExecutables({ outDir: out });
  });
  after(() => {
    for (const dir of [out, again]) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("writes each platform's executable for its machine, with pkcs11.node beside linux-amd64's only", () => {
    assert.deepEqual(
      built.map((b) => b.target.name),
      PLUGIN_TARGETS.map((t) => t.name),
    );
    for (const b of built) {
      assert.equal(machineOf(fs.readFileSync(b.executable)), MACHINES[b.target.name], b.target.name);
      assert.deepEqual(fs.readdirSync(b.dir).sort(), [...b.files].sort(), b.target.name);
      assert.deepEqual(
        b.files.filter((f) => f.endsWith(".node")),
        b.target.name === "linux-amd64" ? ["pkcs11.node"] : [],
        b.target.name,
      );
      const bytes = fs.readFileSync(b.executable);
      assert.ok(bytes.includes(BUNDLE_MARKER), `${b.target.name} carries the bundle`);
      assert.ok(
        !bytes.includes(os.tmpdir() + path.sep + "opsledger-plugin-"),
        `${b.target.name}: no build folder's name`,
      );
    }
  });

  it("builds the same bytes from the same inputs", async () => {
    const second = await buildPluginExecutables({
      outDir: again,
      targets: ["linux-amd64", "darwin-arm64", "windows-amd64"],
    });
    for (const b of second) {
      const first = built.find((x) => x.target.name === b.target.name);
      assert.equal(b.sha256, first?.sha256, b.target.name);
      assert.ok(fs.readFileSync(b.executable).equals(fs.readFileSync(executable(b.target.name))), b.target.name);
    }
  });

  it("ad-hoc signs the darwin executables: every page hash matches, and a changed byte does not", () => {
    for (const target of ["darwin-amd64", "darwin-arm64"]) {
      const bytes = fs.readFileSync(executable(target));
      const signature = machoSignature(bytes);
      assert.ok(signature !== undefined, `${target} is signed`);
      assert.deepEqual(
        { adhoc: signature.adhoc, identifier: signature.identifier, matching: signature.matchingPages },
        { adhoc: true, identifier: "pulumi-resource-opsledger", matching: signature.pages },
        target,
      );
      assert.ok(signature.pages > 10_000, `${target}: the code directory hashes the whole binary`);
      const at = bytes.indexOf(BUNDLE_MARKER);
      bytes.writeUInt8(bytes.readUInt8(at) ^ 1, at);
      assert.equal(machoSignature(bytes)?.matchingPages, signature.pages - 1, `${target}: the changed page is caught`);
    }
  });

  it("removes the official Windows binary's signature and keeps the blob in the PE's resources", async () => {
    const osslsigncode = signingTool("ensure-osslsigncode.sh", cacheDir());
    for (const b of built.filter((x) => x.target.os === "windows")) {
      const official = await nodeBinary(b.target.node, cacheDir(), () => undefined);
      const before = spawnSync(osslsigncode, ["verify", "-in", official], { encoding: "utf8" });
      assert.match(before.stdout, /OpenJS Foundation/, `${b.target.name}: the official binary is signed`);
      const after = spawnSync(osslsigncode, ["verify", "-in", b.executable], { encoding: "utf8" });
      assert.match(`${after.stdout}${after.stderr}`, /No signature found/, b.target.name);
      const blobs = peResources(fs.readFileSync(b.executable)).filter(
        (r) => r.type === RT_RCDATA && r.name === "NODE_SEA_BLOB",
      );
      assert.equal(blobs.length, 1, b.target.name);
      assert.ok(blobs[0]?.data.includes(BUNDLE_MARKER), `${b.target.name}: the blob holds the bundle`);
    }
  });

  it("runs on linux-arm64 through qemu-user: prints its schema and serves a preview", async () => {
    const qemu = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-qemu.sh")], { encoding: "utf8" }).trim();
    const wrapper = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-arm64-"));
    fs.writeFileSync(
      path.join(wrapper, "pulumi-resource-opsledger"),
      `#!/bin/sh\nexec "${qemu}/bin/qemu-aarch64-static" -L "${qemu}/sysroot" "${executable("linux-arm64")}" "$@"\n`,
      { mode: 0o755 },
    );
    const schema = JSON.parse(
      execFileSync(
        path.join(pulumiBinDir(), "pulumi"),
        ["package", "get-schema", path.join(wrapper, "pulumi-resource-opsledger")],
        {
          encoding: "utf8",
          cwd: wrapper,
        },
      ),
    ) as { name: string; version: string; resources: object; functions: object };
    const expected = JSON.parse(
      fs.readFileSync(path.join(REPO_ROOT, "provider", "schema", "schema.json"), "utf8"),
    ) as typeof schema;
    assert.deepEqual(
      [schema.name, schema.version, Object.keys(schema.resources).sort(), Object.keys(schema.functions).sort()],
      [expected.name, packageVersion(), Object.keys(expected.resources).sort(), Object.keys(expected.functions).sort()],
    );
    const sandbox = await startGoogleSandbox({ moveDurationMs: 500 });
    const project = projectWithPlugin(TWIN, wrapper);
    const stack = await initProjectStack({ projectDir: project, config: deployerConfig(sandbox) });
    try {
      const preview = await stack.preview();
      assert.deepEqual(changeSummary(preview.events), { create: 2 });
    } finally {
      await stack.dispose();
      await sandbox.close();
      fs.rmSync(project, { recursive: true, force: true });
      fs.rmSync(wrapper, { recursive: true, force: true });
    }
  });

  it("serves `pulumi up` with no Node.js on PATH, where the npm package's script cannot start", async () => {
    const sandbox = await startGoogleSandbox({ moveDurationMs: 500 });
    const PATH = pulumiBinDir();
    const withExecutable = projectWithPlugin(TWIN, path.dirname(executable("linux-amd64")));
    const withScript = projectWithPlugin(TWIN, path.join(REPO_ROOT, "bin"));
    const stacks = await Promise.all(
      [withExecutable, withScript].map((projectDir) =>
        initProjectStack({ projectDir, env: { PATH }, config: deployerConfig(sandbox) }),
      ),
    );
    try {
      const [exeStack, scriptStack] = stacks as [(typeof stacks)[0], (typeof stacks)[0]];
      const { outputs } = await exeStack.up();
      assert.equal(outputs["parent"], "folders/200000000003");
      const failed = await scriptStack.up({ allowFailure: true });
      assert.notEqual(failed.code, 0);
      assert.match(failed.output, /env: .?node.?: No such file or directory/);
    } finally {
      for (const s of stacks) await s.dispose();
      await sandbox.close();
      for (const p of [withExecutable, withScript]) fs.rmSync(p, { recursive: true, force: true });
    }
  });

  describe("PKCS#11 (a SoftHSM2 token, a Fabric sandbox)", () => {
    const readWithHsm = async (plugin: string): Promise<{ answer: provproto.InvokeResponse; qscc: number }> => {
      const fabric = await startFabricSandbox({ organizations: ["Org1MSP"] });
      const token = createSoftHsmToken();
      try {
        const id = Buffer.from("0a1b2c", "hex");
        const publicKey = token.generateKey("ecdsa-p256", id);
        const { mspId, certificatePem } = fabric.enrollPublicKey(
          "Org1MSP",
          publicKey.export({ type: "spki", format: "pem" }).toString(),
        );
        const p = await startPlugin(plugin, { ...process.env, ...token.env, OPSLEDGER_TEST_HSM_PIN: token.pin });
        try {
          const answer = await call<provproto.InvokeRequest, provproto.InvokeResponse>(
            p.client.invoke.bind(p.client),
            new provproto.InvokeRequest().setTok("opsledger:ledger:getChainInfo").setArgs(
              struct({
                gateway: { address: fabric.address },
                channel: fabric.channel,
                identity: {
                  mspId,
                  certificatePem,
                  pkcs11: {
                    library: token.library,
                    tokenLabel: token.label,
                    pinEnv: "OPSLEDGER_TEST_HSM_PIN",
                    keyId: id.toString("hex"),
                  },
                },
                trustedRootCertificates: fabric.caCertificates,
              }),
            ),
          );
          return { answer, qscc: fabric.evaluations().filter((e) => e.chaincode === "qscc").length };
        } finally {
          await p.stop();
        }
      } finally {
        token.dispose();
        await fabric.close();
      }
    };

    it("signs a ledger read with the token's key through the pkcs11.node beside the linux-amd64 executable", async () => {
      const { answer, qscc } = await readWithHsm(executable("linux-amd64"));
      assert.deepEqual(
        answer.getFailuresList().map((f) => f.getReason()),
        [],
      );
      assert.ok(
        Number(answer.getReturn()?.toJavaScript()["height"]) >= 1,
        JSON.stringify(answer.getReturn()?.toJavaScript()),
      );
      assert.equal(qscc, 1, "one qscc GetChainInfo, signed by the token's key");
    });

    it("refuses PKCS#11 in one paragraph when the addon is not beside the executable", async () => {
      const alone = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-exe-alone-"));
      const copy = path.join(alone, "pulumi-resource-opsledger");
      fs.copyFileSync(executable("linux-amd64"), copy);
      fs.chmodSync(copy, 0o755);
      try {
        const error = await readWithHsm(copy).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(error instanceof Error);
        assert.ok(
          error.message.includes(executableWithoutPkcs11("linux-amd64", path.join(alone, "pkcs11.node"))),
          error.message,
        );
      } finally {
        fs.rmSync(alone, { recursive: true, force: true });
      }
    });
  });
});
