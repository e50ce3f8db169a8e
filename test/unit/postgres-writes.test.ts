/**
 * test/helpers/postgres.ts's reading of the server's statement log (log_statement=mod), on lines as PostgreSQL 15
 * writes them for the statements of Pulumi's `postgres://` backend: the benchmark's writes per step rest on it.
 */
import { strict as assert } from "node:assert";
import { parseWrites, writeKind } from "../helpers/postgres";

const INSERT =
  "INSERT INTO pulumi_state (key, data) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET data = $2, updated_at = now()";

describe("the PostgreSQL statement log of the postgres:// backend", () => {
  it("finds each INSERT and DELETE with the key it wrote, and nothing else", () => {
    const log = [
      "2026-11-27 15:32:35.004 UTC [19216] LOG:  database system is ready to accept connections",
      `2026-11-27 15:32:35.004 UTC [19216] LOG:  execute <unnamed>: ${INSERT}`,
      "2026-11-27 15:32:35.004 UTC [19216] DETAIL:  parameters: $1 = 'pulumi/.pulumi/meta.yaml', $2 = '{\"data\":\"dmVy...'",
      `2026-11-27 15:32:35.496 UTC [19219] LOG:  execute <unnamed>: ${INSERT}`,
      "2026-11-27 15:32:35.496 UTC [19219] DETAIL:  parameters: $1 = 'pulumi/.pulumi/locks/organization/p/s/5.json', $2 = 'x'",
      `2026-11-27 15:32:35.590 UTC [19219] LOG:  execute <unnamed>: ${INSERT}`,
      "2026-11-27 15:32:35.590 UTC [19219] DETAIL:  parameters: $1 = 'pulumi/.pulumi/stacks/p/s.json', $2 = 'x'",
      "2026-11-27 15:32:36.100 UTC [19219] LOG:  execute <unnamed>: DELETE FROM pulumi_state WHERE key = $1",
      "2026-11-27 15:32:36.100 UTC [19219] DETAIL:  parameters: $1 = 'pulumi/.pulumi/locks/organization/p/s/5.json'",
      "2026-11-27 15:32:36.200 UTC [19219] LOG:  execute <unnamed>: SELECT data FROM pulumi_state WHERE key = $1",
      "2026-11-27 15:32:36.200 UTC [19219] DETAIL:  parameters: $1 = 'pulumi/.pulumi/stacks/p/s.json'",
    ].join("\n");
    assert.deepEqual(
      parseWrites(log).map((w) => [w.verb, writeKind(w.key), w.key]),
      [
        ["INSERT", "other", "pulumi/.pulumi/meta.yaml"],
        ["INSERT", "lock", "pulumi/.pulumi/locks/organization/p/s/5.json"],
        ["INSERT", "checkpoint", "pulumi/.pulumi/stacks/p/s.json"],
        ["DELETE", "lock", "pulumi/.pulumi/locks/organization/p/s/5.json"],
      ],
    );
  });

  it("names the DIY backend's folders with or without the URL's path before them", () => {
    assert.deepEqual(
      [
        ".pulumi/stacks/p/s.json",
        "db/.pulumi/stacks/p/s.json.bak",
        "db/.pulumi/backups/p/s/s.1.json",
        "db/.pulumi/history/p/s/s-1.history.json",
        "db/.pulumi/stacksx/p.json",
        "db/pulumi/stacks/p.json",
      ].map(writeKind),
      ["checkpoint", "backup", "backup", "history", "other", "other"],
    );
  });
});
