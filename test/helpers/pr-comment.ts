/**
 * The pull-request comment pulumi/actions posts with `comment-on-pr: true`, built from a command's output the way its
 * handlePullRequestMessage does (pulumi/actions src/libs/pr.ts): ANSI control codes stripped (GitHub renders none),
 * output trimmed to 64,000 characters from the end, then a heading and a collapsed `<details>` block holding the output
 * in `<pre>`. Kept to the format only; nothing is posted anywhere.
 */
import { stripAnsi } from "./project-stack";

/** GitHub limits a comment to 65,535 characters; the action keeps a margin. */
export const MAX_COMMENT_OUTPUT_CHARS = 64_000;

export interface PullRequestCommentInput {
  readonly command: string;
  readonly projectName: string;
  readonly stackName: string;
  readonly output: string;
}

export function pullRequestComment(input: PullRequestCommentInput): string {
  const output = stripAnsi(input.output);
  const trimmed = output.length > MAX_COMMENT_OUTPUT_CHARS;
  const message = trimmed ? output.slice(0, MAX_COMMENT_OUTPUT_CHARS) : output;
  return [
    `#### :tropical_drink: \`${input.command}\` on ${input.projectName}/${input.stackName}`,
    "",
    "<details>",
    "<summary>Pulumi report</summary>",
    "",
    "<pre>",
    message,
    "</pre>",
    trimmed ? ":warning: **Warn**: The output was too long and trimmed." : "",
    "</details>",
  ].join("\n");
}
