/**
 * What the tests read from an executable's own headers, by the formats' specifications: the machine an ELF, Mach-O or
 * PE file is built for, and a PE file's resources (the resource directory of its data directory 2), where a Windows
 * single executable application keeps its blob (RT_RCDATA named NODE_SEA_BLOB).
 */

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
