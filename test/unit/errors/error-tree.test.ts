/**
 * The one error tree: every error class of provider/ is declared under provider/errors, extends OpsLedgerError, has a
 * static `kind` of its own and takes one properties object; a LedgerTransactions failure is a partial failure, not any
 * ledger error.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";
import { OpsLedgerError } from "../../../provider/errors/opsledger-error";
import { PartialFailureError } from "../../../provider/errors/partial-failure-error";
import { LedgerError } from "../../../provider/errors/ledger/ledger-error";
import { LedgerTransactionsError } from "../../../provider/errors/ledger/ledger-transactions-error";

const ROOT = path.resolve(__dirname, "..", "..", "..", "..");
const COMPILED_ERRORS = path.resolve(__dirname, "..", "..", "..", "provider", "errors");

function files(dir: string, extension: string): string[] {
  return fs
    .readdirSync(dir, { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(extension) && !f.endsWith(".d.ts"))
    .map((f) => path.join(dir, f));
}

/** Every class of a source file that extends a class named `Error` or `…Error`, with its constructor's parameters. */
function errorClasses(file: string): { name: string; parameters: string[] | undefined }[] {
  const source = ts.createSourceFile(file, fs.readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
  const found: { name: string; parameters: string[] | undefined }[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isClassDeclaration(node)) {
      const base = node.heritageClauses
        ?.find((h) => h.token === ts.SyntaxKind.ExtendsKeyword)
        ?.types[0]?.expression.getText(source);
      if (base !== undefined && /Error$/.test(base)) {
        const constructor = node.members.find(ts.isConstructorDeclaration);
        found.push({
          name: node.name?.text ?? "(anonymous)",
          parameters: constructor?.parameters.map((p) => p.name.getText(source)),
        });
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("the error tree (provider/errors)", () => {
  it("declares every error class of provider/ under provider/errors, each constructed from one properties object", () => {
    const all = files(path.join(ROOT, "provider"), ".ts").flatMap((file) =>
      errorClasses(file).map((c) => ({ ...c, file: path.relative(ROOT, file) })),
    );
    assert.ok(all.length >= 25, `found ${String(all.length)} error classes`);
    assert.deepEqual(
      all.filter((c) => !c.file.startsWith(`provider${path.sep}errors${path.sep}`)).map((c) => `${c.file}: ${c.name}`),
      [],
      "error classes outside provider/errors",
    );
    assert.deepEqual(
      all
        .filter((c) => c.parameters !== undefined && c.parameters.join(",") !== "properties")
        .map((c) => `${c.file}: ${c.name}(${c.parameters?.join(", ") ?? ""})`),
      [],
      "constructors taking anything but one properties object",
    );
  });

  it("gives every class its own kind, under OpsLedgerError", () => {
    const exported = files(COMPILED_ERRORS, ".js").flatMap((file) =>
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- the folder's compiled modules, found at run time
      Object.values(require(file) as Record<string, unknown>).filter(
        (v): v is typeof OpsLedgerError => typeof v === "function" && v.prototype instanceof Error,
      ),
    );
    const classes = [...new Set(exported)]; // the index re-exports some
    assert.ok(classes.length >= 25, `found ${String(classes.length)} error classes`);
    for (const c of classes) {
      assert.ok(
        c === OpsLedgerError || Object.prototype.isPrototypeOf.call(OpsLedgerError.prototype, c.prototype),
        c.name,
      );
      assert.ok(Object.hasOwn(c, "kind"), `${c.name} has a kind of its own`);
      assert.equal(c.kind, c.name);
    }
    const kinds = classes.map((c) => c.kind);
    assert.deepEqual(
      kinds.filter((k, i) => kinds.indexOf(k) !== i),
      [],
      "kinds used twice",
    );
  });

  it("tells a LedgerError from a LedgerTransactionsError, which is a partial failure", () => {
    const ledger = new LedgerError({ message: "the gateway refused the proposal" });
    assert.equal(ledger instanceof LedgerTransactionsError, false);
    assert.equal(ledger instanceof PartialFailureError, false);
    const batch = new LedgerTransactionsError({
      message: "LedgerTransactions batch: 1 of 2 transactions failed",
      id: "0123456789abcdef0123456789abcdef",
      properties: { committed: [{ key: "a" }] },
      reasons: ["LedgerTransactions batch: 1 of 2 transactions failed", "'b': MVCC_READ_CONFLICT"],
    });
    assert.equal(batch instanceof PartialFailureError, true);
    assert.equal(batch instanceof OpsLedgerError, true);
    assert.equal(batch instanceof LedgerError, false);
    assert.deepEqual(
      [batch.name, batch.id, batch.properties, batch.reasons.length],
      ["LedgerTransactionsError", "0123456789abcdef0123456789abcdef", { committed: [{ key: "a" }] }, 2],
    );
  });
});
