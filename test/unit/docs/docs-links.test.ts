/**
 * Every relative link of the project's Markdown resolves: to a file or folder of the repository and, with an
 * `#anchor` into a Markdown file, to one of its headings (GitHub's anchors). Links with a scheme are not followed.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
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
});
