import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import ts from "typescript";
import { circles, fileEdges, groupEdges, importsOf, pointsInto, sourcesUnder, targetOf } from "../helpers/import-graph";
import type { Import } from "../helpers/import-graph";

const ROOT = path.resolve(__dirname, "..", "..", "..");

const sources = (dir: string): string[] => sourcesUnder(ROOT, dir);

/** A boundary of STYLE.md: the rooms whose files it checks, and the imports that break it. */
interface Rule {
  readonly says: string;
  readonly rooms: readonly string[];
  readonly breaks: (file: string, i: Import) => boolean;
  /** Edges (`file -> specifier`) that break it today and that a change under way removes. */
}

const SDK_WITHOUT_PLUGIN: Rule = {
  says: "keeps sdk/ from importing provider/plugin (a face, not a library the SDK reads)",
  rooms: ["sdk"],
  breaks: (file, i) => pointsInto(file, i.spec, "provider/plugin"),
};

const PULUMI_FACING: Rule = {
  says: "lets the provider's Pulumi-facing rooms import only types from @pulumi/pulumi and nothing from sdk/",
  rooms: ["provider/runtime", "provider/dynamic", "provider/functions", "provider/resources", "provider/registry"],
  breaks: (file, i) => (i.spec.startsWith("@pulumi/") && !i.typeOnly) || pointsInto(file, i.spec, "sdk"),
};

const RULES: readonly Rule[] = [
  {
    says: "keeps provider/google, provider/operations and provider/ledger free of @pulumi/pulumi",
    rooms: ["provider/google", "provider/operations", "provider/ledger"],
    breaks: (_file, i) => i.spec.startsWith("@pulumi/"),
  },
  PULUMI_FACING,
  {
    says: "keeps sandbox/ free of client logic from provider/ (wire schemas and types only)",
    rooms: ["sandbox"],
    breaks: (file, i) => pointsInto(file, i.spec, "provider") && !i.typeOnly && !i.spec.includes("/protos"),
  },
  {
    says: "never imports sandbox/, test/, bench/, fuzz/, examples/ or scripts/ from production code",
    rooms: ["provider", "sdk"],
    breaks: (file, i) =>
      ["sandbox", "test", "bench", "fuzz", "examples", "scripts"].some((d) => pointsInto(file, i.spec, d)),
  },
  SDK_WITHOUT_PLUGIN,
  {
    says: "keeps scripts/ from importing test/ (what both need lives in scripts/lib)",
    rooms: ["scripts"],
    breaks: (file, i) => pointsInto(file, i.spec, "test"),
  },
];

/** The imports under `root` that break `rule`: `file -> specifier` and where they are. */
function violations(root: string, rule: Rule): { edge: string; where: string }[] {
  return rule.rooms
    .flatMap((room) => sourcesUnder(root, room))
    .flatMap((file) =>
      importsOf(root, file)
        .filter((i) => rule.breaks(file, i))
        .map((i) => ({ edge: `${file} -> ${i.spec}`, where: i.where })),
    );
}

/** provider/'s rooms: its folders. */
/**
 * provider/'s rooms: its folders, and the wire schemas (provider/ledger/protos: the .proto files and the TypeScript
 * table generated from them), which the ledger, the errors and the sandbox read and which import nothing.
 */
const WIRE_SCHEMAS = ["provider", "ledger", "protos"].join(path.sep);
const providerRoom = (file: string): string =>
  file.startsWith(`${WIRE_SCHEMAS}${path.sep}`) ? "provider/ledger/protos" : file.split(path.sep).slice(0, 2).join("/");

/**
 * The rooms the layers diagram draws: provider/'s folders and sdk/ (provider/errors and the wire schemas, which every
 * room may import, aside).
 */
function drawnRoom(file: string): string | undefined {
  const room = file.startsWith(`provider${path.sep}`) ? providerRoom(file) : file.split(path.sep)[0];
  const aside = room === "provider/errors" || room === "provider/ledger/protos";
  return room === "sdk" || (room?.startsWith("provider/") === true && !aside) ? room : undefined;
}

/** The arrows between drawn rooms that the code's imports make, as `from -> to`. */
function codeArrows(): string[] {
  const arrows = new Set<string>();
  for (const file of [...sources("provider"), ...sources("sdk")]) {
    for (const i of importsOf(ROOT, file)) {
      const target = targetOf(file, i.spec);
      const [from, to] = [drawnRoom(file), target === undefined ? undefined : drawnRoom(target)];
      if (from === undefined || to === undefined || from === to) continue;
      arrows.add(`${from} -> ${to}`);
    }
  }
  return [...arrows].sort();
}

/**
 * The arrows of the layers diagram (the first mermaid flowchart of `markdown`) between nodes whose label starts with a
 * drawn room (`provider/registry: ...`, `sdk/...`), as `from -> to`. `-->` and `-.->` arrows are imports; a thick
 * `==>` arrow is not (a module required by the package's name at run time).
 */
function diagramArrows(markdown: string): string[] {
  const chart = /```mermaid\n(flowchart[\s\S]*?)```/.exec(markdown)?.[1] ?? "";
  const rooms = new Map<string, string>();
  for (const [, id = "", label = ""] of chart.matchAll(/(\w+)\["([^"]*)"\]/g)) {
    const room = drawnRoom(/^[\w/.-]+/.exec(label)?.[0].replace(/\//g, path.sep) ?? "");
    if (room !== undefined) rooms.set(id, room);
  }
  const arrows = new Set<string>();
  for (const line of chart.split("\n")) {
    const m = /^\s*([\w &]+?)\s+(?:-->|-\.->|-- "[^"]*" -->|-\. "[^"]*" \.->)\s+([\w &]+?)\s*$/.exec(line);
    for (const a of m?.[1]?.split("&") ?? []) {
      for (const b of m?.[2]?.split("&") ?? []) {
        const [from, to] = [rooms.get(a.trim()), rooms.get(b.trim())];
        if (from !== undefined && to !== undefined && from !== to) arrows.add(`${from} -> ${to}`);
      }
    }
  }
  return [...arrows].sort();
}

describe("layer boundaries (STYLE.md)", () => {
  for (const rule of RULES) {
    it(rule.says, () => {
      assert.deepEqual(
        violations(ROOT, rule).map((v) => v.where),
        [],
      );
    });
  }

  it("has no circle of imports among provider/'s files", () => {
    assert.deepEqual(circles(fileEdges(ROOT, sources("provider"))), []);
  });

  it("has no circle among provider/'s rooms, so no arrow runs back up", () => {
    assert.deepEqual(circles(groupEdges(fileEdges(ROOT, sources("provider")), providerRoom)), []);
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

  it("draws in docs/architecture.md's layers every arrow between provider/'s rooms and sdk/ that the code has, and no other", () => {
    const markdown = fs.readFileSync(path.join(ROOT, "docs", "architecture.md"), "utf8");
    const drawn = diagramArrows(markdown);
    assert.ok(drawn.length > 10, `the diagram's arrows are read (${String(drawn.length)})`);
    assert.deepEqual(drawn, codeArrows());
  });

  it("sees the layers it checks (the scan is not vacuous)", () => {
    assert.ok(sources("provider/runtime").length > 3, "provider/runtime has sources");
    assert.ok(sources("provider/functions").length > 0, "provider/functions has sources");
    assert.ok(sources("provider/google").length > 3, "provider/google has sources");
    assert.ok(sources("sdk").length > 3, "sdk has sources");
    assert.ok(sources("sandbox").length > 3, "sandbox has sources");
    assert.ok(sources("scripts").length > 3, "scripts has sources");
  });
});

describe("the boundary check, on fixture files of its own", () => {
  let root = "";
  const write = (file: string, lines: readonly string[]): void => {
    fs.mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), `${lines.join("\n")}\n`);
  };
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-boundaries-"));
    write("provider/plugin/schema.ts", ["export const SCHEMA = {};", "export type Schema = typeof SCHEMA;"]);
    write("sdk/wrapped.ts", [
      "import {",
      "  SCHEMA,",
      "  type Schema,",
      '} from "../provider/plugin/schema";',
      "export const schema: Schema = SCHEMA;",
    ]);
    write("sdk/every-form.ts", [
      "export {",
      "  SCHEMA as Again,",
      '} from "../provider/plugin/schema";',
      'export type Lazy = typeof import("../provider/plugin/schema");',
      'export const loaded = require("../provider/plugin/schema") as Lazy;',
      'export const later = import("../provider/plugin/schema");',
      'export const stub = `exports.handler = () => require("../provider/plugin/schema")`;',
    ]);
    write("provider/runtime/types-only.ts", [
      "import type {",
      "  Input,",
      '} from "@pulumi/pulumi";',
      "export type In = Input<string>;",
    ]);
    write("provider/runtime/values.ts", [
      "import {",
      "  type Input,",
      "  output,",
      '} from "@pulumi/pulumi";',
      "export const o = (i: Input<string>) => output(i);",
    ]);
    write("provider/ledger/a.ts", ["import type {", "  B,", '} from "./b";', "export type A = B[];"]);
    write("provider/ledger/b.ts", ['export type * from "./a";', "export type B = string;"]);
    write("provider/resources/r.ts", ['import { u } from "../registry/u";', "export const r = u;"]);
    write("provider/registry/u.ts", ['export const u = () => require("../resources/r") as unknown;']);
  });
  after(() => {
    fs.rmSync(root, { recursive: true, force: true });
  });

  it("fails on an import Prettier wrapped, and on export-from, require(), import() and typeof import()", () => {
    assert.deepEqual(
      violations(root, SDK_WITHOUT_PLUGIN).map((v) => v.where),
      [
        'sdk/every-form.ts:1: export { SCHEMA as Again, } from "../provider/plugin/schema";',
        'sdk/every-form.ts:4: typeof import("../provider/plugin/schema")',
        'sdk/every-form.ts:5: require("../provider/plugin/schema")',
        'sdk/every-form.ts:6: import("../provider/plugin/schema")',
        'sdk/wrapped.ts:1: import { SCHEMA, type Schema, } from "../provider/plugin/schema";',
      ],
    );
  });

  it("tells a wrapped type-only import from one that brings a value", () => {
    assert.deepEqual(
      violations(root, PULUMI_FACING).map((v) => v.where),
      ['provider/runtime/values.ts:1: import { type Input, output, } from "@pulumi/pulumi";'],
    );
  });

  it("finds the circles of files, through type-only imports and re-exports too, and of rooms", () => {
    const edges = fileEdges(root, sourcesUnder(root, "provider"));
    assert.deepEqual(circles(edges), [
      ["provider/ledger/a.ts", "provider/ledger/b.ts"],
      ["provider/registry/u.ts", "provider/resources/r.ts"],
    ]);
    assert.deepEqual(circles(groupEdges(edges, providerRoom)), [["provider/registry", "provider/resources"]]);
  });
});

/** The calls that make a test body: mocha's `describe` and `it` (with their `.only` and `.skip`). */
const TEST_BODY_CALLS = new Set(["describe", "context", "it", "specify"]);

function parsed(file: string): ts.SourceFile {
  return ts.createSourceFile(file, fs.readFileSync(path.join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
}

/** Where `file` calls `describe` or `it`, as `file:line`. */
function testBodies(file: string): string[] {
  const source = parsed(file);
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node)) {
      const callee = ts.isPropertyAccessExpression(node.expression) ? node.expression.expression : node.expression;
      if (ts.isIdentifier(callee) && TEST_BODY_CALLS.has(callee.text)) {
        found.push(`${file}:${String(source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1)}`);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("test layout (docs/testing.md, How the tests are organised)", () => {
  const tests = sources("test").filter((f) => !f.startsWith(path.join("test", "fixtures") + path.sep));
  const specs = tests.filter((f) => f.endsWith(".test.ts"));

  it("keeps every test body in a spec file: no describe or it in a helper", () => {
    const helpers = tests.filter((f) => !f.endsWith(".test.ts"));
    assert.ok(helpers.length > 20, `the helpers are read (${String(helpers.length)})`);
    assert.deepEqual(helpers.flatMap(testBodies), []);
  });

  it("keeps in test/helpers only the named assertions that two spec files or more end with", () => {
    const named = sources("test/helpers").flatMap((helper) =>
      parsed(helper)
        .statements.filter(ts.isFunctionDeclaration)
        .flatMap((fn) => (fn.name?.text.startsWith("assert") === true ? [[helper, fn.name.text] as const] : [])),
    );
    assert.ok(named.length >= 6, `the named assertions are read (${String(named.length)})`);
    const users = ([helper, name]: readonly [string, string]): string[] =>
      specs.filter(
        (spec) =>
          importsOf(ROOT, spec).some((i) => targetOf(spec, i.spec) === helper.replace(/\.ts$/, "")) &&
          new RegExp(`\\b${name}\\b`).test(fs.readFileSync(path.join(ROOT, spec), "utf8")),
      );
    assert.deepEqual(
      named.filter((n) => users(n).length < 2).map(([helper, name]) => `${helper}: ${name}`),
      [],
      "an assertion one spec file uses belongs in that file",
    );
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
