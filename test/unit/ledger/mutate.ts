import fc from "fast-check";

/**
 * A random edit of valid bytes: flip a byte, drop a range, insert up to 40 bytes, truncate, or (one time in five)
 * leave them as they are.
 */
export function mutate(valid: Uint8Array): fc.Arbitrary<Uint8Array> {
  return fc
    .tuple(
      fc.nat({ max: valid.length - 1 }),
      fc.integer({ min: 1, max: 255 }),
      fc.nat({ max: 4 }),
      fc.uint8Array({ maxLength: 40 }),
    )
    .map(([i, x, kind, extra]) => {
      const copy = new Uint8Array(valid);
      if (kind === 0) copy[i] = (copy[i] ?? 0) ^ x;
      if (kind === 1) return Uint8Array.from([...copy.subarray(0, i), ...copy.subarray(Math.min(copy.length, i + x))]);
      if (kind === 2) return Uint8Array.from([...copy.subarray(0, i), ...extra, ...copy.subarray(i)]);
      if (kind === 3) return copy.subarray(0, i);
      return copy;
    });
}
