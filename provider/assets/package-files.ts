/**
 * The files of this package that the code reads at run time (package.json, the ledger's .proto files): from the
 * package's folder, or, inside the pulumi-resource-opsledger executable (a Node.js single executable application), from
 * the assets it carries under the same package-relative paths (scripts/build-plugin-executables.ts embeds them).
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import * as sea from "node:sea";

/** This package's name, as its package.json says it. */
export const PACKAGE_NAME = "pulumi-opsledger";

/** True inside the pulumi-resource-opsledger executable, false when Node.js runs this package's files. */
export function isSingleExecutable(): boolean {
  return sea.isSea();
}

/**
 * The platforms (`<os>-<arch>`) whose executable ships the PKCS#11 binding's native addon beside it: an addon cannot
 * run from inside the executable, and this machine builds it for its own platform only.
 */
export const PKCS11_PLATFORMS: readonly string[] = ["linux-amd64"];

/** This process's platform as Pulumi's plugin archives name it (`linux-amd64`, `darwin-arm64`, `windows-amd64`). */
export function pluginPlatform(): string {
  const os = process.platform === "win32" ? "windows" : process.platform;
  const arch = process.arch === "x64" ? "amd64" : process.arch;
  return `${os}-${arch}`;
}

let root: string | undefined;

/** The folder holding this package's package.json, found upward from this module (source, dist/ or node_modules). */
export function packageRoot(): string {
  if (root !== undefined) return root;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name?: unknown };
      if (pkg.name === PACKAGE_NAME) return (root = dir);
    } catch {
      // no package.json here: keep walking up
    }
    if (dirname(dir) === dir) throw new Error(`${PACKAGE_NAME}: no package.json of this package above ${__dirname}`);
  }
}

/** A file of this package by its package-relative path (`provider/ledger/protos/common/common.proto`), as text. */
export function readPackageFile(relativePath: string): string {
  if (isSingleExecutable()) return sea.getAsset(relativePath, "utf8");
  return readFileSync(join(packageRoot(), relativePath), "utf8");
}

let version: string | undefined;

/** The package's version (the plugin's version is the package's). */
export function packageVersion(): string {
  version ??= (JSON.parse(readPackageFile("package.json")) as { version: string }).version;
  return version;
}
