/**
 * The archive formats of a chaincode install package: a gzip stream of a tar file. Written deterministically — the
 * same entries give the same bytes on every machine and Node.js version: ustar headers with mode 0644, uid/gid 0, no
 * owner names, mtime 0, entries in the order given; gzip with mtime 0, OS "unknown" and stored (uncompressed) deflate
 * blocks, so no compressor's version can change a byte (a package is a few KiB of JSON). Read back leniently, as Go's
 * archive/tar and compress/gzip read what Fabric's peer CLI writes: any deflate level, ustar, GNU and PAX headers.
 * Readers throw a plain Error saying what is wrong, which chaincode-package.ts reports against its input.
 */
import * as zlib from "node:zlib";
import * as CRC32 from "crc-32";

const BLOCK = 512;
/** The most a stored deflate block holds. */
const STORED_BLOCK_MAX = 0xffff;

export interface ArchiveEntry {
  readonly name: string;
  readonly data: Uint8Array;
}

function octal(value: number, width: number): string {
  return value.toString(8).padStart(width - 1, "0") + "\0";
}

function tarHeader(name: string, size: number): Uint8Array {
  const header = Buffer.alloc(BLOCK, 0);
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long: ${name}`);
  header.write(name, 0, "utf8");
  header.write(octal(0o644, 8), 100, "ascii");
  header.write(octal(0, 8), 108, "ascii");
  header.write(octal(0, 8), 116, "ascii");
  header.write(octal(size, 12), 124, "ascii");
  header.write(octal(0, 12), 136, "ascii");
  header.fill(0x20, 148, 156); // the checksum field counts as spaces while it is summed
  header.write("0", 156, "ascii");
  header.write("ustar\0", 257, "ascii");
  header.write("00", 263, "ascii");
  let sum = 0;
  for (const byte of header) sum += byte;
  header.write(sum.toString(8).padStart(6, "0") + "\0 ", 148, "ascii");
  return header;
}

/** A tar file of `entries`, in order, regular files only, ended by two zero blocks. */
export function writeTar(entries: readonly ArchiveEntry[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const entry of entries) {
    parts.push(tarHeader(entry.name, entry.data.length), entry.data);
    const pad = (BLOCK - (entry.data.length % BLOCK)) % BLOCK;
    if (pad > 0) parts.push(Buffer.alloc(pad, 0));
  }
  parts.push(Buffer.alloc(2 * BLOCK, 0));
  return Buffer.concat(parts);
}

/** A gzip stream of `data` in stored deflate blocks, with mtime 0 and OS 255 (unknown). */
export function gzipStored(data: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff])];
  let offset = 0;
  do {
    const length = Math.min(STORED_BLOCK_MAX, data.length - offset);
    const final = offset + length >= data.length;
    const block = Buffer.alloc(5);
    block[0] = final ? 1 : 0;
    block.writeUInt16LE(length, 1);
    block.writeUInt16LE(~length & 0xffff, 3);
    parts.push(block, data.subarray(offset, offset + length));
    offset += length;
  } while (offset < data.length);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(CRC32.buf(data) >>> 0, 0);
  trailer.writeUInt32LE(data.length >>> 0, 4);
  parts.push(trailer);
  return Buffer.concat(parts);
}

function text(block: Uint8Array, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return Buffer.from(end === -1 ? field : field.subarray(0, end)).toString("utf8");
}

function numeric(block: Uint8Array, start: number, length: number): number {
  const field = block.subarray(start, start + length);
  if (((field[0] ?? 0) & 0x80) !== 0) {
    // GNU base-256: big-endian after the marker bit.
    let value = (field[0] ?? 0) & 0x7f;
    for (const byte of field.subarray(1)) value = value * 256 + byte;
    return value;
  }
  const digits = text(block, start, length).trim();
  if (digits === "") return 0;
  if (!/^[0-7]+$/.test(digits)) throw new Error(`bad octal number '${digits}' in a tar header`);
  return parseInt(digits, 8);
}

/** PAX records ("<len> key=value\n") that matter here: the path and size overrides. */
function paxRecords(data: Uint8Array): Map<string, string> {
  const records = new Map<string, string>();
  const body = Buffer.from(data).toString("utf8");
  let at = 0;
  while (at < body.length) {
    const space = body.indexOf(" ", at);
    const length = Number(body.slice(at, space));
    if (space === -1 || !Number.isInteger(length) || length <= 0) break;
    const record = body.slice(space + 1, at + length - 1);
    const eq = record.indexOf("=");
    if (eq > 0) records.set(record.slice(0, eq), record.slice(eq + 1));
    at += length;
  }
  return records;
}

/** A tar entry as read: its name, type flag and contents. */
export interface ReadEntry {
  readonly name: string;
  /** "0" for a regular file (a NUL flag reads as "0"). */
  readonly type: string;
  readonly data: Uint8Array;
}

/** The entries of a tar file, PAX and GNU long-name headers merged into the entry they describe. */
export function readTar(tar: Uint8Array): ReadEntry[] {
  const entries: ReadEntry[] = [];
  let at = 0;
  let longName: string | undefined;
  let pax = new Map<string, string>();
  while (at + BLOCK <= tar.length) {
    const header = tar.subarray(at, at + BLOCK);
    if (header.every((b) => b === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : (header[i] ?? 0);
    if (numeric(header, 148, 8) !== sum) throw new Error("a tar header's checksum does not match");
    const flag = String.fromCharCode(header[156] ?? 0);
    const size = Number(pax.get("size") ?? numeric(header, 124, 12));
    const data = tar.subarray(at + BLOCK, at + BLOCK + size);
    if (data.length !== size) throw new Error("the tar file ends inside an entry");
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
    if (flag === "x") {
      pax = paxRecords(data);
      continue;
    }
    if (flag === "g") continue;
    if (flag === "L") {
      longName = text(data, 0, data.length);
      continue;
    }
    const ustar = text(header, 257, 6) === "ustar";
    const prefix = ustar ? text(header, 345, 155) : "";
    const base = text(header, 0, 100);
    const name = pax.get("path") ?? longName ?? (prefix === "" ? base : `${prefix}/${base}`);
    entries.push({ name, type: flag === "\0" ? "0" : flag, data });
    longName = undefined;
    pax = new Map();
  }
  return entries;
}

/** The bytes of a gzip stream (any deflate level); an Error saying why when it is not one. */
export function gunzip(bytes: Uint8Array): Uint8Array {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new Error("not a gzip stream (no gzip header)");
  try {
    return zlib.gunzipSync(bytes);
  } catch (error) {
    throw new Error(`not a valid gzip stream (${error instanceof Error ? error.message : String(error)})`);
  }
}
