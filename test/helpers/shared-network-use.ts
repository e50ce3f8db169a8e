/**
 * Whether a mocha run needs the shared Fabric network (test/helpers/fabric-network-fixture.ts): whether one of its
 * spec files imports test/helpers/ledger-targets or the fixture, directly or through relative imports of the test
 * tree. Read from the compiled files, so it costs a few file reads and no network.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** What a compiled module requires by a relative path (resolved to .js files), and whether it names a user. */
function scan(file: string): { readonly uses: boolean; readonly relatives: string[] } {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return { uses: false, relatives: [] };
  }
  const specifiers = [...text.matchAll(/require\("([^"]+)"\)/g)].map((m) => m[1] ?? "");
  const uses = specifiers.some((s) => /helpers\/(ledger-targets|fabric-network-fixture)$/.test(s));
  const relatives = specifiers
    .filter((s) => s.startsWith("./") || s.startsWith("../"))
    .map((s) => path.resolve(path.dirname(file), s.endsWith(".js") ? s : `${s}.js`));
  return { uses, relatives };
}

/** Whether `spec`, or a module it reaches through relative requires (not through node_modules), uses the network. */
function usesSharedNetwork(spec: string): boolean {
  const seen = new Set<string>();
  const queue = [path.resolve(spec)];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    if (seen.has(file)) continue;
    seen.add(file);
    const { uses, relatives } = scan(file);
    if (uses) return true;
    // Helpers of the test tree only: the library and the sandbox never use the shared network.
    queue.push(...relatives.filter((r) => r.includes(`${path.sep}test${path.sep}`)));
  }
  return false;
}

/** The spec files of this mocha run: its arguments that name files, directories or globs of .js files. */
function specFiles(argv: readonly string[]): string[] {
  const files: string[] = [];
  for (const arg of argv) {
    if (arg.startsWith("-")) continue;
    let matches: string[];
    try {
      matches = fs.globSync(arg);
    } catch {
      continue;
    }
    for (const match of matches) {
      const stat = fs.statSync(match, { throwIfNoEntry: false });
      if (stat?.isFile() === true && match.endsWith(".js")) files.push(match);
      if (stat?.isDirectory() === true) files.push(...fs.globSync(path.join(match, "**", "*.test.js")));
    }
  }
  return files;
}

/** Whether a spec file of this run (process.argv) uses the shared network. */
export function runUsesSharedNetwork(argv: readonly string[] = process.argv.slice(2)): boolean {
  return specFiles(argv).some(usesSharedNetwork);
}
