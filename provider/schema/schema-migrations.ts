/**
 * The schema changes a release makes that are not additive — a resource, function, type or property removed, or a
 * property's type changed, or an input newly required — each with how state and programs written against the previous
 * release carry over. test/unit/plugin/schema-compatibility.test.ts compares schema.json with the previous release's
 * (test/fixtures/upgrade/<version>/schema.json) and fails on such a change unless it is listed here (docs/upgrades.md).
 */
export interface SchemaMigration {
  /** The changed place, as the compatibility check names it: `resources.<token>.inputProperties.<name>`, ... */
  readonly path: string;
  /** What happens to existing state and programs (an alias, a state upgrade in the module's check/read, ...). */
  readonly migration: string;
}

export const SCHEMA_MIGRATIONS: readonly SchemaMigration[] = [];
