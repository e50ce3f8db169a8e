/**
 * A minimal ASN.1 DER writer: enough for X.509 certificates (issued synchronously, see certificates.ts) and Fabric's
 * block-header hash (an ASN.1 SEQUENCE of the header fields). Every function returns complete TLV bytes.
 */

function encodeLength(length: number): Buffer {
  if (length < 0x80) return Buffer.from([length]);
  const bytes: number[] = [];
  for (let rest = length; rest > 0; rest = Math.floor(rest / 256)) bytes.unshift(rest % 256);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

/** One TLV with the given tag byte. */
export function tlv(tag: number, content: Uint8Array): Buffer {
  return Buffer.concat([Buffer.from([tag]), encodeLength(content.length), content]);
}

export function sequence(...items: Uint8Array[]): Buffer {
  return tlv(0x30, Buffer.concat(items));
}

export function set(...items: Uint8Array[]): Buffer {
  return tlv(0x31, Buffer.concat(items));
}

/** A non-negative INTEGER in minimal two's-complement form. */
export function integer(value: bigint | Uint8Array): Buffer {
  let bytes: Buffer;
  if (typeof value === "bigint") {
    if (value < 0n) throw new RangeError("der.integer: negative values are not supported");
    const hex = value.toString(16);
    bytes = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, "hex");
  } else {
    bytes = Buffer.from(value);
  }
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0 && ((bytes[start + 1] ?? 0) & 0x80) === 0) start++;
  bytes = bytes.subarray(start);
  if (bytes.length === 0) bytes = Buffer.from([0]);
  if (((bytes[0] ?? 0) & 0x80) !== 0) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return tlv(0x02, bytes);
}

export function objectIdentifier(dotted: string): Buffer {
  const arcs = dotted.split(".").map((a) => Number.parseInt(a, 10));
  const [first = 0, second = 0, ...rest] = arcs;
  const out: number[] = [first * 40 + second];
  for (const arc of rest) {
    const groups: number[] = [];
    let v = arc;
    do {
      groups.unshift(v & 0x7f);
      v = Math.floor(v / 128);
    } while (v > 0);
    for (let i = 0; i < groups.length - 1; i++) groups[i] = (groups[i] ?? 0) | 0x80;
    out.push(...groups);
  }
  return tlv(0x06, Buffer.from(out));
}

export function utf8String(text: string): Buffer {
  return tlv(0x0c, Buffer.from(text, "utf8"));
}

export function printableString(text: string): Buffer {
  return tlv(0x13, Buffer.from(text, "ascii"));
}

export function octetString(bytes: Uint8Array): Buffer {
  return tlv(0x04, bytes);
}

/** A BIT STRING with `unusedBits` unused trailing bits in the last byte. */
export function bitString(bytes: Uint8Array, unusedBits = 0): Buffer {
  return tlv(0x03, Buffer.concat([Buffer.from([unusedBits]), bytes]));
}

export function boolean(value: boolean): Buffer {
  return tlv(0x01, Buffer.from([value ? 0xff : 0x00]));
}

/** UTCTime before 2050, GeneralizedTime from 2050 on (RFC 5280 §4.1.2.5). */
export function time(date: Date): Buffer {
  const iso = date.toISOString(); // YYYY-MM-DDTHH:MM:SS.sssZ
  const digits = iso.slice(0, 19).replace(/[-T:]/g, ""); // YYYYMMDDHHMMSS
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(`${digits.slice(2)}Z`, "ascii"))
    : tlv(0x18, Buffer.from(`${digits}Z`, "ascii"));
}

/** A constructed, explicitly tagged context-specific value: [n] EXPLICIT. */
export function explicit(tagNumber: number, content: Uint8Array): Buffer {
  return tlv(0xa0 | tagNumber, content);
}

/** A primitive, implicitly tagged context-specific value: [n] IMPLICIT. */
export function implicit(tagNumber: number, content: Uint8Array): Buffer {
  return tlv(0x80 | tagNumber, content);
}
