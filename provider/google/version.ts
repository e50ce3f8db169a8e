/** The User-Agent header's product token: this package and its version. */
import { PACKAGE_NAME, packageVersion } from "../assets/package-files";

let cached: string | undefined;

/** `pulumi-opsledger/<version>` ("0.0.0" when the package's package.json cannot be found, e.g. in a user's bundle). */
export function userAgent(): string {
  if (cached !== undefined) return cached;
  let version = "0.0.0";
  try {
    version = packageVersion();
  } catch {
    // a bundle without this package's package.json: the product token still names the package
  }
  cached = `${PACKAGE_NAME}/${version}`;
  return cached;
}
