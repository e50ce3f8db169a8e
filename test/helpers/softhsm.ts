/**
 * SoftHSM2 tokens for tests: each token lives in its own temp dir with its own SOFTHSM2_CONF (SoftHSM reads it when
 * a process initializes the library). scripts/run.sh provides SoftHSM (scripts/ensure-softhsm.sh) and exports
 * OPSLEDGER_SOFTHSM_LIB and OPSLEDGER_SOFTHSM_UTIL.
 */
import { execFileSync } from "node:child_process";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";

export interface SoftHsmToken {
  readonly library: string;
  readonly label: string;
  readonly pin: string;
  /** The SOFTHSM2_CONF file of this token's directory. */
  readonly conf: string;
  /** Environment a process needs to see this token. */
  readonly env: Readonly<Record<string, string>>;
  /** Imports a P-256 private key (PEM) and its public key with CKA_ID = `idHex`. */
  importKey(privateKeyPem: string, idHex: string, label?: string): void;
  /** Makes this token the one SoftHSM sees in this process (before the library is initialized). */
  activate(): void;
  dispose(): void;
}

export function softHsmPaths(): { library: string; util: string } {
  const library = process.env["OPSLEDGER_SOFTHSM_LIB"];
  const util = process.env["OPSLEDGER_SOFTHSM_UTIL"];
  if (!library || !util) {
    throw new Error(
      "SoftHSM is not set up: run the tests through `npm test` (scripts/run.sh exports OPSLEDGER_SOFTHSM_LIB and " +
        "OPSLEDGER_SOFTHSM_UTIL from scripts/ensure-softhsm.sh)",
    );
  }
  return { library, util };
}

/** A fresh, initialized token (user PIN `pin`, SO PIN "so-pin-5678") in its own temp dir. */
export function createSoftHsmToken(label = "fabric", pin = "1234"): SoftHsmToken {
  const { library, util } = softHsmPaths();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-softhsm-"));
  fs.mkdirSync(path.join(dir, "tokens"));
  const conf = path.join(dir, "softhsm2.conf");
  fs.writeFileSync(
    conf,
    `directories.tokendir = ${path.join(dir, "tokens")}\nobjectstore.backend = file\nlog.level = ERROR\n`,
  );
  const env = { SOFTHSM2_CONF: conf };
  const run = (args: string[]): void => {
    execFileSync(util, ["--module", library, ...args], { env: { ...process.env, ...env }, stdio: "pipe" });
  };
  run(["--init-token", "--free", "--label", label, "--pin", pin, "--so-pin", "so-pin-5678"]);
  return {
    library,
    label,
    pin,
    conf,
    env,
    importKey(privateKeyPem, idHex, keyLabel = `key-${idHex.slice(0, 8)}`) {
      const file = path.join(dir, `import-${idHex.slice(0, 16)}.pem`);
      const pkcs8 = crypto.createPrivateKey(privateKeyPem).export({ type: "pkcs8", format: "pem" }).toString();
      fs.writeFileSync(file, pkcs8, { mode: 0o600 });
      try {
        run(["--import", file, "--token", label, "--label", keyLabel, "--id", idHex, "--pin", pin]);
      } finally {
        fs.rmSync(file, { force: true });
      }
    },
    activate() {
      process.env["SOFTHSM2_CONF"] = conf;
    },
    dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
