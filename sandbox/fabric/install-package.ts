/**
 * A chaincode install package as a peer's _lifecycle InstallChaincode reads it (Fabric core/chaincode/persistence
 * chaincode_package.go ParseChaincodePackage): a gzip stream of a tar file whose regular files include metadata.json
 * (its `label`) and code.tar.gz, and its package id, `<label>:<hex SHA-256 of the bytes>`. The sandbox's own reader.
 */
import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";

export interface InstallPackage {
  readonly label: string;
  readonly packageId: string;
  readonly type: string;
}

const LABEL = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;

function field(block: Buffer, start: number, length: number): string {
  const raw = block.subarray(start, start + length);
  const end = raw.indexOf(0);
  return (end === -1 ? raw : raw.subarray(0, end)).toString("utf8");
}

/** The regular files of a tar archive (ustar or GNU, names up to 100 bytes), or an Error saying why not. */
function tarFiles(tar: Buffer): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (let at = 0; at + 512 <= tar.length;) {
    const header = tar.subarray(at, at + 512);
    if (header.every((b) => b === 0)) break;
    const name = field(header, 0, 100);
    const size = parseInt(field(header, 124, 12).trim() || "0", 8);
    if (!Number.isInteger(size)) throw new Error("error inspecting next tar header: invalid size");
    const type = String.fromCharCode(header[156] ?? 0);
    if (type !== "0" && type !== "\0") throw new Error(`tar entry ${name} is not a regular file, type ${type}`);
    files.set(name, tar.subarray(at + 512, at + 512 + size));
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return files;
}

/** Parses a package as a peer does; throws an Error with Fabric's reason when it is not one. */
export function readInstallPackage(bytes: Buffer): InstallPackage {
  // Go's gzip.NewReader: a header shorter than 10 bytes is an unexpected EOF, a wrong magic an invalid header.
  if (bytes.length < 10) throw new Error("error reading as gzip stream: unexpected EOF");
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new Error("error reading as gzip stream: gzip: invalid header");
  let tar: Buffer;
  try {
    tar = gunzipSync(bytes);
  } catch {
    throw new Error("error inspecting next tar header: unexpected EOF");
  }
  const files = tarFiles(tar);
  const code = files.get("code.tar.gz");
  const metadata = files.get("metadata.json");
  if (code === undefined) throw new Error("did not find a code package inside the package");
  if (metadata === undefined) throw new Error("did not find any package metadata (missing metadata.json)");
  let parsed: { label?: unknown; type?: unknown };
  try {
    parsed = JSON.parse(metadata.toString("utf8")) as typeof parsed;
  } catch {
    throw new Error("could not unmarshal metadata.json as json");
  }
  const label = typeof parsed.label === "string" ? parsed.label : "";
  if (!LABEL.test(label)) {
    throw new Error(
      `invalid label '${label}'. Label must be non-empty, can only consist of alphanumerics, symbols from '.+-_', and can only begin with alphanumerics`,
    );
  }
  return {
    label,
    packageId: `${label}:${createHash("sha256").update(bytes).digest("hex")}`,
    type: typeof parsed.type === "string" ? parsed.type : "",
  };
}
