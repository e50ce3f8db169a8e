/**
 * Generates the package's Pulumi schema (provider/schema/schema.json) from the TypeScript SDK's surface: the names the
 * registry gives (each resource's `XArgs` and class, each function's `GetXArgs` and `GetXResult`), followed to where
 * each shape is declared once (docs/decisions/0027-plugin-schema-generated-from-the-typescript-sdk.md, 0052): a type
 * alias or re-export to its declaration, a mapped type (the SDK's `Inputs<T>`, sdk/inputs.ts; `Pick`, `Omit`) to the
 * properties it maps, read with their declared types and doc comments (the provider's plain shapes:
 * provider/resources, provider/functions). The Go and Python SDKs follow it (`bash scripts/gen-go-sdk.sh`,
 * `bash scripts/gen-python-sdk.sh`). Run `node dist/scripts/gen-schema.js` (or with `--check`, which exits 1 when the
 * committed schema differs); test/unit/plugin/schema.test.ts runs the same comparison in CI.
 *
 * Mapping: `pulumi.Input<T>`/`pulumi.Output<T>`/`Promise<T>` are T; string (and unions of string literals) →
 * string, number → number, boolean → boolean, `T[]` → array, an object with a string index → map, a named or
 * inline object → an object type `opsledger:<module>:<Name>` (a type alias gives its own name, an instance of a
 * generic one such as `Pick<…>` written inline its owner's), `unknown` or a union of different kinds → Any. A property
 * is required when it is not optional; its description is its doc comment (with `@default` as "Default:", and a
 * `{@link NAME}` of a constant in DOC_VALUES written as its value); a `@secret` tag (and nothing else) marks it secret.
 * Properties of a mapped type (sdk/inputs.ts) are read from the plain declaration they map (provider/: its type and
 * its doc comment). The provider's settings are secret when SECRET_SETTING_KEYS (provider/google/settings.ts) lists
 * them.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import * as ts from "typescript";
import { durationText, SECRET_SETTING_KEYS } from "../provider/google";
import { DEFAULT_OPERATION_TIMEOUT_MS } from "../provider/operations";
import { FUNCTION_LIST, RESOURCE_LIST } from "../provider/registry";
import { CONFIG_KEYS } from "../provider/runtime/settings-reader";

const ROOT = join(__dirname, "..", "..");
export const SCHEMA_PATH = join(ROOT, "provider", "schema", "schema.json");

/** What the generator reads of each resource and function: the registry's descriptors (provider/registry). */
export const RESOURCE_SOURCES = RESOURCE_LIST.map((d) => ({
  token: d.token,
  ...d.sdk,
}));
type ResourceSource = (typeof RESOURCE_SOURCES)[number];
export const FUNCTION_SOURCES = FUNCTION_LIST.map((d) => ({ token: d.token, ...d.sdk }));

/**
 * The ledger reads take a transaction's identity (one declaration, provider/resources/ledger/ledger-shapes.ts), under the
 * type tokens 0.1.0's schema gave their own copies: Go and Python programs name these types, so the tokens stay.
 */
const READ_TYPE_NAMES: Readonly<Record<string, string>> = {
  LedgerIdentity: "LedgerReadIdentity",
  LedgerPkcs11: "LedgerReadPkcs11",
  LedgerKms: "LedgerReadIdentityKms",
};

type Json = Record<string, unknown>;

class Generator {
  readonly types: Record<string, Json> = {};
  /** Object type names given other tokens while the current resource or function is generated (READ_TYPE_NAMES). */
  typeNames: Readonly<Record<string, string>> = {};
  private readonly program: ts.Program;
  readonly checker: ts.TypeChecker;

  constructor() {
    const files = [...RESOURCE_SOURCES, ...FUNCTION_SOURCES, SETTINGS_SOURCE].map((s) => join(ROOT, s.file));
    this.program = ts.createProgram(files, {
      strict: true,
      exactOptionalPropertyTypes: true,
      skipLibCheck: true,
      noEmit: true,
    });
    this.checker = this.program.getTypeChecker();
  }

  /** The exported declaration `name` of `file`. */
  symbol(file: string, name: string): ts.Symbol {
    const source = this.program.getSourceFile(join(ROOT, file));
    const moduleSymbol = source && this.checker.getSymbolAtLocation(source);
    const found = moduleSymbol && this.checker.getExportsOfModule(moduleSymbol).find((s) => s.name === name);
    if (!found) throw new Error(`gen-schema: ${file} exports no ${name}`);
    return found.flags & ts.SymbolFlags.Alias ? this.checker.getAliasedSymbol(found) : found;
  }

  docOf(symbol: ts.Symbol): { description: string; secret: boolean } {
    const text = docText(symbol.getDocumentationComment(this.checker));
    const tags = symbol.getJsDocTags(this.checker);
    const def = tags.find((t) => t.name === "default");
    const defText = docText(def?.text);
    const description = [text, defText === "" ? "" : `Default: ${defText}`].filter((s) => s !== "").join("\n\n");
    const secret = tags.some((t) => t.name === "secret");
    return { description, secret };
  }

  /** A property's type, read through `pulumi.Input<T>` / `pulumi.Output<T>` written on it. */
  declaredType(p: ts.Symbol, decl: ts.Declaration): ts.Type {
    let node = (decl as ts.Declaration & { type?: ts.TypeNode }).type;
    while (node && ts.isTypeReferenceNode(node) && /(^|\.)(Input|Output)$/.test(node.typeName.getText())) {
      node = node.typeArguments?.[0];
    }
    return node ? this.checker.getTypeFromTypeNode(node) : this.checker.getTypeOfSymbolAtLocation(p, decl);
  }

  /** T of Input<T>, Output<T>, Promise<T>, and T without undefined/null. */
  private strip(type: ts.Type): ts.Type[] {
    const members = type.isUnion() ? type.types : [type];
    const kept: ts.Type[] = [];
    for (const m of members) {
      if (m.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Null)) continue;
      const name = m.getSymbol()?.getName() ?? m.aliasSymbol?.getName();
      if (name === "Promise" || name === "OutputInstance" || name === "Output" || name === "Input") {
        const arg = this.checker.getTypeArguments(m as ts.TypeReference)[0] ?? m.aliasTypeArguments?.[0];
        if (arg) kept.push(...this.strip(arg));
        continue;
      }
      kept.push(m);
    }
    // boolean is the union true | false
    if (kept.length > 0 && kept.every((k) => k.flags & ts.TypeFlags.BooleanLike))
      return [this.checker.getBooleanType()];
    const unique: ts.Type[] = [];
    for (const k of kept) if (!unique.some((u) => u === k || (isStringish(u) && isStringish(k)))) unique.push(k);
    return unique;
  }

  /** The schema type of `type`; `owner` names inline object types. */
  typeSpec(type: ts.Type, owner: string, module: string): Json {
    const kinds = this.strip(type);
    const [one] = kinds;
    if (kinds.length !== 1 || one === undefined) return { $ref: "pulumi.json#/Any" };
    if (isStringish(one)) return { type: "string" };
    if (one.flags & ts.TypeFlags.NumberLike) return { type: "number" };
    if (one.flags & ts.TypeFlags.BooleanLike) return { type: "boolean" };
    if (one.flags & (ts.TypeFlags.Unknown | ts.TypeFlags.Any)) return { $ref: "pulumi.json#/Any" };
    if (this.checker.isArrayType(one)) {
      const item = this.checker.getTypeArguments(one as ts.TypeReference)[0];
      return { type: "array", items: item ? this.typeSpec(item, owner, module) : { $ref: "pulumi.json#/Any" } };
    }
    const index = this.checker.getIndexTypeOfType(one, ts.IndexKind.String);
    if (index) return { type: "object", additionalProperties: this.typeSpec(index, owner, module) };
    if (one.flags & ts.TypeFlags.Object) {
      // An instance of a generic alias written in place (`Pick<Timeouts, "create">`) is named as an inline object.
      const alias = one.aliasTypeArguments === undefined ? one.aliasSymbol : undefined;
      const named = (alias ?? one.getSymbol())?.getName();
      const plain = named && named !== "__type" && named !== "__object" ? named.replace(/Args$/, "") : owner;
      const name = this.typeNames[plain] ?? plain;
      const token = `opsledger:${module}:${name}`;
      if (this.types[token] === undefined) {
        this.types[token] = { type: "object" };
        const { properties, required } = this.properties(one, name, module);
        this.types[token] = { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
        const symbol = alias ?? one.getSymbol();
        const doc = symbol ? this.docOf(symbol).description : "";
        if (doc !== "") this.types[token] = { description: doc, ...this.types[token] };
      }
      return { $ref: `#/types/${token}` };
    }
    return { $ref: "pulumi.json#/Any" };
  }

  properties(
    type: ts.Type,
    owner: string,
    module: string,
    skip: readonly string[] = [],
  ): { properties: Json; required: string[] } {
    const properties: Json = {};
    const required: string[] = [];
    for (const p of this.checker.getPropertiesOfType(type)) {
      const decl = p.valueDeclaration ?? p.declarations?.[0];
      if (!decl || skip.includes(p.name) || p.name.startsWith("__")) continue;
      const mods = ts.canHaveModifiers(decl) ? (ts.getModifiers(decl) ?? []) : [];
      if (mods.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword || m.kind === ts.SyntaxKind.ProtectedKeyword))
        continue;
      const { description, secret } = this.docOf(p);
      const spec = this.typeSpec(this.declaredType(p, decl), owner + pascal(p.name), module);
      properties[p.name] = {
        ...spec,
        ...(description === "" ? {} : { description }),
        ...(secret ? { secret: true } : {}),
      };
      if (!(p.flags & ts.SymbolFlags.Optional)) required.push(p.name);
    }
    return { properties, required };
  }

  /** A resource class's outputs: its public pulumi.Output properties (not inherited from CustomResource). */
  outputs(src: ResourceSource, module: string): { properties: Json; required: string[] } {
    const cls = this.checker.getDeclaredTypeOfSymbol(this.symbol(src.file, src.cls));
    const own = this.checker
      .getPropertiesOfType(cls)
      .filter((p) => p.valueDeclaration && relative(ROOT, p.valueDeclaration.getSourceFile().fileName) === src.file);
    const properties: Json = {};
    const required: string[] = [];
    for (const p of own) {
      if ((src.sdkOnly ?? []).includes(p.name) || p.name.startsWith("__")) continue;
      const decl = p.valueDeclaration as ts.Declaration;
      const mods = ts.canHaveModifiers(decl) ? (ts.getModifiers(decl) ?? []) : [];
      if (mods.some((m) => m.kind === ts.SyntaxKind.PrivateKeyword)) continue;
      const type = this.declaredType(p, decl);
      const doc = this.docOf(p);
      const description = doc.description;
      const secret = doc.secret;
      properties[p.name] = {
        ...this.typeSpec(type, src.cls + pascal(p.name), module),
        ...(description === "" ? {} : { description }),
        ...(secret ? { secret: true } : {}),
      };
      if (!isOptionalOutput(type)) required.push(p.name);
    }
    return { properties, required };
  }
}

/**
 * The constants a doc comment may link (`@default {@link DEFAULT_OPERATION_TIMEOUT_MS}`): the schema says their value,
 * as a program would write it, so a documented default is the constant the code applies.
 */
const DOC_VALUES: Readonly<Record<string, string>> = {
  DEFAULT_OPERATION_TIMEOUT_MS: durationText(DEFAULT_OPERATION_TIMEOUT_MS),
};

/** A doc comment's text, each `{@link NAME}` written as DOC_VALUES' value of NAME, or as NAME. */
function docText(parts: readonly ts.SymbolDisplayPart[] | undefined): string {
  let text = "";
  let link: string | undefined;
  for (const part of parts ?? []) {
    if (part.kind === "link") {
      if (link === undefined) link = "";
      else {
        text += DOC_VALUES[link.trim()] ?? link.trim();
        link = undefined;
      }
    } else if (link === undefined) text += part.text;
    else link += part.text;
  }
  return text.trim();
}

function isStringish(t: ts.Type): boolean {
  return (t.flags & ts.TypeFlags.StringLike) !== 0;
}

/** Output<T | undefined>: the property may be absent. */
function isOptionalOutput(type: ts.Type): boolean {
  return type.isUnion() && type.types.some((m) => (m.flags & ts.TypeFlags.Undefined) !== 0);
}

/** The provider's settings: the keys stack config takes (CONFIG_KEYS), documented where the client declares them. */
const SETTINGS_SOURCE = { file: "provider/google/settings-types.ts", type: "GoogleSettingsInput" } as const;

/** The provider's input properties (`opsledger:index:Provider`), which are also the `opsledger:*` stack config. */
function settingsProperties(g: Generator): Json {
  const type = g.checker.getDeclaredTypeOfSymbol(g.symbol(SETTINGS_SOURCE.file, SETTINGS_SOURCE.type));
  const properties: Json = {};
  for (const key of CONFIG_KEYS) {
    const p = type.getProperty(key);
    if (p === undefined) throw new Error(`gen-schema: ${SETTINGS_SOURCE.type} has no setting ${key}`);
    const { description } = g.docOf(p);
    if (description === "") throw new Error(`gen-schema: ${SETTINGS_SOURCE.type}.${key} has no doc comment`);
    properties[key] = { type: "string", description, ...(SECRET_SETTING_KEYS.includes(key) ? { secret: true } : {}) };
  }
  return properties;
}

function pascal(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function moduleOf(token: string): string {
  return token.split(":")[1] ?? "index";
}

/** The schema, as the SDK's sources say today (the package version is the plugin's, added when served). */
export function generateSchema(): Json {
  const g = new Generator();
  const resources: Json = {};
  for (const src of RESOURCE_SOURCES) {
    const module = moduleOf(src.token);
    const { properties: inputProperties, required: requiredInputs } = g.properties(
      g.checker.getDeclaredTypeOfSymbol(g.symbol(src.file, src.args)),
      src.cls,
      module,
    );
    const { properties, required } = g.outputs(src, module);
    resources[src.token] = {
      description: g.docOf(g.symbol(src.file, src.cls)).description,
      inputProperties,
      requiredInputs,
      properties: { ...inputProperties, ...properties },
      required,
    };
  }
  const functions: Json = {};
  for (const src of FUNCTION_SOURCES) {
    const module = moduleOf(src.token);
    const checker = g.checker;
    g.typeNames = module === "ledger" ? READ_TYPE_NAMES : {};
    const inputs = g.properties(
      checker.getDeclaredTypeOfSymbol(g.symbol(src.file, src.args)),
      pascal(src.fn) + "Args",
      module,
    );
    g.typeNames = {};
    const outputs = g.properties(
      checker.getDeclaredTypeOfSymbol(g.symbol(src.file, src.result)),
      pascal(src.fn) + "Result",
      module,
    );
    functions[src.token] = {
      description: g.docOf(g.symbol(src.file, src.fn)).description,
      inputs: { properties: inputs.properties, required: inputs.required },
      outputs: { properties: outputs.properties, required: outputs.required },
    };
  }
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as { description: string; license: string };
  const release = releaseLocation();
  return {
    name: "opsledger",
    displayName: "OpsLedger",
    description: pkg.description,
    license: pkg.license,
    repository: release.repositoryUrl,
    publisher: release.owner,
    // Where the engine downloads the plugin's archives from (docs/decisions/0062-plugin-download-url.md).
    pluginDownloadURL: release.pluginDownloadURL,
    meta: { moduleFormat: "(.*)" },
    language: {
      go: { importBasePath: release.goImportBasePath },
      // sdk/python (scripts/gen-python-sdk.sh): a pyproject.toml package whose version is the one gen-sdk's --version
      // passes (package.json's), as Python's packaging expects, instead of setup.py with a placeholder. Its Python
      // floor is the `pulumi` package's own (Requires-Python >=3.10 at the CLI's version).
      python: {
        packageName: "pulumi_opsledger",
        pyproject: { enabled: true },
        respectSchemaVersion: true,
        pythonRequires: PYTHON_REQUIRES,
      },
    },
    config: { variables: settingsProperties(g) },
    provider: {
      description:
        "The provider's settings: an explicit provider instance takes them as inputs (each resource and invoke names its provider); the default provider takes them from the stack's `opsledger:*` config. The environment fills what neither sets.",
      inputProperties: settingsProperties(g),
    },
    resources,
    functions,
    types: Object.fromEntries(Object.entries(g.types).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** The Python versions the SDK declares: those the `pulumi` package at the CLI's version supports. */
export const PYTHON_REQUIRES = ">=3.10";

/** Where releases live, read from package.json's `repository` (a GitHub repository): one fact for every SDK. */
export interface ReleaseLocation {
  readonly owner: string;
  readonly repo: string;
  /** https://github.com/<owner>/<repo> */
  readonly repositoryUrl: string;
  /** `github://api.github.com/<owner>/<repo>`: the engine reads release v<version>'s asset of the standard name. */
  readonly pluginDownloadURL: string;
  /** The Go module's path is the repository's sdk/go folder; its packages are under opsledger/. */
  readonly goModule: string;
  readonly goImportBasePath: string;
}

export function releaseLocation(root = ROOT): ReleaseLocation {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { repository?: { url?: string } };
  const match = /github\.com\/([\w.-]+)\/([\w.-]+?)(?:\.git)?$/.exec(pkg.repository?.url ?? "");
  if (!match?.[1] || !match[2]) {
    throw new Error(
      "package.json's repository.url must name the GitHub repository (git+https://github.com/<owner>/<repo>.git)",
    );
  }
  const [, owner, repo] = match;
  const goModule = `github.com/${owner}/${repo}/sdk/go`;
  return {
    owner,
    repo,
    repositoryUrl: `https://github.com/${owner}/${repo}`,
    pluginDownloadURL: `github://api.github.com/${owner}/${repo}`,
    goModule,
    goImportBasePath: `${goModule}/opsledger`,
  };
}

/** The schema file's text: stable key order, two-space JSON, a final newline. */
export function schemaFileText(): string {
  return `${JSON.stringify(generateSchema(), null, 2)}\n`;
}

if (require.main === module) {
  const text = schemaFileText();
  if (process.argv.includes("--check")) {
    if (readFileSync(SCHEMA_PATH, "utf8") !== text) {
      process.stderr.write(`${SCHEMA_PATH} differs from the SDK's types: run node dist/scripts/gen-schema.js\n`);
      process.exit(1);
    }
  } else {
    writeFileSync(SCHEMA_PATH, text);
  }
}
