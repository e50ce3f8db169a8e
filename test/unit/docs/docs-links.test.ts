/**
 * Every relative link of the project's Markdown resolves: to a file or folder of the repository and, with an
 * `#anchor` into a Markdown file, to one of its headings (GitHub's anchors). Links with a scheme are not followed.
 * The code's comments lead somewhere too: every repository path and decision record they name exists, and none cites a
 * section of a document or an issue number the repository does not hold.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { commentedFiles, commentsIn, deadReferences } from "./code-comments";
import { brokenLinks, headingAnchors, headingSlug, linkTargets, markdownFiles } from "./markdown";

const ROOT = path.resolve(__dirname, "..", "..", "..", "..");

/** Pages another change is writing, linked already: they may be missing until it lands. */
const PENDING = new Set<string>();

describe("docs: links", () => {
  describe("the readers the check uses", () => {
    it("gives headings GitHub's anchors", () => {
      assert.equal(headingSlug("Organization scale (issue 13)"), "organization-scale-issue-13");
      assert.equal(headingSlug("`npm run bench`"), "npm-run-bench");
      assert.equal(headingSlug("0007. Plumbing under `__` keys"), "0007-plumbing-under-__-keys");
      assert.equal(headingSlug("Tiers, one file; one target"), "tiers-one-file-one-target");
      assert.deepEqual([...headingAnchors("# A\n\n```\n# not a heading\n```\n## A\n### B c\n")], ["a", "a-1", "b-c"]);
    });

    it("reads inline links, images and reference definitions, but not links in code", () => {
      assert.deepEqual(
        linkTargets('[a](x.md) ![i](img.png "t") `[no](code.md)`\n\n```\n[no](fenced.md)\n```\n[ref]: docs/y.md#h\n'),
        ["x.md", "img.png", "docs/y.md#h"],
      );
    });

    it("reports a missing file, a missing heading and a link out of the repository, and accepts the rest", () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-links-"));
      try {
        fs.mkdirSync(path.join(root, "docs"));
        fs.writeFileSync(path.join(root, "docs", "b.md"), "# B\n\n## The part\n");
        fs.writeFileSync(
          path.join(root, "A.md"),
          "[ok](docs/b.md#the-part) [ok](docs/) [ok](#top) [ok](https://example.com/x#y) [pending](docs/p.md)\n" +
            "[gone](docs/c.md) [no heading](docs/b.md#other) [out](../elsewhere.md)\n\n# Top\n",
        );
        assert.deepEqual(brokenLinks(root, ["A.md", "docs/b.md"], new Set(["docs/p.md"])), [
          { file: "A.md", target: "docs/c.md", reason: "docs/c.md does not exist" },
          { file: "A.md", target: "docs/b.md#other", reason: "docs/b.md has no heading #other" },
          { file: "A.md", target: "../elsewhere.md", reason: "points outside the repository" },
        ]);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });
  });

  it("finds the project's pages (README.md, DEVELOPMENT.md, CHANGELOG.md, docs/) and no dependency's", () => {
    const files = markdownFiles(ROOT);
    for (const page of ["README.md", "DEVELOPMENT.md", "CHANGELOG.md", "docs/architecture.md", "docs/testing.md"]) {
      assert.ok(files.includes(page), `${page} is not among ${files.join(", ")}`);
    }
    assert.deepEqual(
      files.filter((f) => f.split("/").some((part) => part === "node_modules" || part === "dist")),
      [],
    );
  });

  it("resolves every relative link of every Markdown page to a file and heading", () => {
    assert.deepEqual(brokenLinks(ROOT, markdownFiles(ROOT), PENDING), []);
  });

  describe("code comments", () => {
    it("reads comments, not strings or regular expressions, with the line each starts on", () => {
      const source = [
        "#!/usr/bin/env node",
        'const url = "http://example.com/a // not a comment";',
        "const re = /issue 12 \\/\\/ no/; // one",
        "/**",
        " * two",
        " */",
        "const t = `/* not ${url} a comment */`; /* three */",
      ].join("\n");
      assert.deepEqual(commentsIn("a.ts", source), [
        { line: 3, text: "// one" },
        { line: 4, text: "/**\n * two\n */" },
        { line: 7, text: "/* three */" },
      ]);
      assert.deepEqual(commentsIn("a.sh", "#!/bin/bash\n# one\necho a # two\necho '#3'\n"), [
        { line: 2, text: "# one" },
        { line: 3, text: "# two" },
      ]);
    });

    it("reports each dead reference at file:line, and accepts the references that lead somewhere", () => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-comments-"));
      try {
        fs.mkdirSync(path.join(root, "docs", "decisions"), { recursive: true });
        fs.mkdirSync(path.join(root, "provider"));
        fs.writeFileSync(path.join(root, "docs", "decisions", "0001-a-choice.md"), "# 0001. A choice\n");
        fs.writeFileSync(path.join(root, "README.md"), "# R\n");
        fs.writeFileSync(
          path.join(root, "provider", "a.ts"),
          [
            "/** Fine: docs/decisions/0001-a-choice.md, decision 0001, README.md, provider/a.ts, provider/, */",
            "/** test/e2e/*.test.ts, test/fixtures/<version>, pulumi/pulumi#16175, RFC 5280, PKCS#11. */",
            'const s = "issue 7, reference §3"; // provider/gone.ts and decision 0120',
            "/* docs/decisions/0002-renamed.md (reference §8a; interface spec §4) */",
            "// issue 16 point 2, see #27; issues 3 and 4",
          ].join("\n"),
        );
        assert.deepEqual(commentedFiles(root), ["provider/a.ts"]);
        assert.deepEqual(deadReferences(root, ["provider/a.ts"]), [
          { at: "provider/a.ts:3", reference: "provider/gone.ts", reason: "provider/gone.ts does not exist" },
          { at: "provider/a.ts:3", reference: "decision 0120", reason: "docs/decisions/ holds no record 0120" },
          {
            at: "provider/a.ts:4",
            reference: "docs/decisions/0002-renamed.md",
            reason: "docs/decisions/0002-renamed.md does not exist",
          },
          {
            at: "provider/a.ts:4",
            reference: "reference §8a",
            reason: "cites a section of a document the repository does not hold",
          },
          {
            at: "provider/a.ts:4",
            reference: "§4",
            reason: "cites a section of a document the repository does not hold",
          },
          {
            at: "provider/a.ts:5",
            reference: "issue 16",
            reason: "cites an issue number the repository does not hold",
          },
          { at: "provider/a.ts:5", reference: "#27", reason: "cites an issue number the repository does not hold" },
          {
            at: "provider/a.ts:5",
            reference: "issues 3 and 4",
            reason: "cites an issue number the repository does not hold",
          },
        ]);
      } finally {
        fs.rmSync(root, { recursive: true, force: true });
      }
    });

    it("finds the comments of provider/, sdk/, scripts/, sandbox/, bench/ and test/, but not the generated SDKs'", () => {
      const files = commentedFiles(ROOT);
      for (const file of ["provider/plugin/server.ts", "sdk/index.ts", "scripts/run.sh", "sandbox/google/index.ts"])
        assert.ok(files.includes(file), `${file} is not among the files whose comments are read`);
      assert.deepEqual(
        files.filter((f) => /^sdk\/(?:go|python)\//.test(f)),
        [],
      );
    });

    it("leads somewhere from every comment of the code", function () {
      this.timeout(60_000); // parses every source file of the repository
      assert.deepEqual(
        deadReferences(ROOT, commentedFiles(ROOT)).map((d) => `${d.at}: ${d.reference}: ${d.reason}`),
        [],
      );
    });
  });
});
