/**
 * Nothing measured was lost when DEVELOPMENT.md was split into a short DEVELOPMENT.md and docs/: every figure (a number
 * with a unit) and every table row of DEVELOPMENT.md as it was at SPLIT_BASE is found again in the project's Markdown
 * (any page but the changelogs), or is listed in DROPPED with the reason. It compares with that commit's file, not with
 * today's text, so the pages stay free to change: a figure that is re-measured or retired later goes into DROPPED with
 * its reason, which is the point — nothing disappears silently.
 *
 * The old file's figures and rows are kept in test/fixtures/docs/development-at-split.json, extracted once with this
 * file's own readers (`figuresIn`, `tableRows`) from `git show <SPLIT_BASE>:DEVELOPMENT.md`: CI's fresh clone may be
 * shallow, so the check must not need the history.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { figureFinder, figuresIn, markdownFiles, tableRows } from "./markdown";

const ROOT = path.resolve(__dirname, "..", "..", "..", "..");

/** The last commit with the whole DEVELOPMENT.md (58 KB), before the split. */
export const SPLIT_BASE = "b85d503ef274c9304307bea35918af247fe8975b";

/** The e2e tier's row of the test table at SPLIT_BASE, long enough to keep out of DROPPED's list. */
const E2E_TIER_ROW_AT_SPLIT =
  "e2e | test/e2e | the plain `pulumi` CLI in the example directories (and a generated project: twelve moves under a compute write quota, each made once, the pacing status on their rows): firewall-policy-move (read-only preview showing only the user's inputs, the parent change as one `~ parentId` line, update in place, A\u2192B\u2192A\u2192B, drift, QUOTA_EXCEEDED, ~20% seeded faults with the move POST's answer lost after it took effect in every run, progress statuses on the move's URN, secrets), kill -9 at points the sandbox reports as they are reached (operation running, after DONE before the state write, before the move POST, the CLI alone, the language host and program, an update), inventory-source-group-deletion, operation-wait, read-only (and a data source's 404 printed as one paragraph), the demo and the root project previewed read-only, pr-preview (the workflow's steps and the comment pulumi/actions would post), the README snippet in a fresh project that installed the npm tarball, and every example README's marked block of commands run with bash as written (example-readmes), both against `npm run sandbox` started as a user starts it; ledger-signers (every signer kind: key file, env, SoftHSM2 with PIN from env and as a secret, Cloud KMS with a service-account key as `opsledger:credentials`; a failed preview per kind; the secrets scan) and ledger-migration (a 0.1 state moves to a reference: update, no resubmission, no key left); the ledger component on the Fabric sandbox and real Fabric, one body per behaviour (ledger-component*, below); ledger-faults (a generated project of N LedgerTransactions on real Fabric 2.5.16 through leader kill, peer restarts and the gateway down: \"Ledger transactions through network faults\")";

/**
 * Figures and table rows of the old DEVELOPMENT.md left out on purpose, each with the reason. An entry must still be
 * in the old file and must not be found in the docs (else it is not dropped: remove it from here).
 */
export const DROPPED: ReadonlyMap<string, string> = new Map<string, string>([
  [
    E2E_TIER_ROW_AT_SPLIT,
    "rewritten, no figure in it: docs/testing.md's e2e row now also names the tests issue 18 added (the crash before the operation finishes, README blocks in a user's shell, the PR preview's secrets)",
  ],
  [
    "ledger-component.test.ts | sandbox, 2.5.16, 3.1.5 | VALID (preview shows the txId and the simulated result and orders nothing; up submits that txId once; block, result, both endorsers; the ProcessedTransaction output equals qscc's bytes), MVCC_READ_CONFLICT, kill -9 adoption",
    "rewritten, no figure in it: VALID now runs on 3.1.5 here and on lifecycle's first up on 2.5.16, and the 3.1.5 peer freeze moved here (decision 0034)",
  ],
  [
    "ledger-component-lifecycle.test.ts | sandbox, 2.5.16 | re-run and refresh change nothing, new arguments replace (two on the ledger), secrets, allowInvalid, onDestroy exactly once, a refused endorsement",
    "rewritten, no figure in it: the sandbox leg was dropped and the stack's first up carries the VALID case (decision 0034)",
  ],
  [
    "ledger-component-peers.test.ts | 2.5.16, 3.1.5 (networks of its own) | up ends only once the other endorsing organization's peer has the transaction; examples/ledger/README.md's real-network block with the lines `fabric:up` prints",
    "rewritten, no figure in it: its 3.1.5 test runs on ledger-component's own 3.1.5 network (decision 0034)",
  ],
]);

/** The new pages: their table rows, and a test for a figure in their text. */
interface Corpus {
  readonly rows: ReadonlySet<string>;
  readonly hasFigure: (figure: string) => boolean;
}

/** Pages that may hold a figure: every Markdown file but the changelogs (a changelog repeats, it does not keep). */
function docsCorpus(): Corpus {
  const files = markdownFiles(ROOT).filter((f) => f !== "CHANGELOG.md" && !/^docs\/changelog-[^/]*\.md$/.test(f));
  const texts = files.map((f) => fs.readFileSync(path.join(ROOT, f), "utf8"));
  return { rows: new Set(texts.flatMap(tableRows)), hasFigure: figureFinder(texts.join("\n\n")) };
}

/** What the fixture keeps of DEVELOPMENT.md at SPLIT_BASE. */
interface BaseDevelopment {
  readonly commit: string;
  readonly characters: number;
  readonly figures: readonly string[];
  readonly rows: readonly string[];
}

function baseDevelopment(): BaseDevelopment {
  const file = path.join(ROOT, "test", "fixtures", "docs", "development-at-split.json");
  return JSON.parse(fs.readFileSync(file, "utf8")) as BaseDevelopment;
}

/** What the old text had that the docs lack and DROPPED does not explain. */
export function lostInMove(
  old: { readonly figures: readonly string[]; readonly rows: readonly string[] },
  corpus: Corpus,
  dropped: ReadonlyMap<string, string>,
): { figures: string[]; rows: string[] } {
  return {
    figures: old.figures.filter((f) => !dropped.has(f) && !corpus.hasFigure(f)),
    rows: old.rows.filter((r) => !dropped.has(r) && !corpus.rows.has(r)),
  };
}

describe("docs: the split of DEVELOPMENT.md", () => {
  describe("the readers the check uses", () => {
    it("reads figures with their units, ranges, growth factors and counted rates", () => {
      assert.deepEqual(
        figuresIn("up 144.6 s (1.08x, 14%); 0.90M-1.46M ops/s, x9.1, 155-165 s, 2,284 KB; failed 1 time in 30; v2 x"),
        ["144.6 s", "1.08x", "14%", "0.90M-1.46M ops/s", "x9.1", "155-165 s", "2,284 KB", "1 time in 30"],
      );
    });

    it("finds a figure only as a figure of its own, across a line break", () => {
      assert.equal(figureFinder("took 4.4\n  s in all")("4.4 s"), true);
      assert.equal(figureFinder("took 14.4 s")("4.4 s"), false);
      assert.equal(figureFinder("took 4.4 s.")("4.4 s"), true);
      assert.equal(figureFinder("was 1.08x0")("1.08x"), false);
    });

    it("reads table rows whatever their padding, without separator rows", () => {
      assert.deepEqual(tableRows("| a | b |\n|---|:-:|\n|  1  |   2 s |\ntext | not a row\n"), ["a | b", "1 | 2 s"]);
    });

    it("reports a figure or a row the new pages lost, unless it is listed as dropped", () => {
      const oldText = "Start: 5.9 s, then 0.79x.\n\n| What | Figure |\n|---|---|\n| demo | 27 s |\n| cold | 432 s |\n";
      const newText = "| What | Figure |\n|---|---|\n| demo | 27 s |\n\nstart 5.9 s";
      const corpus = { rows: new Set(tableRows(newText)), hasFigure: figureFinder(newText) };
      const old = { figures: figuresIn(oldText), rows: tableRows(oldText) };
      assert.deepEqual(lostInMove(old, corpus, new Map()), {
        figures: ["0.79x", "432 s"],
        rows: ["cold | 432 s"],
      });
      const dropped = new Map([
        ["0.79x", "re-measured"],
        ["cold | 432 s", "re-measured"],
        ["432 s", "re-measured"],
      ]);
      assert.deepEqual(lostInMove(old, corpus, dropped), { figures: [], rows: [] });
    });
  });

  describe(`DEVELOPMENT.md at ${SPLIT_BASE.slice(0, 7)} against today's pages`, () => {
    let old: BaseDevelopment;
    before(() => {
      old = baseDevelopment();
    });

    it("holds the old file whole (a wrong commit or an empty file would pass vacuously)", () => {
      assert.equal(old.commit, SPLIT_BASE);
      assert.ok(old.characters > 50_000, `DEVELOPMENT.md at ${SPLIT_BASE} had ${String(old.characters)} characters`);
      assert.ok(old.figures.length > 200, "expected the old file's 200+ figures");
      assert.ok(old.rows.length > 80, "expected the old file's 80+ table rows");
    });

    it("finds every figure and every table row again, or lists it as dropped with its reason", () => {
      const lost = lostInMove(old, docsCorpus(), DROPPED);
      assert.deepEqual(lost, { figures: [], rows: [] }, "lost in the move: put them back, or list them in DROPPED");
    });

    it("lists as dropped only what the old file had and the docs no longer have", () => {
      const corpus = docsCorpus();
      const oldFigures = new Set(old.figures);
      const oldRows = new Set(old.rows);
      const stale = [...DROPPED.keys()].filter(
        (key) =>
          !(oldFigures.has(key) || oldRows.has(key)) ||
          (oldFigures.has(key) ? corpus.hasFigure(key) : corpus.rows.has(key)),
      );
      assert.deepEqual(stale, []);
      for (const [key, reason] of DROPPED) assert.ok(reason.trim().length > 10, `DROPPED["${key}"] needs a reason`);
    });
  });
});
