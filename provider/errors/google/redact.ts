/**
 * Redaction of secrets from URLs and text that may end up in errors or logs: tokens, API keys, assertions, private
 * keys and Authorization header values.
 */

/** Query parameters that carry credentials (Google's standard `access_token`, `key`, `oauth_token`, and OAuth fields). */
export const SECRET_QUERY_PARAMETERS: readonly string[] = [
  "access_token",
  "key",
  "oauth_token",
  "token",
  "assertion",
  "refresh_token",
  "client_secret",
  "subject_token",
];

export const REDACTED = "[REDACTED]";
const MIN_KNOWN_SECRET_LENGTH = 8;

/** The URL without secret query parameters and without user credentials; unparseable input loses its query. */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    const cut = url.search(/[?#]/);
    return cut < 0 ? url : url.slice(0, cut);
  }
  parsed.username = "";
  parsed.password = "";
  for (const name of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY_PARAMETERS.includes(name.toLowerCase())) parsed.searchParams.delete(name);
  }
  return parsed.href;
}

const PATTERNS: readonly [RegExp, string][] = [
  [/-{5}BEGIN [A-Z ]*PRIVATE KEY-{5}[\s\S]*?(?:-{5}END [A-Z ]*PRIVATE KEY-{5}|$)/g, REDACTED],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, `$1 ${REDACTED}`],
  [/\bya29\.[A-Za-z0-9._-]+/g, REDACTED],
  [/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, REDACTED],
  [new RegExp(`([?&;\\s"'](?:${SECRET_QUERY_PARAMETERS.join("|")})=)[^&\\s"',;]*`, "gi"), `$1${REDACTED}`],
  [
    /("(?:access_token|refresh_token|private_key|client_secret|id_token|accessToken|assertion)"\s*:\s*")[^"]*"/g,
    `$1${REDACTED}"`,
  ],
];

/**
 * The text with secrets replaced by [REDACTED]: every occurrence of a known secret (e.g. the access token just sent),
 * Bearer/Basic credentials, Google access tokens (ya29.), JWTs, PEM private keys, secret query parameters and secret
 * JSON fields.
 */
export function redactText(text: string, knownSecrets: readonly (string | undefined)[] = []): string {
  let result = text;
  for (const secret of knownSecrets) {
    if (secret !== undefined && secret.length >= MIN_KNOWN_SECRET_LENGTH) result = result.split(secret).join(REDACTED);
  }
  for (const [pattern, replacement] of PATTERNS) result = result.replace(pattern, replacement);
  return result;
}

/** A copy of JSON-like data with {@link redactText} applied to every string. */
export function redactDeep<T>(value: T, knownSecrets: readonly (string | undefined)[] = []): T {
  if (typeof value === "string") return redactText(value, knownSecrets) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, knownSecrets)) as T;
  if (typeof value === "object" && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, knownSecrets);
    return out as T;
  }
  return value;
}
