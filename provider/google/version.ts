/** The package version for the User-Agent header, read once from this package's package.json. */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";

const PACKAGE_NAME = "pulumi-opsledger";
let cached: string | undefined;

/** The version of this package ("0.0.0" if its package.json cannot be found, e.g. in a bundle). */
export function packageVersion(): string {
  if (cached !== undefined) return cached;
  cached = "0.0.0";
  // Source runs from dist/provider/google; walk up rather than hard-code the depth.
  for (let dir = __dirname, i = 0; i < 6; dir = dirname(dir), i++) {
    try {
      const parsed = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (parsed.name === PACKAGE_NAME && typeof parsed.version === "string") {
        cached = parsed.version;
        break;
      }
    } catch {
      // not here: keep walking up
    }
  }
  return cached;
}

/** `pulumi-opsledger/<version>`. */
export function userAgent(): string {
  return `${PACKAGE_NAME}/${packageVersion()}`;
}
