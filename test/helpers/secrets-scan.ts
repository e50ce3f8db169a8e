/**
 * What the secrets scans of the e2e tests look for, and where: every text form a secret can take (a key as PEM lines,
 * DER in base64, base64url or hex at any byte alignment, its JWK members and raw scalars; a PIN, a token or a
 * passphrase as text and in the same encodings), searched in what a text decodes to as well (findSecretsDecoded:
 * string escapes and base64 undone), and the files a stack leaves on disk.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import type { ProjectStack } from "./project-stack";

/** One text form of a secret, named for the failure message (never the text itself). */
export interface SecretForm {
  readonly label: string;
  readonly text: string;
}

/** The base64 (or base64url) characters that encode only `bytes`, whatever precedes them: one run per alignment. */
function base64Runs(bytes: Buffer, encoding: "base64" | "base64url"): string[] {
  const runs: string[] = [];
  for (let shift = 0; shift < 3; shift++) {
    const all = Buffer.concat([Buffer.alloc(shift), bytes]).toString(encoding);
    const run = all.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes.length) * 8) / 6));
    if (run.length >= 8) runs.push(run);
  }
  return runs;
}

/** Every text encoding of `bytes`: hex (both cases), base64 and base64url at each of the three byte alignments. */
export function byteForms(label: string, bytes: Buffer): SecretForm[] {
  const hex = bytes.toString("hex");
  return [
    { label: `${label} as hex`, text: hex },
    { label: `${label} as HEX`, text: hex.toUpperCase() },
    ...base64Runs(bytes, "base64").map((text, i) => ({ label: `${label} as base64 (alignment ${String(i)})`, text })),
    ...base64Runs(bytes, "base64url").map((text, i) => ({
      label: `${label} as base64url (alignment ${String(i)})`,
      text,
    })),
  ];
}

/** A secret string (PIN, token, passphrase): as written, JSON-escaped, and its UTF-8 bytes in every encoding. */
export function textForms(label: string, secret: string): SecretForm[] {
  const escaped = JSON.stringify(secret).slice(1, -1);
  return [
    { label, text: secret },
    ...(escaped === secret ? [] : [{ label: `${label} JSON-escaped`, text: escaped }]),
    ...byteForms(label, Buffer.from(secret, "utf8")),
  ];
}

/**
 * The base64 body lines of a PEM that encode a byte of one of `secrets` (a key's DER also holds its public key:
 * lines of those bytes alone are no secret, and the certificate in state may well hold them).
 */
function secretPemLines(label: string, pem: string, secrets: readonly Buffer[]): SecretForm[] {
  const lines = pem.split("\n").filter((l) => l !== "" && !l.startsWith("-----"));
  const der = Buffer.from(lines.join(""), "base64");
  const ranges = secrets.flatMap((b) => {
    const at = der.indexOf(b);
    return at < 0 ? [] : [[at, at + b.length] as const];
  });
  if (ranges.length !== secrets.length) throw new Error(`${label}: the PEM does not hold every private member`);
  const forms: SecretForm[] = [];
  let at = 0;
  for (const [i, line] of lines.entries()) {
    const bytes = Buffer.from(line, "base64").length;
    if (line.length > 20 && ranges.some(([from, to]) => at < to && from < at + bytes)) {
      forms.push({ label: `${label} PEM line ${String(i + 1)}`, text: line });
    }
    at += bytes;
  }
  return forms;
}

/**
 * Every form a private key can be held in: the PEM lines that encode private bytes (of the input PEM, PKCS#8 and the
 * algorithm's own DER: SEC1 for EC, PKCS#1 for RSA; Ed25519 has none but PKCS#8), those DERs whole in every byte
 * encoding, and the JWK's private members (EC and Ed25519 `d`; RSA `d`, `p`, `q`, `dp`, `dq`, `qi`) as base64url and
 * as raw big-endian scalars in every encoding.
 * The JWK's `x`/`y` (and `n`/`e`) are left out: they are the public key, which the certificate in state carries by
 * design (test/unit/secrets-scan.test.ts shows the forms do not match it).
 */
export function privateKeyForms(label: string, pem: string): SecretForm[] {
  const key = crypto.createPrivateKey(pem);
  const own = key.asymmetricKeyType === "rsa" ? "pkcs1" : key.asymmetricKeyType === "ec" ? "sec1" : undefined;
  const pkcs8 = key.export({ type: "pkcs8", format: "der" });
  const jwk = key.export({ format: "jwk" }) as Record<string, unknown>;
  const members = ["d", "p", "q", "dp", "dq", "qi"].flatMap((m) => {
    const value = jwk[m];
    return typeof value === "string" ? [[m, value] as const] : [];
  });
  // DER integers may carry a leading zero byte, which the JWK leaves out: the value's bytes are found either way.
  const scalars = members.map(([, value]) => Buffer.from(value, "base64url"));
  return [
    ...secretPemLines(label, pem, scalars),
    ...secretPemLines(`${label} PKCS#8`, key.export({ type: "pkcs8", format: "pem" }).toString(), scalars),
    ...(own === undefined
      ? []
      : [
          ...secretPemLines(`${label} ${own}`, key.export({ type: own, format: "pem" }).toString(), scalars),
          ...byteForms(`${label} ${own} DER`, key.export({ type: own, format: "der" })),
        ]),
    ...byteForms(`${label} PKCS#8 DER`, pkcs8),
    ...members.flatMap(([m, value]) => [
      { label: `${label} JWK ${m}`, text: value },
      ...byteForms(`${label} ${m} scalar`, Buffer.from(value, "base64url")),
    ]),
  ];
}

/** The labels of the forms found in `text` as it is. */
export function findSecrets(text: string, forms: readonly SecretForm[]): string[] {
  return forms.filter((f) => text.includes(f.text)).map((f) => f.label);
}

/** A run of base64 or base64url characters long enough to hold a secret (12 bytes and more). */
const BASE64_RUN = /[A-Za-z0-9+/_-]{16,}={0,2}/g;
/** A string escape of JSON or Go's %q: `\n`, `\"`, `\u003c`, `\x2f`, `\U0001f600`. */
const ESCAPE = /\\(u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|x[0-9a-fA-F]{2}|[nrt"'\\/bf])/g;
const ESCAPED: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", b: "\b", f: "\f" };

/** `text` with its string escapes undone (one level: a value escaped twice needs a second pass). */
function unescaped(text: string): string {
  return text.replace(ESCAPE, (_m, e: string) =>
    e.length > 1 ? String.fromCodePoint(parseInt(e.slice(1), 16)) : (ESCAPED[e] ?? e),
  );
}

/** `text` with every base64 or base64url run replaced by what it encodes (gzip unpacked), as UTF-8 or Latin-1. */
function base64Decoded(text: string): string {
  return text.replace(BASE64_RUN, (run) => {
    const bytes = Buffer.from(run, "base64");
    if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
      try {
        return zlib.gunzipSync(bytes).toString("utf8");
      } catch {
        // Not a whole gzip stream: kept as the bytes below.
      }
    }
    return bytes.toString("latin1");
  });
}

/**
 * What an attacker reads out of `text`: the text, and the texts its string escapes (JSON, Go's %q: Pulumi's property
 * dumps) and base64 runs (Configure's variables, encoded blobs, gzip inside) decode to, to `depth` levels, so a
 * secret escaped, encoded or both, in any order, is read as plainly as one written out.
 */
export function decodedViews(text: string, depth = 2): string[] {
  const views = [text];
  let level = [text];
  for (let i = 0; i < depth; i++) {
    level = level.flatMap((t) => [unescaped(t), base64Decoded(t)]).filter((t) => !views.includes(t));
    views.push(...level);
  }
  return views;
}

/** The labels of the forms found in `text` or in anything it decodes to (decodedViews), each once. */
export function findSecretsDecoded(text: string, forms: readonly SecretForm[]): string[] {
  const views = decodedViews(text);
  return forms.filter((f) => views.some((v) => v.includes(f.text))).map((f) => f.label);
}

/** What a scan of files read: their text (gzip files unpacked), and how many files and bytes that was. */
export interface ScannedFiles {
  readonly text: string;
  readonly files: number;
  readonly bytes: number;
}

/** Every file under a directory as it is on disk, gzip files (the CLI's unencrypted logs) unpacked. */
export function scanFiles(dir: string): ScannedFiles {
  if (!fs.existsSync(dir)) return { text: "", files: 0, bytes: 0 };
  const texts = fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const bytes = fs.readFileSync(path.join(e.parentPath, e.name));
      try {
        return zlib.gunzipSync(bytes).toString("utf8");
      } catch {
        return bytes.toString("utf8");
      }
    });
  return { text: texts.join("\n"), files: texts.length, bytes: texts.reduce((n, t) => n + t.length, 0) };
}

/** Every file under a directory as it is on disk, gzip files unpacked, as one text. */
export function filesText(dir: string): string {
  return scanFiles(dir).text;
}

/** The stack's files at rest, with counts: the CLI's automatic logs and the file backend (stacks, history, backups). */
export function scanStackFilesAtRest(stack: ProjectStack): { logs: ScannedFiles; backend: ScannedFiles } {
  return { logs: scanFiles(path.join(stack.home, "logs")), backend: scanFiles(path.join(stack.backendDir, ".pulumi")) };
}

/** The stack's files at rest as one text: the CLI's automatic logs and the file backend (stacks, history, backups). */
export function stackFilesAtRest(stack: ProjectStack): string {
  const { logs, backend } = scanStackFilesAtRest(stack);
  return [logs.text, backend.text].join("\n");
}
