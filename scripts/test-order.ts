/**
 * The order in which `npm test` hands the spec files to mocha's workers: `node dist/scripts/test-order.js` prints one
 * compiled spec path per line. First the files test/slowest-first.txt names, in its order (the longest first), then
 * every other spec file by tier (e2e, integration, unit), sorted. Mocha's parallel workers take files in the order
 * given; with the longest ones first, none of them starts last and runs on alone at the end (longest processing time
 * first). Mocha does not remove duplicates, so each file appears once.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const TIERS = ["e2e", "integration", "unit"] as const;

/** The test/…/*.test.ts paths a slowest-first list names, in its order (`#` comments and blank lines skipped). */
export function parseSlowestFirst(text: string): string[] {
  return text
    .split("\n")
    .map((line) => line.replace(/#.*/, "").trim())
    .filter((line) => line !== "")
    .map((line) => line.split(/\s+/)[0] ?? "");
}

/** The compiled path (dist/test/…/x.test.js) of a spec file named as it is in the tree (test/…/x.test.ts). */
export function compiledPath(source: string): string {
  if (!/^test\/.+\.test\.ts$/.test(source)) {
    throw new Error(`test/slowest-first.txt: "${source}" is not a spec file path (test/<tier>/…/<name>.test.ts)`);
  }
  return `dist/${source.replace(/\.ts$/, ".js")}`;
}

/**
 * The listed files first (each must be among `all`: a renamed or deleted spec file fails here, naming the list), then
 * the rest of `all` by tier and name.
 */
export function orderSpecs(all: readonly string[], slowestFirst: readonly string[]): string[] {
  const known = new Set(all);
  const first = slowestFirst.map(compiledPath);
  for (const f of first) {
    if (!known.has(f)) throw new Error(`test/slowest-first.txt names ${f}, which is not a spec file of this build`);
  }
  const listed = new Set(first);
  const tierOf = (f: string): number => {
    const i = TIERS.findIndex((t) => f.startsWith(`dist/test/${t}/`));
    return i === -1 ? TIERS.length : i;
  };
  const rest = all.filter((f) => !listed.has(f)).sort((a, b) => tierOf(a) - tierOf(b) || (a < b ? -1 : a > b ? 1 : 0));
  return [...new Set(first), ...rest];
}

/** Every compiled spec file under dist/test (relative to the repository root). */
export function compiledSpecs(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel);
      else if (entry.name.endsWith(".test.js")) out.push(rel);
    }
  };
  for (const tier of TIERS) if (existsSync(path.join(root, "dist/test", tier))) walk(`dist/test/${tier}`);
  return out;
}

if (require.main === module) {
  const root = process.cwd();
  const list = parseSlowestFirst(readFileSync(path.join(root, "test/slowest-first.txt"), "utf8"));
  for (const f of orderSpecs(compiledSpecs(root), list)) console.log(f);
}
