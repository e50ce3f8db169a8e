/**
 * scripts/release.ts's plugin archives: Pulumi's names, the executable and its side files at the root, the same bytes
 * from the same executables (whatever the files' times), a folder that is not a platform refused, and SHA256SUMS as
 * `sha256sum --check` reads it.
 */
import { strict as assert } from "node:assert";
import { execFileSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { archiveName, pluginArchives, sha256sums } from "../../../scripts/release";

describe("the release's plugin archives (scripts/release.ts)", () => {
  let tmp: string;

  /** A plugins folder as the plugin's build writes it, its files dated `mtime` (seconds). */
  function plugins(name: string, mtime: number): string {
    const dir = join(tmp, name);
    for (const platform of ["linux-amd64", "windows-amd64"]) {
      mkdirSync(join(dir, platform), { recursive: true });
      const exe = join(
        dir,
        platform,
        platform.startsWith("windows") ? "pulumi-resource-opsledger.exe" : "pulumi-resource-opsledger",
      );
      writeFileSync(exe, `#!/bin/sh\necho ${platform}\n`);
      chmodSync(exe, 0o755);
      utimesSync(exe, mtime, mtime);
    }
    writeFileSync(join(dir, "linux-amd64", "pkcs11.node"), "addon");
    utimesSync(join(dir, "linux-amd64", "pkcs11.node"), mtime, mtime);
    return dir;
  }

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), "opsledger-release-archives-"));
  });
  afterEach(() => {
    rmSync(tmp, { recursive: true, force: true });
  });

  it("names each archive as the engine asks for it, with the executable and its side files at the root", () => {
    const out = join(tmp, "out");
    mkdirSync(out);
    assert.deepEqual(pluginArchives("1.2.3", plugins("a", 1_000), out), [
      "pulumi-resource-opsledger-v1.2.3-linux-amd64.tar.gz",
      "pulumi-resource-opsledger-v1.2.3-windows-amd64.tar.gz",
    ]);
    const list = execFileSync("tar", ["-tvzf", join(out, archiveName("1.2.3", "linux-amd64"))], { encoding: "utf8" });
    assert.match(list, /^-rwxr-xr-x 0\/0 .* pulumi-resource-opsledger$/m);
    assert.match(list, /^-rw-r--r-- 0\/0 .* pkcs11\.node$/m);
    assert.equal(list.trim().split("\n").length, 2);
    const windows = execFileSync("tar", ["-tzf", join(out, archiveName("1.2.3", "windows-amd64"))], {
      encoding: "utf8",
    });
    assert.equal(windows, "pulumi-resource-opsledger.exe\n");
  });

  it("writes the same bytes from the same executables, whenever they were built", () => {
    const first = join(tmp, "first");
    const second = join(tmp, "second");
    mkdirSync(first);
    mkdirSync(second);
    const prev = process.env["SOURCE_DATE_EPOCH"];
    process.env["SOURCE_DATE_EPOCH"] = "1700000000";
    try {
      pluginArchives("1.2.3", plugins("a", 1_000), first);
      pluginArchives("1.2.3", plugins("b", 2_000_000), second);
    } finally {
      if (prev === undefined) delete process.env["SOURCE_DATE_EPOCH"];
      else process.env["SOURCE_DATE_EPOCH"] = prev;
    }
    const name = archiveName("1.2.3", "linux-amd64");
    assert.ok(readFileSync(join(first, name)).equals(readFileSync(join(second, name))));
  });

  it("refuses a folder that is not a platform the plugin is built for, naming it", () => {
    const dir = plugins("a", 1_000);
    mkdirSync(join(dir, "linux-riscv64"));
    assert.throws(() => pluginArchives("1.2.3", dir, tmp), /not a platform the plugin is built for .*: linux-riscv64$/);
  });

  it("lists every file in SHA256SUMS as sha256sum --check reads it", () => {
    const out = join(tmp, "out");
    mkdirSync(join(out, "go"), { recursive: true });
    writeFileSync(join(out, "a.tgz"), "a");
    writeFileSync(join(out, "go", "list"), "v1.2.3\n");
    sha256sums(out, ["go/list", "a.tgz"]);
    assert.match(readFileSync(join(out, "SHA256SUMS"), "utf8"), /^[0-9a-f]{64} {2}a\.tgz\n[0-9a-f]{64} {2}go\/list\n$/);
    assert.equal(
      execFileSync("sha256sum", ["--check", "--strict", "SHA256SUMS"], { cwd: out, encoding: "utf8" }),
      "a.tgz: OK\ngo/list: OK\n",
    );
    writeFileSync(join(out, "a.tgz"), "b");
    assert.throws(() => execFileSync("sha256sum", ["--check", "SHA256SUMS"], { cwd: out, stdio: "pipe" }));
  });
});
