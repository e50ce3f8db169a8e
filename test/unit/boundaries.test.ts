import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

const ROOT = path.resolve(__dirname, "..", "..", "..");

function sources(dir: string): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f));
}

/** Every module specifier a file imports or requires, with the line it is on. */
function imports(file: string): { spec: string; typeOnly: boolean; line: string }[] {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  const found: { spec: string; typeOnly: boolean; line: string }[] = [];
  for (const line of text.split("\n")) {
    const m =
      /^\s*(import|export)\s+(type\s+)?[^;]*?from\s+"([^"]+)"/.exec(line) ??
      /^\s*import\s+(type\s+)?"([^"]+)"/.exec(line);
    if (m) {
      const spec = m.length === 4 ? m[3] : m[2];
      found.push({ spec: spec ?? "", typeOnly: Boolean(m.length === 4 ? m[2] : m[1]), line: line.trim() });
    }
    const r = /require\("([^"]+)"\)/.exec(line);
    if (r?.[1]) found.push({ spec: r[1], typeOnly: false, line: line.trim() });
  }
  return found;
}

function resolvesInto(file: string, spec: string, dir: string): boolean {
  if (!spec.startsWith(".")) return false;
  const target = path.normalize(path.join(path.dirname(file), spec));
  return target === dir || target.startsWith(dir + path.sep);
}

describe("layer boundaries (STYLE.md)", () => {
  it("keeps provider/google, provider/operations and provider/ledger free of @pulumi/pulumi", () => {
    const offenders = ["provider/google", "provider/operations", "provider/ledger"].flatMap(sources).flatMap((f) =>
      imports(f)
        .filter((i) => i.spec.startsWith("@pulumi/"))
        .map((i) => `${f}: ${i.line}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("lets the provider's Pulumi-facing rooms import only types from @pulumi/pulumi and nothing from sdk/", () => {
    const rooms = [
      "provider/runtime",
      "provider/dynamic",
      "provider/functions",
      "provider/resources",
      "provider/registry",
    ];
    const offenders = rooms.flatMap(sources).flatMap((f) =>
      imports(f)
        .filter((i) => (i.spec.startsWith("@pulumi/") && !i.typeOnly) || resolvesInto(f, i.spec, "sdk"))
        .map((i) => `${f}: ${i.line}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("keeps sandbox/ free of client logic from provider/ (wire schemas and types only)", () => {
    const offenders = sources("sandbox").flatMap((f) =>
      imports(f)
        .filter((i) => resolvesInto(f, i.spec, "provider") && !i.typeOnly && !i.spec.includes("/protos"))
        .map((i) => `${f}: ${i.line}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("never imports sandbox/, test/, bench/, fuzz/ or examples/ from production code", () => {
    const offenders = ["provider", "sdk"].flatMap(sources).flatMap((f) =>
      imports(f)
        .filter((i) =>
          ["sandbox", "test", "bench", "fuzz", "examples", "scripts"].some((d) => resolvesInto(f, i.spec, d)),
        )
        .map((i) => `${f}: ${i.line}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("names no two files of provider/ alike (an index.ts aside): a file's name says which one it is", () => {
    const byName = new Map<string, string[]>();
    for (const f of sources("provider")) {
      const name = path.basename(f);
      if (name !== "index.ts") byName.set(name, [...(byName.get(name) ?? []), f]);
    }
    assert.deepEqual(
      [...byName.values()].filter((files) => files.length > 1),
      [],
    );
  });

  it("sees the layers it checks (the scan is not vacuous)", () => {
    assert.ok(sources("provider/runtime").length > 3, "provider/runtime has sources");
    assert.ok(sources("provider/functions").length > 0, "provider/functions has sources");
    assert.ok(sources("provider/google").length > 3, "provider/google has sources");
    assert.ok(sources("sdk").length > 3, "sdk has sources");
    assert.ok(sources("sandbox").length > 3, "sandbox has sources");
  });
});

/** The names a module specifier brings in from `room`'s index, per file: imports and re-exports, named only. */
function namesFromIndex(file: string, room: string): string[] | undefined {
  const text = fs.readFileSync(path.join(ROOT, file), "utf8");
  if (!text.includes(`${path.basename(room)}"`)) return undefined;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  let names: string[] | undefined;
  for (const st of source.statements) {
    if (!(ts.isImportDeclaration(st) || ts.isExportDeclaration(st)) || !st.moduleSpecifier) continue;
    if (!ts.isStringLiteral(st.moduleSpecifier) || !st.moduleSpecifier.text.startsWith(".")) continue;
    const target = path.normalize(path.join(path.dirname(file), st.moduleSpecifier.text));
    if (target !== room && target !== path.join(room, "index")) continue;
    const bindings = ts.isImportDeclaration(st) ? st.importClause?.namedBindings : st.exportClause;
    names ??= [];
    if (bindings && (ts.isNamedImports(bindings) || ts.isNamedExports(bindings)))
      names.push(...bindings.elements.map((el) => (el.propertyName ?? el.name).text));
    else names.push("*");
  }
  return names;
}

/** The names `room`'s index.ts exports. */
function indexExports(room: string): string[] {
  const file = path.join(room, "index.ts");
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
  return source.statements.flatMap((st) =>
    ts.isExportDeclaration(st) && st.exportClause && ts.isNamedExports(st.exportClause)
      ? st.exportClause.elements.map((el) => el.name.text)
      : ts.isExportDeclaration(st)
        ? ["* from " + (st.moduleSpecifier?.getText(source) ?? "")]
        : [],
  );
}

describe("curated indexes (STYLE.md: internals are imported by path, never re-exported for tests)", () => {
  const rooms = ["provider", "sdk", "sandbox", "scripts", "bench", "fuzz"];
  for (const room of ["provider/google", "provider/ledger", "provider/operations"]) {
    it(`${room}/index.ts exports what other rooms import, and the tests import what they test by path`, () => {
      const used = new Set(
        rooms
          .flatMap(sources)
          .filter((f) => !f.startsWith(room + path.sep))
          .flatMap((f) => namesFromIndex(f, room) ?? []),
      );
      const exported = indexExports(room);
      assert.ok(exported.length >= 5, `${room}/index.ts exports ${String(exported.length)} names`);
      assert.deepEqual(
        exported.filter((name) => !used.has(name)),
        [],
        "exported for no other room",
      );
      assert.deepEqual(
        [...used].filter((name) => !exported.includes(name)),
        [],
        "imported by another room, not exported",
      );
      const tests = sources("test").filter((f) => !f.split(path.sep).includes("node_modules"));
      assert.deepEqual(
        tests.filter((f) => namesFromIndex(f, room) !== undefined),
        [],
        "tests importing the index",
      );
    });
  }
});
