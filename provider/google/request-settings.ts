/**
 * The settings that shape every request rather than one endpoint: the universe domain, the request reason and the
 * quota project (billingProject with Terraform's userProjectOverride). Pure parsers for resolveGoogleSettings, and the
 * check that a credential belongs to the configured universe (decision 0031).
 */
import { ConfigError } from "../errors";

/** A DNS name of two or more labels, lowercase: what a universe domain is (`googleapis.com`, `s3nsapis.fr`). */
const UNIVERSE_DOMAIN = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;
/** Visible ASCII, space and tab: what an HTTP header value may carry without being mangled or refused. */
const HEADER_TEXT = /^[\t\x20-\x7e]+$/;
const TRUE_WORDS: ReadonlySet<string> = new Set(["true", "1", "t"]);
const FALSE_WORDS: ReadonlySet<string> = new Set(["false", "0", "f"]);

/** A universe domain as given (trimmed, lowercased), or a ConfigError naming the setting and the form it takes. */
export function parseUniverseDomain(value: string, settingName: string): string {
  const domain = value.trim().toLowerCase();
  if (!UNIVERSE_DOMAIN.test(domain)) {
    throw new ConfigError({
      setting: settingName,
      message:
        `${settingName} '${value.trim().slice(0, 200)}' is not a universe domain: give the bare domain of the ` +
        `universe's API hosts, such as googleapis.com (no scheme, port, path or leading dot)`,
    });
  }
  return domain;
}

/** A request reason: header-safe text (the header cannot carry line breaks or non-ASCII characters). */
export function parseRequestReason(value: string, settingName: string): string {
  const reason = value.trim();
  if (reason === "") {
    throw new ConfigError({ setting: settingName, message: `${settingName} is blank: give the reason, or unset it` });
  }
  if (!HEADER_TEXT.test(reason)) {
    const bad = reason.search(/[^\t\x20-\x7e]/);
    throw new ConfigError({
      setting: settingName,
      message:
        `${settingName} has a character that cannot travel in the X-Goog-Request-Reason header at position ` +
        `${bad + 1}: use printable ASCII text on one line`,
    });
  }
  return reason;
}

/** true/false (also 1/0, t/f, any case) or a boolean, as Terraform reads USER_PROJECT_OVERRIDE. */
export function parseBoolean(value: string | boolean, settingName: string): boolean {
  if (typeof value === "boolean") return value;
  const word = value.trim().toLowerCase();
  if (TRUE_WORDS.has(word)) return true;
  if (FALSE_WORDS.has(word)) return false;
  throw new ConfigError({
    setting: settingName,
    message: `${settingName} '${value.trim().slice(0, 40)}' must be true or false`,
  });
}

export interface QuotaProjectInputs {
  readonly billingProject?: string;
  readonly project?: string;
  readonly userProjectOverride?: boolean;
  /** How the override was set, for messages ("opsledger:userProjectOverride"). */
  readonly overrideName?: string;
}

/**
 * The x-goog-user-project header (decision 0031): with userProjectOverride unset, billingProject when set (0.1's
 * behaviour, and the client libraries' for GOOGLE_CLOUD_QUOTA_PROJECT); true, billingProject else project (Terraform's
 * meaning: the resource's project when no billing project is set), and a ConfigError when there is neither; false,
 * none (Terraform's meaning: the credential's project is billed, billingProject is not sent).
 */
export function resolveQuotaProject(inputs: QuotaProjectInputs): string | undefined {
  if (inputs.userProjectOverride === false) return undefined;
  if (inputs.userProjectOverride !== true) return inputs.billingProject;
  const project = inputs.billingProject ?? inputs.project;
  if (project === undefined) {
    const name = inputs.overrideName ?? "userProjectOverride";
    throw new ConfigError({
      setting: name,
      message:
        `${name} is true but there is no project to bill: set billingProject (opsledger:billingProject, ` +
        `GOOGLE_BILLING_PROJECT or GOOGLE_CLOUD_QUOTA_PROJECT) or project, or leave ${name} unset`,
    });
  }
  return project;
}

/** Where the universe came from, for messages: "opsledger:universeDomain", or the default. */
export interface UniverseInForce {
  readonly universeDomain: string;
  /** "explicit:universeDomain", "opsledger:universeDomain", "env:GOOGLE_CLOUD_UNIVERSE_DOMAIN"; absent = default. */
  readonly origin?: string;
}

/**
 * Refuses a credential of another universe before it is used, as googleapis-common does before a request ("The
 * configured universe domain (…) does not match the universe domain found in the credentials (…)") and Terraform
 * does at configure time. A credential without a `universe_domain` field is of googleapis.com.
 */
export function checkCredentialUniverse(
  credentialUniverse: unknown,
  universe: UniverseInForce,
  credentialName: string,
): void {
  const found =
    typeof credentialUniverse === "string" && credentialUniverse.trim() !== ""
      ? credentialUniverse.trim().toLowerCase()
      : undefined;
  const credential = found ?? "googleapis.com";
  if (credential === universe.universeDomain) return;
  const configured =
    universe.origin === undefined
      ? `the default, googleapis.com (universeDomain is not set)`
      : `'${universe.universeDomain}' (${universe.origin.replace(/^(explicit|env):/, "")})`;
  const field =
    found === undefined ? "has no universe_domain field, so it is for googleapis.com" : `is for '${credential}'`;
  throw new ConfigError({
    setting: universe.origin === undefined ? "universeDomain" : universe.origin.replace(/^(explicit|env):/, ""),
    message:
      `${credentialName}: the credential ${field}, but the configured universe domain is ${configured}: set ` +
      `universeDomain (opsledger:universeDomain or GOOGLE_CLOUD_UNIVERSE_DOMAIN) to '${credential}', or use a ` +
      `credential of ${universe.universeDomain}`,
  });
}
