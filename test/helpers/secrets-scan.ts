/** What the secrets scans of the e2e tests read besides the CLI's output: the files a stack leaves on disk. */
import * as fs from "node:fs";
import * as path from "node:path";
import * as zlib from "node:zlib";
import type { ProjectStack } from "./project-stack";

/** Every file under a directory as it is on disk, gzip files (the CLI's unencrypted logs) unpacked. */
export function filesText(dir: string): string {
  if (!fs.existsSync(dir)) return "";
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => {
      const bytes = fs.readFileSync(path.join(e.parentPath, e.name));
      try {
        return zlib.gunzipSync(bytes).toString("utf8");
      } catch {
        return bytes.toString("utf8");
      }
    })
    .join("\n");
}

/** The stack's files at rest: the CLI's automatic logs and the file backend (stacks, history, backups). */
export function stackFilesAtRest(stack: ProjectStack): string {
  return [filesText(path.join(stack.home, "logs")), filesText(path.join(stack.backendDir, ".pulumi"))].join("\n");
}
