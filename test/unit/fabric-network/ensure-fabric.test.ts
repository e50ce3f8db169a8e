import { strict as assert } from "node:assert";
import { execFile, execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const SCRIPT = join(__dirname, "..", "..", "..", "..", "scripts", "ensure-fabric.sh");
const FILE = "hyperledger-fabric-linux-amd64-2.5.16.tar.gz";

/** Runs the script with `env` over this process's environment, minus the variables listed in `unset`. */
function run(
  env: NodeJS.ProcessEnv,
  unset: readonly string[] = [],
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  const clean = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([k]) => !unset.includes(k)));
  return new Promise((resolve) => {
    execFile("bash", [SCRIPT, ...args], { env: clean }, (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : typeof error.code === "number" ? error.code : -1, stdout, stderr });
    });
  });
}

describe("scripts/ensure-fabric.sh (without the real archive)", function () {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "opsledger-ensure-fabric-"));
    mkdirSync(join(dir, "mirror"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("refuses the official download without a published checksum or a pinned digest, before downloading", async () => {
    const r = await run({ OPSLEDGER_CACHE_DIR: join(dir, "cache") }, [
      "OPSLEDGER_RELEASE_MIRROR",
      "OPSLEDGER_EXPECTED_SHA256",
    ]);
    assert.equal(r.code, 1);
    assert.match(
      r.stderr,
      /no published checksum for hyperledger-fabric-linux-amd64-2\.5\.16\.tar\.gz and none pinned \(OPSLEDGER_EXPECTED_SHA256\)/,
    );
    assert.equal(r.stdout, "");
  });

  it("refuses a mirror archive whose digest differs from the mirror's SHA256SUMS", async () => {
    writeFileSync(join(dir, "mirror", FILE), "not the archive");
    writeFileSync(join(dir, "mirror", "SHA256SUMS"), `${"0".repeat(64)}  ${FILE}\n`);
    const r = await run({ OPSLEDGER_CACHE_DIR: join(dir, "cache"), OPSLEDGER_RELEASE_MIRROR: join(dir, "mirror") });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /checksum mismatch for hyperledger-fabric-linux-amd64-2\.5\.16\.tar\.gz/);
  });

  it("refuses a verified archive that lacks the binaries, and rejects a malformed version", async () => {
    const tar = join(dir, "mirror", FILE);
    mkdirSync(join(dir, "tree", "bin"), { recursive: true });
    writeFileSync(join(dir, "tree", "bin", "peer"), "");
    execFileSync("tar", ["-C", join(dir, "tree"), "-czf", tar, "bin"]);
    const digest = createHash("sha256").update(readFileSync(tar)).digest("hex");
    writeFileSync(join(dir, "mirror", "SHA256SUMS"), `${digest}  ${FILE}\n`);
    const r = await run({ OPSLEDGER_CACHE_DIR: join(dir, "cache"), OPSLEDGER_RELEASE_MIRROR: join(dir, "mirror") });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /lacks bin\/\{peer,orderer,osnadmin,configtxgen,cryptogen\}/);
    const bad = await run({ OPSLEDGER_CACHE_DIR: join(dir, "cache") }, [], "2.5");
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /version must look like 2\.5\.16 or 3\.1\.5, got '2\.5'/);
  });
});
