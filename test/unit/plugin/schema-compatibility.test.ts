/**
 * The plugin's schema keeps the previous release's shape (docs/upgrades.md): compared with the schema recorded with
 * the latest release under test/fixtures/upgrade, nothing is removed or retyped and no input becomes required, unless
 * provider/schema/schema-migrations.ts declares how existing state and programs carry over.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { SCHEMA } from "../../../provider/schema/schema";
import { SCHEMA_MIGRATIONS } from "../../../provider/schema/schema-migrations";
import { breakingChanges } from "../../helpers/schema-compat";
import { REPO_ROOT } from "../../helpers/project-stack";

const UPGRADES = path.join(REPO_ROOT, "test", "fixtures", "upgrade");

/** The recorded releases, newest last (numeric order of major.minor.patch). */
function releases(): string[] {
  const key = (v: string): number[] => v.split(".").map(Number);
  return fs
    .readdirSync(UPGRADES)
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v))
    .sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      for (let i = 0; i < 3; i++) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) - (y[i] ?? 0);
      return 0;
    });
}

describe("schema compatibility with the previous release", () => {
  it("has nothing removed or retyped since the latest recorded release, beyond the declared migrations", () => {
    const previous = releases().at(-1);
    assert.ok(previous !== undefined, "a release is recorded under test/fixtures/upgrade");
    const before = JSON.parse(fs.readFileSync(path.join(UPGRADES, previous, "schema.json"), "utf8")) as Record<
      string,
      unknown
    >;
    const declared = new Set(SCHEMA_MIGRATIONS.map((m) => m.path));
    const undeclared = breakingChanges(before, SCHEMA as unknown as Record<string, unknown>).filter(
      (change) => !declared.has(change.slice(0, change.indexOf(": "))),
    );
    assert.deepEqual(undeclared, [], `breaking changes since ${previous} without a migration`);
  });

  it("names a removed property, a retyped one, a removed function and a newly required input", () => {
    const before = {
      resources: {
        "p:m:R": {
          inputProperties: { a: { type: "string" }, b: { type: "array", items: { type: "string" } } },
          properties: { c: { type: "string" } },
          requiredInputs: ["a"],
        },
      },
      functions: { "p:m:getX": { inputs: { properties: { x: { type: "string" } } } } },
    };
    const after = {
      resources: {
        "p:m:R": {
          inputProperties: {
            a: { type: "string" },
            b: { type: "array", items: { type: "integer" } },
            d: { type: "string" },
          },
          properties: {},
          requiredInputs: ["a", "d"],
        },
      },
      functions: {},
    };
    assert.deepEqual(breakingChanges(before, after), [
      "resources.p:m:R.inputProperties.b: type array<string> became array<integer>",
      "resources.p:m:R.properties.c: removed",
      "resources.p:m:R.requiredInputs.d: newly required",
      "functions.p:m:getX: removed",
    ]);
    assert.deepEqual(breakingChanges(before, before), []);
  });
});
