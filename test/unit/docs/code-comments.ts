/**
 * The comment readers behind the links check's code half (docs-links.test.ts): the project's source files, the
 * comments of each (TypeScript's own scanner finds them, so a `//` inside a string or a regular expression is not one),
 * and the references a comment makes that lead nowhere: a repository path that does not exist, a decision record that
 * does not exist, a section of a reference document or an issue number the repository does not hold.
 */
import * as fs from "node:fs";
import * as path from "node:path";
import ts from "typescript";

/** The folders whose code comments are checked; generated SDKs are left to their generator. */
export const COMMENT_ROOTS = ["provider", "sdk", "scripts", "sandbox", "bench", "test", "fuzz"] as const;
const SKIPPED = new Set(["node_modules", "dist", "tmp", "sdk/go", "sdk/python"]);
const SCRIPT = /\.(?:[cm]?ts|[cm]?js)$/;
const HASH_COMMENTED = /\.(?:sh|py|ya?ml)$/;
const SLASH_COMMENTED = /\.(?:go|proto)$/;

/** Every file under `COMMENT_ROOTS` whose comments are read, relative to `root` with `/` separators, sorted. */
export function commentedFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED.has(entry.name) && !SKIPPED.has(rel)) walk(rel);
      } else if (entry.isFile() && [SCRIPT, HASH_COMMENTED, SLASH_COMMENTED].some((re) => re.test(entry.name))) {
        found.push(rel);
      }
    }
  };
  for (const dir of COMMENT_ROOTS) if (fs.existsSync(path.join(root, dir))) walk(dir);
  return found.sort();
}

/** One comment: the 1-based line it starts on and its text, delimiters included. */
export interface Comment {
  readonly line: number;
  readonly text: string;
}

/** The comments of a source text, in order; `fileName` picks the comment syntax by its extension. */
export function commentsIn(fileName: string, text: string): Comment[] {
  if (SCRIPT.test(fileName)) return scriptComments(fileName, text);
  const marker = HASH_COMMENTED.test(fileName) ? "#" : "//";
  const comments: Comment[] = [];
  text.split("\n").forEach((line, index) => {
    // A comment starts a line or follows a blank (`a # b`), and a shebang line is not one.
    const after = line.indexOf(` ${marker}`);
    const at = line.startsWith(marker) ? 0 : after < 0 ? -1 : after + 1;
    if (at < 0 || (index === 0 && line.startsWith("#!"))) return;
    comments.push({ line: index + 1, text: line.slice(at) });
  });
  return comments;
}

/**
 * TypeScript's parser finds the nodes; the trivia before and after each holds the comments, read by its own scanner
 * (a comment on the line of the node before is a trailing one, the rest are leading ones).
 */
function scriptComments(fileName: string, text: string): Comment[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const starts = new Set<number>();
  const comments: Comment[] = [];
  const collect = (ranges: readonly ts.CommentRange[] | undefined): void => {
    for (const range of ranges ?? []) {
      if (starts.has(range.pos)) continue;
      starts.add(range.pos);
      const line = source.getLineAndCharacterOfPosition(range.pos).line + 1;
      comments.push({ line, text: text.slice(range.pos, range.end) });
    }
  };
  const visit = (node: ts.Node): void => {
    for (const at of [node.pos, node.end]) {
      collect(ts.getLeadingCommentRanges(text, at));
      collect(ts.getTrailingCommentRanges(text, at));
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return comments.sort((a, b) => a.line - b.line);
}

/** A reference in a comment that leads nowhere: where it is, what it says, and why it fails. */
export interface DeadReference {
  readonly at: string;
  readonly reference: string;
  readonly reason: string;
}

/** The folders and top-level files a repository path in a comment starts with. */
const PATH_START = String.raw`(?:provider|sdk|scripts|sandbox|bench|test|docs|examples|fuzz|bin|\.ci|\.github)/`;
const REPO_PATH = new RegExp(String.raw`(?<![\w./@-])${PATH_START}[\w./-]*[\w/]`, "g");
/** A module is often named without its extension (`provider/google/retry`, `bin/opsledger-ledger`). */
const MODULE_SUFFIXES = ["", ".ts", ".js"];
const TOP_FILE = /(?<![\w./-])(?:README|DEVELOPMENT|CHANGELOG)\.md\b/g;
/**
 * A section of a document the repository does not hold (the notes the project was written from); an RFC's section leads
 * somewhere.
 */
const SECTION = /\breference(?:\.md)?\s*§\s*\d[\d.]*[a-z]?|(?<!\bRFC \d+ )§\s*\d[\d.]*[a-z]?/gi;
/** An issue or pull request of this project by number; `owner/name#123` names an upstream one and leads somewhere. */
const ISSUE = /\b(?:issues?|PR|pull request)\s+#?\d+(?:(?:,\s*|\s+and\s+)#?\d+)*|(?<![\w/.-])#\d+\b/gi;
const DECISION = /\b[Dd]ecisions?\s+(\d{4})\b/g;

/**
 * The dead references in the comments of `files` (relative to `root`): repository paths that name nothing (globs,
 * `...`, placeholders and what a run creates, node_modules and dist, are not checked), decision numbers with no record
 * in docs/decisions/, `reference §N` citations, and this project's issue numbers. Each is reported at `file:line`.
 */
export function deadReferences(root: string, files: readonly string[]): DeadReference[] {
  const records = fs.readdirSync(path.join(root, "docs", "decisions")).map((f) => f.slice(0, 4));
  const dead: DeadReference[] = [];
  for (const file of files) {
    const text = fs.readFileSync(path.join(root, file), "utf8");
    // Most files name nothing a comment could get wrong: only those with a candidate anywhere are parsed.
    if (![REPO_PATH, TOP_FILE, SECTION, ISSUE, DECISION].some((re) => text.search(re) >= 0)) continue;
    for (const comment of commentsIn(file, text)) {
      const at = `${file}:${String(comment.line)}`;
      for (const m of comment.text.matchAll(REPO_PATH)) {
        const named = m[0].replace(/\.+$/, "");
        const rest = /^[^\s),;'"`]*/.exec(comment.text.slice(m.index + m[0].length))?.[0] ?? "";
        if (/[*<{$]/.test(rest) || named.includes("...") || /(?:^|\/)(?:node_modules|dist)(?:\/|$)/.test(named))
          continue;
        if (!MODULE_SUFFIXES.some((suffix) => fs.existsSync(path.join(root, named + suffix))))
          dead.push({ at, reference: named, reason: `${named} does not exist` });
      }
      for (const m of comment.text.matchAll(TOP_FILE))
        if (!fs.existsSync(path.join(root, m[0]))) dead.push({ at, reference: m[0], reason: `${m[0]} does not exist` });
      for (const m of comment.text.matchAll(DECISION))
        if (!records.includes(m[1] ?? ""))
          dead.push({ at, reference: m[0], reason: `docs/decisions/ holds no record ${m[1] ?? ""}` });
      for (const m of comment.text.matchAll(SECTION))
        dead.push({ at, reference: m[0], reason: "cites a section of a document the repository does not hold" });
      for (const m of comment.text.matchAll(ISSUE))
        dead.push({ at, reference: m[0], reason: "cites an issue number the repository does not hold" });
    }
  }
  return dead;
}
