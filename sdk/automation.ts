/**
 * Inline programs of Pulumi's Automation API (`LocalWorkspace.createOrSelectStack({ stackName, projectName, program })`).
 * The engine starts the dynamic-provider process of this package's resources in the workspace's directory, and that
 * process finds `@pulumi/pulumi/cmd/dynamic-provider` and `pulumi-opsledger/provider` from there
 * (pulumi/pulumi#6743). A `workDir` holding the project's node_modules, or a script started from its project folder,
 * works as it is; a script started elsewhere without a workDir fails with `Cannot find module`. `inlineProgramEnv()`
 * gives the workspace the node_modules folders this process loaded them from, as NODE_PATH: pass it as
 * LocalWorkspace's `envVars`.
 */
import * as path from "node:path";

/** The node_modules folder a package was loaded from (`/app/node_modules` for `/app/node_modules/@pulumi/pulumi`). */
function nodeModulesOf(packageJson: string): string[] {
  let at = path.dirname(require.resolve(packageJson));
  while (path.basename(at) !== "node_modules" && path.dirname(at) !== at) at = path.dirname(at);
  return path.basename(at) === "node_modules" ? [at] : [];
}

/**
 * Environment for a LocalWorkspace whose program is inline: NODE_PATH naming where `@pulumi/pulumi` and
 * `pulumi-opsledger` were loaded from, ahead of the NODE_PATH already set.
 */
export function inlineProgramEnv(): Record<string, string> {
  const dirs = [...nodeModulesOf("@pulumi/pulumi/package.json"), ...nodeModulesOf("pulumi-opsledger/package.json")];
  const inherited = (process.env["NODE_PATH"] ?? "").split(path.delimiter).filter((d) => d !== "");
  return { NODE_PATH: [...new Set([...dirs, ...inherited])].join(path.delimiter) };
}
