/**
 * The imports of the repository's TypeScript, read with the TypeScript compiler's parser, so an import Prettier wrapped
 * over several lines is read like any other: `import` and `import type`, `export ... from`, `import x = require()`,
 * `require()`, `import()` and `typeof import()` each make an edge. Every function takes the root it reads from, so a
 * test can run them over fixture files of its own.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

/** One module a file imports. */
export interface Import {
  /** The module specifier as written ("../registry", "@pulumi/pulumi"). */
  readonly spec: string;
  /** Whether only types come through it (erased at compile time). */
  readonly typeOnly: boolean;
  /** `file:line: statement`, the statement on one line: what a failing check prints. */
  readonly where: string;
}

/** The .ts files (declarations aside) under `dir` of `root`, as paths relative to `root`. */
export function sourcesUnder(root: string, dir: string): string[] {
  const abs = path.join(root, dir);
  if (!fs.existsSync(abs)) return [];
  return fs
    .readdirSync(abs, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".ts") && !f.endsWith(".d.ts") && !f.split(path.sep).includes("node_modules"))
    .map((f) => path.join(dir, f))
    .sort();
}

function namedOnlyTypes(elements: ts.NodeArray<ts.ImportSpecifier | ts.ExportSpecifier>): boolean {
  return elements.length > 0 && elements.every((el) => el.isTypeOnly);
}

function importTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.phaseModifier === ts.SyntaxKind.TypeKeyword) return true;
  const bindings = clause.namedBindings;
  return clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings)
    ? namedOnlyTypes(bindings.elements)
    : false;
}

function exportTypeOnly(node: ts.ExportDeclaration): boolean {
  const clause = node.exportClause;
  return node.isTypeOnly || (clause !== undefined && ts.isNamedExports(clause) && namedOnlyTypes(clause.elements));
}

function literal(node: ts.Node | undefined): string | undefined {
  return node !== undefined && ts.isStringLiteralLike(node) ? node.text : undefined;
}

/** Each file's imports once per run: the checks read the same files rule after rule. */
const parsed = new Map<string, readonly Import[]>();

/** Every import of `file` (relative to `root`), in source order. */
export function importsOf(root: string, file: string): readonly Import[] {
  const key = path.join(root, file);
  const known = parsed.get(key);
  if (known !== undefined) return known;
  const found = parse(root, file);
  parsed.set(key, found);
  return found;
}

function parse(root: string, file: string): Import[] {
  const source = ts.createSourceFile(file, fs.readFileSync(path.join(root, file), "utf8"), ts.ScriptTarget.Latest);
  const found: Import[] = [];
  const add = (spec: string | undefined, typeOnly: boolean, node: ts.Node, statement: ts.Node): void => {
    if (spec === undefined) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    const text = statement.getText(source).replace(/\s+/g, " ");
    found.push({ spec, typeOnly, where: `${file}:${String(line)}: ${text}` });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(literal(node.moduleSpecifier), importTypeOnly(node), node, node);
    else if (ts.isExportDeclaration(node)) add(literal(node.moduleSpecifier), exportTypeOnly(node), node, node);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(literal(node.moduleReference.expression), node.isTypeOnly, node, node);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      add(literal(node.argument.literal), true, node, node);
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(node.expression) && node.expression.text === "require"))
    )
      add(literal(node.arguments[0]), false, node, node);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The directory or file a relative specifier of `file` points at (relative to the root), or undefined for a package. */
export function targetOf(file: string, spec: string): string | undefined {
  return spec.startsWith(".") ? path.normalize(path.join(path.dirname(file), spec)) : undefined;
}

/** Whether a specifier of `file` points into `dir` (a folder or a module path without extension, from the root). */
export function pointsInto(file: string, spec: string, dir: string): boolean {
  const target = targetOf(file, spec);
  return target !== undefined && (target === dir || target.startsWith(dir + path.sep));
}

/** The source file (of `files`) a relative specifier of `file` resolves to, as Node's CommonJS resolution finds it. */
function resolve(files: ReadonlySet<string>, file: string, spec: string): string | undefined {
  const target = targetOf(file, spec);
  if (target === undefined) return undefined;
  const stem = target.replace(/\.js$/, "");
  return [`${stem}.ts`, path.join(stem, "index.ts")].find((candidate) => files.has(candidate));
}

/** Each file of `files` with the files of `files` it imports (type-only imports too: they tie the code as much). */
export function fileEdges(root: string, files: readonly string[]): Map<string, Set<string>> {
  const known = new Set(files);
  return new Map(
    files.map((file) => [
      file,
      new Set(
        importsOf(root, file)
          .map((i) => resolve(known, file, i.spec))
          .filter((t): t is string => t !== undefined && t !== file),
      ),
    ]),
  );
}

/** The edges between the groups `groupOf` puts files in (a folder, say); an edge inside one group is left out. */
export function groupEdges(
  edges: ReadonlyMap<string, ReadonlySet<string>>,
  groupOf: (file: string) => string,
): Map<string, Set<string>> {
  const groups = new Map<string, Set<string>>();
  for (const [file, targets] of edges) {
    const from = groupOf(file);
    const out = groups.get(from) ?? new Set<string>();
    groups.set(from, out);
    for (const target of targets) if (groupOf(target) !== from) out.add(groupOf(target));
  }
  return groups;
}

/** The circles of a graph: each set of two or more nodes that reach one another (Tarjan's components), sorted. */
export function circles(edges: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node) ?? 0);
    stack.push(node);
    onStack.add(node);
    for (const next of edges.get(node) ?? []) {
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node) ?? 0, index.get(next) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) found.push(component.sort());
  };
  for (const node of edges.keys()) if (!index.has(node)) connect(node);
  return found.sort((a, b) => (a[0] ?? "").localeCompare(b[0] ?? ""));
}
