/**
 * What the tests read from an executable's own headers, by the formats' specifications: the machine an ELF, Mach-O or
 * PE file is built for; a PE file's resources (the resource directory of its data directory 2), where a Windows single
 * executable application keeps its blob (RT_RCDATA named NODE_SEA_BLOB); a Mach-O file's code signature and whether
 * its page hashes match the file, as macOS checks them at exec (rcodesign's own `verify` fails on every ad-hoc
 * signature with "CMS error: missing further values", and says it is not to be trusted yet).
 */
import { createHash } from "node:crypto";

/** `<format>-<machine>`: elf-x86_64, elf-aarch64, macho-x86_64, macho-arm64, pe-x86_64, pe-arm64, or "unknown". */
export function machineOf(file: Buffer): string {
  if (file.readUInt32BE(0) === 0x7f454c46) {
    const machine = file.readUInt16LE(18);
    return machine === 62 ? "elf-x86_64" : machine === 183 ? "elf-aarch64" : `elf-${String(machine)}`;
  }
  if (file.readUInt32LE(0) === 0xfeedfacf) {
    const cpu = file.readUInt32LE(4);
    return cpu === 0x01000007 ? "macho-x86_64" : cpu === 0x0100000c ? "macho-arm64" : `macho-${cpu.toString(16)}`;
  }
  if (file.readUInt16LE(0) === 0x5a4d) {
    const pe = file.readUInt32LE(0x3c);
    const machine = file.readUInt16LE(pe + 4);
    return machine === 0x8664 ? "pe-x86_64" : machine === 0xaa64 ? "pe-arm64" : `pe-${machine.toString(16)}`;
  }
  return "unknown";
}

/** A PE resource: its type, name (a string or an id) and data. */
export interface PeResource {
  readonly type: number | string;
  readonly name: number | string;
  readonly data: Buffer;
}

/** RT_RCDATA: raw data, the type Node.js's single executable applications store their blob as. */
export const RT_RCDATA = 10;

/** Every resource of a PE file (type → name → language, the three levels of the resource directory). */
export function peResources(file: Buffer): PeResource[] {
  const pe = file.readUInt32LE(0x3c);
  const sections = file.readUInt16LE(pe + 6);
  const optional = pe + 24;
  const magic = file.readUInt16LE(optional);
  const dataDirectories = optional + (magic === 0x20b ? 112 : 96);
  const resourceRva = file.readUInt32LE(dataDirectories + 2 * 8);
  const sectionTable = optional + file.readUInt16LE(pe + 20);
  const offsetOf = (rva: number): number => {
    for (let i = 0; i < sections; i++) {
      const s = sectionTable + i * 40;
      const virtualAddress = file.readUInt32LE(s + 12);
      const size = Math.max(file.readUInt32LE(s + 8), file.readUInt32LE(s + 16));
      if (rva >= virtualAddress && rva < virtualAddress + size) return rva - virtualAddress + file.readUInt32LE(s + 20);
    }
    throw new Error(`RVA 0x${rva.toString(16)} is in no section`);
  };
  if (resourceRva === 0) return [];
  const base = offsetOf(resourceRva);
  const idOrName = (entry: number): number | string => {
    const value = file.readUInt32LE(entry);
    if ((value & 0x80000000) === 0) return value;
    const at = base + (value & 0x7fffffff);
    return file.toString("utf16le", at + 2, at + 2 + 2 * file.readUInt16LE(at));
  };
  const entries = (dir: number): { key: number | string; target: number; isDir: boolean }[] => {
    const count = file.readUInt16LE(dir + 12) + file.readUInt16LE(dir + 14);
    return Array.from({ length: count }, (_, i) => {
      const entry = dir + 16 + i * 8;
      const target = file.readUInt32LE(entry + 4);
      return { key: idOrName(entry), target: base + (target & 0x7fffffff), isDir: (target & 0x80000000) !== 0 };
    });
  };
  const found: PeResource[] = [];
  for (const type of entries(base)) {
    for (const name of entries(type.target)) {
      for (const language of name.isDir ? entries(name.target) : [name]) {
        const rva = file.readUInt32LE(language.target);
        const size = file.readUInt32LE(language.target + 4);
        const at = offsetOf(rva);
        found.push({ type: type.key, name: name.key, data: file.subarray(at, at + size) });
      }
    }
  }
  return found;
}

/** What a Mach-O file's code signature says, and whether its page hashes match the file (what macOS checks at exec). */
export interface MachoSignature {
  /** CS_ADHOC: signed with no certificate. */
  readonly adhoc: boolean;
  readonly identifier: string;
  /** Pages hashed by the code directory, and how many of them match the file's bytes. */
  readonly pages: number;
  readonly matchingPages: number;
}

const LC_CODE_SIGNATURE = 0x1d;
const CSMAGIC_EMBEDDED_SIGNATURE = 0xfade0cc0;
const CSMAGIC_CODEDIRECTORY = 0xfade0c02;
const CS_ADHOC = 0x2;
const CS_HASHTYPE_SHA256 = 2;

/** The code signature of a 64-bit Mach-O file (LC_CODE_SIGNATURE → SuperBlob → CodeDirectory), or undefined. */
export function machoSignature(file: Buffer): MachoSignature | undefined {
  const commands = file.readUInt32LE(16);
  let at = 32;
  for (let i = 0; i < commands; i++) {
    const cmd = file.readUInt32LE(at);
    if (cmd === LC_CODE_SIGNATURE) {
      const blob = file.readUInt32LE(at + 8);
      if (file.readUInt32BE(blob) !== CSMAGIC_EMBEDDED_SIGNATURE) return undefined;
      const count = file.readUInt32BE(blob + 8);
      for (let j = 0; j < count; j++) {
        const cd = blob + file.readUInt32BE(blob + 12 + j * 8 + 4);
        if (file.readUInt32BE(blob + 12 + j * 8) !== 0 || file.readUInt32BE(cd) !== CSMAGIC_CODEDIRECTORY) continue;
        const flags = file.readUInt32BE(cd + 12);
        const hashOffset = file.readUInt32BE(cd + 16);
        const identOffset = file.readUInt32BE(cd + 20);
        const pages = file.readUInt32BE(cd + 28);
        const codeLimit = file.readUInt32BE(cd + 32);
        const hashSize = file.readUInt8(cd + 36);
        if (file.readUInt8(cd + 37) !== CS_HASHTYPE_SHA256)
          throw new Error("the code directory does not hash with SHA-256");
        const pageSize = 2 ** file.readUInt8(cd + 39);
        let matchingPages = 0;
        for (let p = 0; p < pages; p++) {
          const page = file.subarray(p * pageSize, Math.min((p + 1) * pageSize, codeLimit));
          const stored = file.subarray(cd + hashOffset + p * hashSize, cd + hashOffset + (p + 1) * hashSize);
          if (createHash("sha256").update(page).digest().subarray(0, hashSize).equals(stored)) matchingPages++;
        }
        const identifier = file.toString("utf8", cd + identOffset, file.indexOf(0, cd + identOffset));
        return { adhoc: (flags & CS_ADHOC) !== 0, identifier, pages, matchingPages };
      }
      return undefined;
    }
    at += file.readUInt32LE(at + 4);
  }
  return undefined;
}
