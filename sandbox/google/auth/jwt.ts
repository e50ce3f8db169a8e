/** Compact JWS with RS256, on node:crypto only. */
import { createSign, createVerify, type KeyObject } from "node:crypto";

export interface DecodedJwt {
  readonly header: Readonly<Record<string, unknown>>;
  readonly claims: Readonly<Record<string, unknown>>;
  readonly signingInput: string;
  readonly signature: Buffer;
}

function encodePart(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64url");
}

function decodePart(part: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

export function signRs256(claims: Readonly<Record<string, unknown>>, privateKey: KeyObject, kid?: string): string {
  const header = kid === undefined ? { alg: "RS256", typ: "JWT" } : { alg: "RS256", typ: "JWT", kid };
  const signingInput = `${encodePart(header)}.${encodePart(claims)}`;
  const signature = createSign("RSA-SHA256").update(signingInput).sign(privateKey);
  return `${signingInput}.${signature.toString("base64url")}`;
}

/** Splits and parses a compact JWS; undefined when it is not one. */
export function decodeJwt(token: string): DecodedJwt | undefined {
  const parts = token.split(".");
  if (parts.length !== 3) return undefined;
  const [h, c, s] = parts as [string, string, string];
  const header = decodePart(h);
  const claims = decodePart(c);
  if (header === undefined || claims === undefined || !/^[A-Za-z0-9_-]*$/.test(s)) return undefined;
  return { header, claims, signingInput: `${h}.${c}`, signature: Buffer.from(s, "base64url") };
}

export function verifyRs256(jwt: DecodedJwt, publicKey: KeyObject): boolean {
  if (jwt.header["alg"] !== "RS256") return false;
  return createVerify("RSA-SHA256").update(jwt.signingInput).verify(publicKey, jwt.signature);
}

/** A numeric claim (seconds), or undefined. */
export function numericClaim(jwt: DecodedJwt, name: string): number | undefined {
  const value = jwt.claims[name];
  return typeof value === "number" && Number.isFinite(value) ? value : undefined;
}

export function stringClaim(jwt: DecodedJwt, name: string): string | undefined {
  const value = jwt.claims[name];
  return typeof value === "string" ? value : undefined;
}
