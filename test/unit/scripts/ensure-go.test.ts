/**
 * scripts/ensure-go.sh against a Go module proxy in a folder (GOPROXY=file://...): the machine's Go when new enough,
 * else the toolchain module's zip, checked against its go.sum hash (given, or from the proxy's checksum-database
 * lookup), unpacked once into the cache and reused; a zip with another hash is refused and nothing is cached.
 */
import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { arch, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { crc32 } from "node:zlib";

const ROOT = join(__dirname, "..", "..", "..", "..");
const SCRIPT = join(ROOT, "scripts", "ensure-go.sh");
const MIN = /^go (\S+)$/m.exec(readFileSync(join(ROOT, "sdk", "go", "go.mod"), "utf8"))?.[1] ?? "";
const VERSION = "1.99.1";
const MODVER = `v0.0.1-go${VERSION}.linux-${arch() === "arm64" ? "arm64" : "amd64"}`;
const PREFIX = `golang.org/toolchain@${MODVER}`;

/** A zip archive of `files` (stored, no compression), as a module proxy serves a module. */
function zip(files: ReadonlyMap<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of files) {
    const data = Buffer.from(text);
    const fileName = Buffer.from(name);
    const crc = crc32(data);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += local.length + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(files.size, 8);
  end.writeUInt16LE(files.size, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Go's go.sum hash of a module's files (golang.org/x/mod/sumdb/dirhash Hash1). */
function h1(files: ReadonlyMap<string, string>): string {
  const summary = [...files.keys()]
    .sort()
    .map(
      (name) =>
        `${createHash("sha256")
          .update(files.get(name) ?? "")
          .digest("hex")}  ${name}\n`,
    )
    .join("");
  return `h1:${createHash("sha256").update(summary).digest("base64")}`;
}

/** A `go` that answers `go env GOVERSION` with `version`. */
function fakeGo(version: string): string {
  return `#!/bin/sh\n[ "$1 $2" = "env GOVERSION" ] && echo go${version}\n`;
}

function run(env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = { HOME: process.env["HOME"], PATH: "/usr/bin:/bin", ...env };
  return new Promise((resolve) => {
    execFile("bash", [SCRIPT], { env: clean }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
    });
  });
}

describe("scripts/ensure-go.sh: the machine's Go, else the toolchain module from GOPROXY, checked and cached", function () {
  this.timeout(60_000);
  let dir: string;
  let files: Map<string, string>;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "opsledger-ensure-go-"));
    files = new Map([
      [`${PREFIX}/bin/go`, fakeGo(VERSION)],
      [`${PREFIX}/pkg/tool/linux_amd64/compile`, "#!/bin/sh\n"],
      [`${PREFIX}/VERSION`, `go${VERSION}\n`],
    ]);
    const at = join(dir, "proxy", "golang.org", "toolchain", "@v");
    mkdirSync(at, { recursive: true });
    writeFileSync(join(at, `${MODVER}.zip`), zip(files));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("prints the directory of the machine's Go when it is as new as sdk/go/go.mod requires", async () => {
    const bin = join(dir, "system");
    mkdirSync(bin);
    writeFileSync(join(bin, "go"), fakeGo(MIN));
    chmodSync(join(bin, "go"), 0o755);
    const r = await run({ PATH: `${bin}:/usr/bin:/bin`, GOPROXY: "off" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, `${bin}\n`);
  });

  it("downloads the toolchain module from the first proxy of GOPROXY that has it, checks it and reuses the cache", async () => {
    const cache = join(dir, "cache");
    const env = {
      OPSLEDGER_CACHE_DIR: cache,
      OPSLEDGER_GO_IGNORE_SYSTEM: "1",
      OPSLEDGER_GO_VERSION: VERSION,
      OPSLEDGER_GO_H1: h1(files),
      GOPROXY: `direct,file://${join(dir, "empty")}|file://${join(dir, "proxy")}`,
    };
    const bin = join(cache, "go", VERSION, "bin");
    const first = await run(env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.stdout, `${bin}\n`);
    assert.match(first.stderr, new RegExp(`downloading Go ${VERSION} \\(golang\\.org/toolchain@${MODVER}`));
    assert.match(first.stderr, new RegExp(`file://${join(dir, "empty")} did not serve`));
    assert.match(first.stderr, new RegExp(`Go ${VERSION} in ${bin}`));
    assert.equal(execFileSync(join(bin, "go"), ["env", "GOVERSION"], { encoding: "utf8" }), `go${VERSION}\n`);
    assert.ok(existsSync(join(dirname(bin), "pkg", "tool", "linux_amd64", "compile")));

    const second = await run(env);
    assert.equal(second.code, 0, second.stderr);
    assert.equal(second.stdout, `${bin}\n`);
    assert.equal(second.stderr, "");
  });

  it("takes the hash of a version it has not pinned from the proxy's checksum database lookup", async () => {
    const lookup = join(dir, "proxy", "sumdb", "sum.golang.org", "lookup", "golang.org", "toolchain@" + MODVER);
    mkdirSync(dirname(lookup), { recursive: true });
    writeFileSync(lookup, `12345\ngolang.org/toolchain ${MODVER} ${h1(files)}\n\ngo.sum database tree\n`);
    const r = await run({
      OPSLEDGER_CACHE_DIR: join(dir, "cache"),
      OPSLEDGER_GO_IGNORE_SYSTEM: "1",
      OPSLEDGER_GO_VERSION: VERSION,
      GOPROXY: `file://${join(dir, "proxy")}`,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, new RegExp(`checking it against ${h1(files).replace(/[+/]/g, "\\$&")}`));
  });

  it("refuses a zip whose hash is not the expected one, and caches nothing", async () => {
    const cache = join(dir, "cache");
    const r = await run({
      OPSLEDGER_CACHE_DIR: cache,
      OPSLEDGER_GO_IGNORE_SYSTEM: "1",
      OPSLEDGER_GO_VERSION: VERSION,
      OPSLEDGER_GO_H1: "h1:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=",
      GOPROXY: `file://${join(dir, "proxy")}`,
    });
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      new RegExp(
        `golang\\.org/toolchain@${MODVER} from file://\\S+ has hash ${h1(files).replace(/[+/]/g, "\\$&")}, not h1:A+=: refusing it`,
      ),
    );
    assert.ok(!existsSync(join(cache, "go", VERSION)));
  });
});
