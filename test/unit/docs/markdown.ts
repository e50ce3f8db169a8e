/**
 * The small Markdown readers behind the docs check (docs-links.test.ts): the project's Markdown files, the relative
 * links of a page and the anchors GitHub gives its headings. Plain string work, so each reader is tested on made-up
 * text next to the checks that use it.
 */
import * as fs from "node:fs";
import * as path from "node:path";

/** Folders that hold no project docs: dependencies, build output, caches, version control, scratch space. */
const SKIPPED_DIRS = new Set(["node_modules", "dist", "tmp"]);

/** Every Markdown file of the project under `root`, as paths relative to it with `/` separators, sorted. */
export function markdownFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = dir === "" ? entry.name : `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!entry.name.startsWith(".") && !SKIPPED_DIRS.has(entry.name)) walk(rel);
      } else if (entry.isFile() && entry.name.endsWith(".md")) {
        found.push(rel);
      }
    }
  };
  walk("");
  return found.sort();
}

/** The text outside fenced code blocks and inline code spans, where links and headings live. */
function prose(text: string): string {
  return text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "").replace(/`[^`\n]*`/g, "");
}

/** The anchor GitHub gives a heading (github-slugger's rule: lower case, punctuation dropped, spaces to hyphens). */
export function headingSlug(heading: string): string {
  return heading
    .replace(/`/g, "")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\*/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** The anchors of a Markdown text's headings; a repeated heading gets `-1`, `-2`, ... as on GitHub. */
export function headingAnchors(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  const withoutFences = text.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "");
  for (const m of withoutFences.matchAll(/^#{1,6}[ \t]+(.+?)[ \t]*#*[ \t]*$/gm)) {
    const slug = headingSlug(m[1] ?? "");
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${String(count)}`);
  }
  return anchors;
}

/** The targets of a text's inline links and images and of its reference definitions, outside code. */
export function linkTargets(text: string): string[] {
  const body = prose(text);
  const inline = [...body.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] ?? "");
  const references = [...body.matchAll(/^[ \t]{0,3}\[[^\]]+\]:[ \t]*<?(\S+?)>?(?:[ \t]+.*)?$/gm)].map(
    (m) => m[1] ?? "",
  );
  return [...inline, ...references];
}

/** A link that does not resolve: the page it is on, the target as written, and why. */
export interface BrokenLink {
  readonly file: string;
  readonly target: string;
  readonly reason: string;
}

/**
 * The relative links of `files` (paths relative to `root`) that do not resolve to a file or folder, or whose
 * `#anchor` names no heading of the Markdown file it points into. Links with a scheme (https:, mailto:) are not
 * followed. `pending` lists targets that may be missing for now (a page another change is writing).
 */
export function brokenLinks(root: string, files: readonly string[], pending: ReadonlySet<string>): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string): Set<string> => {
    let found = anchorsOf.get(file);
    if (!found) {
      found = headingAnchors(fs.readFileSync(path.join(root, file), "utf8"));
      anchorsOf.set(file, found);
    }
    return found;
  };
  for (const file of files) {
    for (const target of linkTargets(fs.readFileSync(path.join(root, file), "utf8"))) {
      if (/^[a-z][a-z\d+.-]*:/i.test(target)) continue;
      const hash = target.indexOf("#");
      const pathPart = decodeURI(hash < 0 ? target : target.slice(0, hash));
      const anchor = hash < 0 ? undefined : decodeURIComponent(target.slice(hash + 1)).toLowerCase();
      const resolved =
        pathPart === "" ? file : path.posix.normalize(path.posix.join(path.posix.dirname(file), pathPart));
      if (resolved.startsWith("../")) {
        broken.push({ file, target, reason: "points outside the repository" });
        continue;
      }
      const absolute = path.join(root, resolved);
      if (!fs.existsSync(absolute)) {
        if (!pending.has(resolved)) broken.push({ file, target, reason: `${resolved} does not exist` });
        continue;
      }
      if (anchor === undefined || anchor === "" || !resolved.endsWith(".md") || fs.statSync(absolute).isDirectory())
        continue;
      if (!anchors(resolved).has(anchor))
        broken.push({ file, target, reason: `${resolved} has no heading #${anchor}` });
    }
  }
  return broken;
}
