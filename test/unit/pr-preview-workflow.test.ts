import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { validateWorkflow } from "@action-validator/core";

const WORKFLOW = path.resolve(__dirname, "..", "..", "..", "examples", "pr-preview", "preview.yml");

describe("examples/pr-preview workflow", () => {
  it("passes the GitHub workflow schema check", () => {
    const state = validateWorkflow(fs.readFileSync(WORKFLOW, "utf8"));
    assert.deepEqual(state.errors, []);
  });

  it("is caught by the check when a step is malformed (the check can fail)", () => {
    const broken = fs.readFileSync(WORKFLOW, "utf8").replace("runs-on: ubuntu-latest", "runs-on: [ubuntu-latest\n");
    assert.notEqual(validateWorkflow(broken).errors.length, 0);
  });

  it("previews with pulumi/actions, read-only federation and no stored key", () => {
    const text = fs.readFileSync(WORKFLOW, "utf8");
    assert.match(text, /uses: pulumi\/actions@v6[\s\S]*command: preview/);
    assert.match(text, /id-token: write/);
    assert.match(text, /workload_identity_provider:/);
    assert.doesNotMatch(text, /credentials_json/);
  });
});
