/**
 * A Signer backed by a PKCS#11 token (an HSM, SoftHSM), through pkcs11js — the binding the official Fabric client's
 * `signers.newHSMSignerFactory` uses. pkcs11js is an optional dependency, loaded on first use.
 *
 * One signing operation per session at a time: PKCS#11 allows one active operation per session, and the official
 * client's HSM signer shares one session between concurrent signs, so two overlapping C_SignInit calls fail with
 * CKR_OPERATION_ACTIVE. Here every signature takes a session from a pool (opening one when none is idle, up to
 * `maxSessions`, else waiting), runs C_SignInit and C_SignAsync on it alone, and gives it back. ECDSA keys (P-256,
 * P-384) sign digests with CKM_ECDSA: raw r ‖ s from the token, low-S DER out (with the curve's order). Ed25519 keys
 * (CKK_EC_EDWARDS) sign what they are given with CKM_EDDSA without parameters (pure Ed25519, 64 bytes): the gateway's
 * hash is then `none`, so that is the message itself.
 *
 * A library is loaded and initialized once per process (CKF_OS_LOCKING_OK: C_SignAsync runs on worker threads) and
 * finalized when its last signer closes, unless something else in the process had initialized it first.
 */
import * as fs from "node:fs";
import type * as crypto from "node:crypto";
import * as path from "node:path";
import { isSingleExecutable, PKCS11_PLATFORMS, pluginPlatform } from "../assets/package-files";
import { ecdsaCurveOf } from "./key-types";
import type { KeyType } from "./key-types";
import { SignerError } from "../errors/ledger/signer-error";
import { keyTypeOfEcParams, publicKeyFromEcPoint } from "./signer-keys";
import { toLowSDer } from "./signing";
import type { Signer } from "./signing";

type Pkcs11js = typeof import("pkcs11js");
type Pkcs11 = InstanceType<Pkcs11js["PKCS11"]>;
type Handle = Buffer;

/** PKCS#11 3.0 values pkcs11js 2.1 does not name: the Edwards key type, its pair generation and pure EdDSA. */
export const CKK_EC_EDWARDS = 0x40;
export const CKM_EC_EDWARDS_KEY_PAIR_GEN = 0x1055;
export const CKM_EDDSA = 0x1057;

/** Sessions one signer opens at most; further concurrent signs wait for one. */
export const DEFAULT_HSM_MAX_SESSIONS = 8;

export interface HsmSignerOptions {
  /** Path of the PKCS#11 module, e.g. /usr/lib/softhsm/libsofthsm2.so. */
  readonly library: string;
  /** The token's label (CK_TOKEN_INFO.label, trailing blanks ignored). */
  readonly tokenLabel: string;
  /** The user PIN. Never put in messages. */
  readonly pin: string;
  /** CKA_ID of the private key (and of its public key object). */
  readonly keyId: Uint8Array;
  /** @default DEFAULT_HSM_MAX_SESSIONS */
  readonly maxSessions?: number;
}

export interface HsmSigner {
  /** Signs a digest on the token; low-S DER out. Safe to call concurrently. */
  readonly signer: Signer;
  /** The key's public key from CKA_EC_POINT (of the public key object, else of the private key), if the token has it. */
  readonly publicKey: crypto.KeyObject | undefined;
  /**
   * The key type, from CKA_KEY_TYPE and CKA_EC_PARAMS: ECDSA keys sign the digest they are given with CKM_ECDSA
   * (raw r ‖ s out, low-S DER returned), Ed25519 keys sign the message they are given with CKM_EDDSA (pure).
   */
  readonly keyType: KeyType;
  /** `pkcs11:token=<label>;id=<hex>` (RFC 7512 style): names the key in messages, without the PIN. */
  readonly reference: string;
  /** Sessions opened so far (tests and benchmarks). */
  readonly sessionsOpened: () => number;
  /** Closes the sessions; finalizes the library when this was its last signer. */
  close(): void;
}

interface LoadedLibrary {
  readonly module: Pkcs11js;
  readonly pkcs11: Pkcs11;
  /** False when something else in the process had already initialized the library: never finalize it then. */
  readonly owned: boolean;
  users: number;
}

const libraries = new Map<string, LoadedLibrary>();

/** The PKCS#11 binding's native addon, which the plugin executable loads from its own folder. */
export const PKCS11_ADDON = "pkcs11.node";

/**
 * Why the plugin executable for `platform` cannot sign through PKCS#11: its archive ships no addon (PKCS11_PLATFORMS
 * lists those that do), or the one it ships is not at `addon`, beside the executable.
 */
export function executableWithoutPkcs11(platform: string, addon: string): string {
  return PKCS11_PLATFORMS.includes(platform)
    ? `PKCS#11 signing from the pulumi-resource-opsledger executable loads the PKCS#11 binding's addon from beside it ` +
        `(${addon}), which is missing: keep the files of the ${platform} release archive together`
    : `PKCS#11 signing is not available from the pulumi-resource-opsledger executable for ${platform}: a native addon ` +
        `cannot run from inside the executable, and the release archives ship the PKCS#11 binding's addon for ` +
        `${PKCS11_PLATFORMS.join(", ")} only. On ${platform}, sign with kms, keyFile or keyEnv, or run the plugin from ` +
        "the npm package (bin/pulumi-resource-opsledger, with Node.js 22 or later and the optional pkcs11js)";
}

function loadBinding(reference: string): Pkcs11js {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional native dependency, loaded on use
    return require("pkcs11js") as Pkcs11js;
  } catch (error) {
    throw new SignerError({
      reference,
      reason: isSingleExecutable()
        ? executableWithoutPkcs11(pluginPlatform(), path.join(path.dirname(process.execPath), PKCS11_ADDON))
        : "PKCS#11 signing needs the optional dependency pkcs11js, which is not installed or did not build: run " +
          "`npm install pkcs11js` (it builds with node-gyp: a C++ compiler and the Node.js headers are needed)",
      cause: error,
    });
  }
}

/** The CKR_* name of a pkcs11js error (its message), or undefined for other errors. */
export function pkcs11Code(error: unknown): string | undefined {
  const message = error instanceof Error ? error.message : "";
  return /^CKR_[A-Z_]+/.exec(message)?.[0];
}

function acquireLibrary(library: string, reference: string): LoadedLibrary {
  const existing = libraries.get(library);
  if (existing !== undefined) {
    existing.users++;
    return existing;
  }
  if (!fs.existsSync(library)) {
    throw new SignerError({
      reference,
      code: "LIBRARY_NOT_FOUND",
      reason: `the PKCS#11 library '${library}' does not exist: give the path of the token's module (.so), e.g. /usr/lib/softhsm/libsofthsm2.so`,
    });
  }
  const module = loadBinding(reference);
  const pkcs11 = new module.PKCS11();
  try {
    pkcs11.load(library);
  } catch (error) {
    throw new SignerError({
      reference,
      code: "LIBRARY_NOT_LOADED",
      reason: `'${library}' could not be loaded as a PKCS#11 module: ${error instanceof Error ? error.message : String(error)}`,
      cause: error,
    });
  }
  let owned = true;
  try {
    pkcs11.C_Initialize({ flags: module.CKF_OS_LOCKING_OK });
  } catch (error) {
    if (pkcs11Code(error) !== "CKR_CRYPTOKI_ALREADY_INITIALIZED") {
      pkcs11.close();
      throw new SignerError({
        reference,
        code: pkcs11Code(error),
        reason: `C_Initialize of '${library}' failed (${pkcs11Code(error) ?? String(error)})`,
        cause: error,
      });
    }
    owned = false;
  }
  const loaded: LoadedLibrary = { module, pkcs11, owned, users: 1 };
  libraries.set(library, loaded);
  return loaded;
}

function releaseLibrary(library: string): void {
  const loaded = libraries.get(library);
  if (loaded === undefined || --loaded.users > 0) return;
  libraries.delete(library);
  if (!loaded.owned) return;
  try {
    loaded.pkcs11.C_Finalize();
  } finally {
    loaded.pkcs11.close();
  }
}

function findSlot(lib: LoadedLibrary, label: string, reference: string): Handle {
  const slots = lib.pkcs11.C_GetSlotList(true);
  const labels: string[] = [];
  for (const slot of slots) {
    const tokenLabel = lib.pkcs11.C_GetTokenInfo(slot).label.trim();
    if (tokenLabel === label) return slot;
    if (tokenLabel !== "") labels.push(`'${tokenLabel}'`);
  }
  throw new SignerError({
    reference,
    code: "TOKEN_NOT_FOUND",
    reason:
      `no token labelled '${label}' in any slot of this PKCS#11 library ` +
      `(tokens present: ${labels.length === 0 ? "none" : labels.join(", ")}): check tokenLabel`,
  });
}

function login(lib: LoadedLibrary, session: Handle, pin: string, reference: string): void {
  try {
    lib.pkcs11.C_Login(session, lib.module.CKU_USER, pin);
  } catch (error) {
    const code = pkcs11Code(error);
    if (code === "CKR_USER_ALREADY_LOGGED_IN") return;
    const why: Record<string, string> = {
      CKR_PIN_INCORRECT: "the PIN is incorrect",
      CKR_PIN_LEN_RANGE: "the PIN has a length the token does not accept",
      CKR_PIN_LOCKED: "the user PIN is locked (too many wrong PINs): unlock it with the security officer PIN",
      CKR_USER_PIN_NOT_INITIALIZED: "the token's user PIN was never initialized",
    };
    throw new SignerError({
      reference,
      code,
      reason: `C_Login failed: ${(code !== undefined ? why[code] : undefined) ?? code ?? String(error)}`,
      cause: code === undefined ? error : undefined,
    });
  }
}

function findObject(lib: LoadedLibrary, session: Handle, objectClass: number, keyId: Uint8Array): Handle | undefined {
  const { pkcs11, module } = lib;
  pkcs11.C_FindObjectsInit(session, [
    { type: module.CKA_CLASS, value: objectClass },
    { type: module.CKA_ID, value: Buffer.from(keyId) },
  ]);
  try {
    return pkcs11.C_FindObjects(session, 1)[0];
  } finally {
    pkcs11.C_FindObjectsFinal(session);
  }
}

/** The key type of a key object: CKK_EC with the P-256 or P-384 OID, or CKK_EC_EDWARDS; undefined for others. */
function keyTypeOfObject(lib: LoadedLibrary, session: Handle, handle: Handle): KeyType | undefined {
  try {
    const [type, params] = lib.pkcs11.C_GetAttributeValue(session, handle, [
      { type: lib.module.CKA_KEY_TYPE },
      { type: lib.module.CKA_EC_PARAMS },
    ]);
    const value = type?.value;
    const kind = Buffer.isBuffer(value) ? value.readUIntLE(0, Math.min(value.length, 6)) : -1;
    if (kind === CKK_EC_EDWARDS) return "ed25519";
    if (kind !== lib.module.CKK_EC || !Buffer.isBuffer(params?.value)) return undefined;
    const found = keyTypeOfEcParams(params.value);
    return found === "ed25519" ? undefined : found;
  } catch {
    return undefined;
  }
}

function readPublicKey(lib: LoadedLibrary, session: Handle, handle: Handle): crypto.KeyObject | undefined {
  try {
    const [point, params] = lib.pkcs11.C_GetAttributeValue(session, handle, [
      { type: lib.module.CKA_EC_POINT },
      { type: lib.module.CKA_EC_PARAMS },
    ]);
    const value = point?.value;
    const curve = params?.value;
    if (!Buffer.isBuffer(value) || !Buffer.isBuffer(curve)) return undefined;
    return publicKeyFromEcPoint(value, curve);
  } catch {
    return undefined; // the attribute is not readable on this object
  }
}

/**
 * Opens a signer on a PKCS#11 token: loads the library, finds the token by label, logs in, finds the EC private key by
 * CKA_ID and reads its public key. Every failure is a SignerError naming what to fix (library, token, PIN, key).
 */
export function openHsmSigner(options: HsmSignerOptions): HsmSigner {
  const keyHex = Buffer.from(options.keyId).toString("hex");
  const reference = `pkcs11:token=${options.tokenLabel};id=${keyHex}`;
  const maxSessions = options.maxSessions ?? DEFAULT_HSM_MAX_SESSIONS;
  const lib = acquireLibrary(options.library, reference);
  const idle: Handle[] = [];
  const waiting: { resolve: (session: Handle) => void; reject: (error: unknown) => void }[] = [];
  let open = 0;
  let opened = 0;
  let closed = false;
  let slot: Handle;
  let privateKey: Handle;
  let publicKey: crypto.KeyObject | undefined;
  let keyType: KeyType;

  const openSession = (): Handle => {
    const session = lib.pkcs11.C_OpenSession(slot, lib.module.CKF_SERIAL_SESSION);
    try {
      login(lib, session, options.pin, reference); // the login state is shared, but lost when the last session closes
    } catch (error) {
      lib.pkcs11.C_CloseSession(session);
      throw error;
    }
    open++;
    opened++;
    return session;
  };
  const closeAll = (): void => {
    for (const session of idle.splice(0)) {
      open--;
      try {
        lib.pkcs11.C_CloseSession(session);
      } catch {
        // already gone with its token
      }
    }
  };

  try {
    slot = findSlot(lib, options.tokenLabel, reference);
    const first = openSession();
    idle.push(first);
    const found = findObject(lib, first, lib.module.CKO_PRIVATE_KEY, options.keyId);
    if (found === undefined) {
      throw new SignerError({
        reference,
        code: "KEY_NOT_FOUND",
        reason:
          `token '${options.tokenLabel}' has no EC private key with CKA_ID ${keyHex}: check keyId (by default the ` +
          "certificate's subject key identifier, SHA-256 of its uncompressed public point, as Fabric's BCCSP names keys)",
      });
    }
    privateKey = found;
    const type = keyTypeOfObject(lib, first, found);
    if (type === undefined) {
      throw new SignerError({
        reference,
        code: "KEY_TYPE_UNSUPPORTED",
        reason:
          `the private key with CKA_ID ${keyHex} on token '${options.tokenLabel}' is not an ECDSA P-256, ECDSA P-384 ` +
          "or Ed25519 key (CKK_EC with the P-256 or P-384 curve, or CKK_EC_EDWARDS): Fabric identities need one of those",
      });
    }
    keyType = type;
    const publicObject = findObject(lib, first, lib.module.CKO_PUBLIC_KEY, options.keyId);
    publicKey =
      (publicObject === undefined ? undefined : readPublicKey(lib, first, publicObject)) ??
      readPublicKey(lib, first, privateKey);
  } catch (error) {
    closeAll();
    releaseLibrary(options.library);
    if (error instanceof SignerError) throw error;
    throw new SignerError({
      reference,
      code: pkcs11Code(error),
      reason: `the token could not be used: ${pkcs11Code(error) ?? String(error)}`,
      cause: error,
    });
  }

  let released = false;
  const releaseWhenDone = (): void => {
    if (closed && open === 0 && !released) {
      released = true;
      releaseLibrary(options.library);
    }
  };
  const drop = (session: Handle): void => {
    open--;
    try {
      lib.pkcs11.C_CloseSession(session);
    } catch {
      // already gone with its token
    }
  };
  const take = (): Promise<Handle> => {
    const session = idle.pop();
    if (session !== undefined) return Promise.resolve(session);
    if (open < maxSessions) return Promise.resolve(openSession());
    return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
  };
  const give = (session: Handle): void => {
    if (closed) {
      drop(session);
      releaseWhenDone();
      return;
    }
    const next = waiting.shift();
    if (next !== undefined) next.resolve(session);
    else idle.push(session);
  };

  const curve = ecdsaCurveOf(keyType);
  const signer: Signer = async (digest) => {
    if (closed) throw new SignerError({ reference, reason: "the signer was closed" });
    const session = await take();
    let raw: Buffer;
    try {
      lib.pkcs11.C_SignInit(session, { mechanism: curve === undefined ? CKM_EDDSA : lib.module.CKM_ECDSA }, privateKey);
      raw = await lib.pkcs11.C_SignAsync(
        session,
        Buffer.from(digest),
        Buffer.alloc(curve === undefined ? 64 : 2 * curve.bytes),
      );
    } catch (error) {
      // C_Sign ends the operation whatever happened, but a session in an unknown state is not reused.
      drop(session);
      const next = waiting.shift();
      if (next !== undefined) take().then(next.resolve, next.reject);
      releaseWhenDone();
      throw new SignerError({
        reference,
        code: pkcs11Code(error),
        reason: `signing failed: ${pkcs11Code(error) ?? String(error)}`,
        cause: error,
      });
    }
    give(session);
    return toLowSDer(new Uint8Array(raw), keyType);
  };

  return {
    signer,
    publicKey,
    keyType,
    reference,
    sessionsOpened: () => opened,
    close: () => {
      if (closed) return;
      closed = true;
      closeAll();
      for (const w of waiting.splice(0)) w.reject(new SignerError({ reference, reason: "the signer was closed" }));
      releaseWhenDone();
    },
  };
}
