import { strict as assert } from "node:assert";
import * as path from "node:path";
import * as protobuf from "protobufjs";
import { PKCS11_PLATFORMS } from "../../../provider/assets/package-files";
import { executableWithoutPkcs11 } from "../../../provider/ledger/hsm-signer";
import { PROTO_FILES, PROTOS_DIR, protoRoot } from "../../../provider/ledger/proto-root";
import { executableFileName, PLUGIN_TARGETS, pluginTarget } from "../../../scripts/lib/plugin-targets";
import { REPO_ROOT } from "../../helpers/project-stack";

/** `value` with every object's keys sorted: JSON whose order of definitions does not matter. */
function canonical(value: unknown): unknown {
  return JSON.parse(
    JSON.stringify(value, (_k, v: unknown) =>
      v !== null && typeof v === "object" && !Array.isArray(v)
        ? Object.fromEntries(
            Object.keys(v)
              .sort()
              .map((k) => [k, (v as Record<string, unknown>)[k]]),
          )
        : v,
    ),
  );
}

describe("the plugin executables' targets (scripts/lib/plugin-targets.ts)", () => {
  it("names Pulumi's platforms, .exe on Windows, and the addon where PKCS11_PLATFORMS says", () => {
    assert.deepEqual(
      PLUGIN_TARGETS.map((t) => `${t.name} ${executableFileName(t)} ${String(t.pkcs11)}`),
      [
        "linux-amd64 pulumi-resource-opsledger true",
        "linux-arm64 pulumi-resource-opsledger false",
        "darwin-amd64 pulumi-resource-opsledger false",
        "darwin-arm64 pulumi-resource-opsledger false",
        "windows-amd64 pulumi-resource-opsledger.exe false",
        "windows-arm64 pulumi-resource-opsledger.exe false",
      ],
    );
    assert.deepEqual(
      PLUGIN_TARGETS.filter((t) => t.pkcs11).map((t) => t.name),
      PKCS11_PLATFORMS,
    );
  });

  it("refuses an unknown target naming the known ones", () => {
    assert.throws(() => pluginTarget("linux-x64"), {
      message:
        "unknown plugin target 'linux-x64': one of linux-amd64, linux-arm64, darwin-amd64, darwin-arm64, windows-amd64, windows-arm64",
    });
  });
});

describe("PKCS#11 from the plugin executable (provider/ledger/hsm-signer.ts)", () => {
  it("says in one paragraph that a platform without the addon cannot sign through PKCS#11, and what to use", () => {
    assert.equal(
      executableWithoutPkcs11("darwin-arm64", "/opt/opsledger/pkcs11.node"),
      "PKCS#11 signing is not available from the pulumi-resource-opsledger executable for darwin-arm64: a native addon " +
        "cannot run from inside the executable, and the release archives ship the PKCS#11 binding's addon for " +
        "linux-amd64 only. On darwin-arm64, sign with kms, keyFile or keyEnv, or run the plugin from the npm package " +
        "(bin/pulumi-resource-opsledger, with Node.js 22 or later and the optional pkcs11js)",
    );
  });

  it("says where the addon should be on a platform whose archive ships it", () => {
    assert.equal(
      executableWithoutPkcs11("linux-amd64", "/opt/opsledger/pkcs11.node"),
      "PKCS#11 signing from the pulumi-resource-opsledger executable loads the PKCS#11 binding's addon from beside it " +
        "(/opt/opsledger/pkcs11.node), which is missing: keep the files of the linux-amd64 release archive together",
    );
  });
});

describe("the .proto files parsed from their text (provider/ledger/proto-root.ts)", () => {
  it("give the Root that protobufjs's loadSync gives from the files", () => {
    const dir = path.join(REPO_ROOT, PROTOS_DIR);
    const fromFiles = new protobuf.Root();
    fromFiles.resolvePath = (_origin, target) => (path.isAbsolute(target) ? target : path.join(dir, target));
    fromFiles.loadSync(PROTO_FILES.map((f) => path.join(dir, f)));
    fromFiles.resolveAll();
    assert.deepEqual(canonical(protoRoot().toJSON()), canonical(fromFiles.toJSON()));
    assert.ok(Object.keys(protoRoot().toJSON().nested ?? {}).length >= 5);
  });
});
