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
import { publicKeyFromEcPoint } from "../../provider/ledger/signer-keys";
import { CKK_EC_EDWARDS, CKM_EC_EDWARDS_KEY_PAIR_GEN } from "../../provider/ledger/hsm-signer";

type Pkcs11js = typeof import("pkcs11js");

/** A key type a token can generate for a Fabric identity. */
export type TokenKeyType = "ecdsa-p256" | "ecdsa-p384" | "ed25519";

/** The DER of CKA_EC_PARAMS: the P-256 or P-384 OID, or Ed25519's OID (PKCS#11 3.0). */
const EC_PARAMS: Readonly<Record<TokenKeyType, string>> = {
  "ecdsa-p256": "06082a8648ce3d030107",
  "ecdsa-p384": "06052b81040022",
  ed25519: "06032b6570",
};

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
  /**
   * Generates a key pair inside the token (C_GenerateKeyPair: CKM_EC_KEY_PAIR_GEN, or CKM_EC_EDWARDS_KEY_PAIR_GEN for
   * Ed25519) with CKA_ID = `id`; the private key is sensitive: it never leaves the token. Returns the public key (from
   * the public key object's CKA_EC_POINT).
   */
  generateKey(keyType: TokenKeyType, id: Buffer): crypto.KeyObject;
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
    generateKey(keyType, id) {
      return generateInToken({ library, label, pin, conf }, keyType, id);
    },
    activate() {
      process.env["SOFTHSM2_CONF"] = conf;
    },
    dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Generates a key pair with CKA_ID `id` inside the token, with a library instance of its own. */
function generateInToken(
  token: { library: string; label: string; pin: string; conf: string },
  keyType: TokenKeyType,
  id: Buffer,
): crypto.KeyObject {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the optional native dependency, as the signer loads it
  const module = require("pkcs11js") as Pkcs11js;
  const pkcs11 = new module.PKCS11();
  const previous = process.env["SOFTHSM2_CONF"];
  process.env["SOFTHSM2_CONF"] = token.conf; // SoftHSM reads it in C_Initialize
  pkcs11.load(token.library);
  pkcs11.C_Initialize();
  try {
    const slot = pkcs11.C_GetSlotList(true).find((s) => pkcs11.C_GetTokenInfo(s).label.trim() === token.label);
    if (slot === undefined) throw new Error(`no token labelled ${token.label}`);
    const session = pkcs11.C_OpenSession(slot, module.CKF_SERIAL_SESSION | module.CKF_RW_SESSION);
    pkcs11.C_Login(session, module.CKU_USER, token.pin);
    const ed = keyType === "ed25519";
    const common = [
      { type: module.CKA_TOKEN, value: true },
      { type: module.CKA_ID, value: id },
      { type: module.CKA_KEY_TYPE, value: ed ? CKK_EC_EDWARDS : module.CKK_EC },
    ];
    const { publicKey } = pkcs11.C_GenerateKeyPair(
      session,
      { mechanism: ed ? CKM_EC_EDWARDS_KEY_PAIR_GEN : module.CKM_EC_KEY_PAIR_GEN },
      [
        ...common,
        { type: module.CKA_VERIFY, value: true },
        { type: module.CKA_EC_PARAMS, value: Buffer.from(EC_PARAMS[keyType], "hex") },
      ],
      [
        ...common,
        { type: module.CKA_SIGN, value: true },
        { type: module.CKA_PRIVATE, value: true },
        { type: module.CKA_SENSITIVE, value: true },
      ],
    );
    const [point, params] = pkcs11.C_GetAttributeValue(session, publicKey, [
      { type: module.CKA_EC_POINT },
      { type: module.CKA_EC_PARAMS },
    ]);
    pkcs11.C_CloseSession(session);
    const key = publicKeyFromEcPoint(point?.value as Buffer, params?.value);
    if (key === undefined) throw new Error(`the token's ${keyType} public key has no usable CKA_EC_POINT`);
    return key;
  } finally {
    pkcs11.C_Finalize();
    pkcs11.close();
    if (previous === undefined) delete process.env["SOFTHSM2_CONF"];
    else process.env["SOFTHSM2_CONF"] = previous;
  }
}
