/**
 * Bearer tokens the sandbox issued: opaque random strings mapped to a principal, scopes and an expiry on the
 * sandbox clock. Tokens never leave this map except as the value returned to whoever asked for one.
 */
import { randomBytes } from "node:crypto";
import type { SandboxClock } from "../types";

/** Lifetime of a token when the request names none (Google's usual 3600 s). */
export const DEFAULT_TOKEN_LIFETIME_SECONDS = 3600;
/** Upper bound of a minted token's lifetime (Google allows up to 12 h for service accounts with the org policy). */
export const MAX_TOKEN_LIFETIME_SECONDS = 43_200;

export interface TokenGrant {
  readonly principal: string;
  readonly scopes: ReadonlySet<string>;
  readonly expiresAtMs: number;
}

export type TokenLookup =
  | { readonly kind: "valid"; readonly grant: TokenGrant }
  | { readonly kind: "expired"; readonly grant: TokenGrant }
  | { readonly kind: "unknown" };

export class TokenStore {
  private readonly tokens = new Map<string, TokenGrant>();

  constructor(private readonly clock: SandboxClock) {}

  /** Issues a token; `scopes` must already be full URIs. */
  issue(principal: string, scopes: readonly string[], lifetimeSeconds: number): { token: string; grant: TokenGrant } {
    const token = `ya29.sandbox.${randomBytes(32).toString("base64url")}`;
    const grant: TokenGrant = {
      principal,
      scopes: new Set(scopes),
      expiresAtMs: this.clock.now() + lifetimeSeconds * 1000,
    };
    this.tokens.set(token, grant);
    return { token, grant };
  }

  lookup(token: string): TokenLookup {
    const grant = this.tokens.get(token);
    if (grant === undefined) return { kind: "unknown" };
    return this.clock.now() < grant.expiresAtMs ? { kind: "valid", grant } : { kind: "expired", grant };
  }

  clear(): void {
    this.tokens.clear();
  }
}
