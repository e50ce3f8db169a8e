/**
 * The stack helper reads what the file backend's checkpoint holds instead of starting the CLI
 * (scripts/lib/stack-checkpoint.ts): an up's outputs and a plain `stack export`. Shown on a real stack of a small
 * program with plain outputs and secret ones (a secret, and an object holding one), against what `pulumi stack output
 * --json --show-secrets` and `pulumi stack export` print for the same stack, counting the CLI's invocations.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { readCheckpointExport, readCheckpointOutputs } from "../../scripts/lib/stack-checkpoint";
import { REPO_ROOT, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";

const config = new pulumi.Config();
const outs = (inputs: Record<string, unknown>) => ({ ...inputs, size: String(inputs["text"]).length });
const provider: pulumi.dynamic.ResourceProvider = {
  create: (inputs: Record<string, unknown>) => Promise.resolve({ id: "note-1", outs: outs(inputs) }),
  update: (_id: string, _olds: unknown, news: Record<string, unknown>) => Promise.resolve({ outs: outs(news) }),
};
class Note extends pulumi.dynamic.Resource {
  declare readonly size: pulumi.Output<number>;
  constructor(name: string, args: { text: pulumi.Input<string>; token: pulumi.Input<string> }) {
    super(provider, name, { ...args, size: undefined }, {});
  }
}
const token = config.requireSecret("token");
const note = new Note("note", { text: config.require("text"), token });
export const plain = config.require("text");
export const size = note.size;
export const nested = { list: [1, "two", true, null], inner: { n: 3.5 } };
export const secret = token;
export const wrapped = { label: "x", token };
`;

const FIRST_TOKEN = "tok-first-5f3a9c";
const SECOND_TOKEN = "tok-second-81d2e7";
const OUTPUT = ["stack", "output", "--json", "--show-secrets"];

/** What `pulumi stack output --json --show-secrets` prints, through `run` (so it is not one of the helper's own). */
async function cliOutputs(stack: ProjectStack): Promise<Record<string, unknown>> {
  return JSON.parse((await stack.run(OUTPUT)).stdout) as Record<string, unknown>;
}

/** What `pulumi stack export` prints. */
async function cliExport(stack: ProjectStack, env: Record<string, string> = {}): Promise<unknown> {
  return JSON.parse((await stack.run(["stack", "export"], { env })).stdout) as unknown;
}

/** How many `stack output` commands the stack has run. */
function outputCommands(stack: ProjectStack): number {
  return stack.commands.filter((args) => args[0] === "stack" && args[1] === "output").length;
}

describe("stack outputs and plain exports read from the file backend's checkpoint (pulumi CLI)", function () {
  this.timeout(300_000);
  let dir: string;
  let stack: ProjectStack;

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-checkpoint-"));
    fs.writeFileSync(path.join(dir, "Pulumi.yaml"), "name: opsledger-checkpoint\nruntime: nodejs\n");
    fs.writeFileSync(path.join(dir, "index.ts"), PROGRAM);
    fs.copyFileSync(
      path.join(REPO_ROOT, "examples", "firewall-policy-move", "tsconfig.json"),
      path.join(dir, "tsconfig.json"),
    );
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules"), path.join(dir, "node_modules"));
    stack = await initProjectStack({
      projectDir: dir,
      config: { text: { value: "hello" }, token: { value: FIRST_TOKEN, secret: true } },
    });
  });
  after(async () => {
    await stack.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("exports a new stack's empty deployment as `pulumi stack export` prints it", async () => {
    assert.deepStrictEqual(readCheckpointExport(stack.stateFile), await cliExport(stack));
  });

  it("gives an up's plain outputs from the checkpoint, equal to `stack output`, without running the CLI", async () => {
    const up = await stack.up();
    const ran = stack.commands.length;
    const plain = { plain: up.outputs["plain"], size: up.outputs["size"], nested: up.outputs["nested"] };
    assert.equal(stack.commands.length, ran, "reading plain outputs runs no command");
    assert.deepEqual(stack.commands.at(-1), ["up", "--yes", "--skip-preview"]);
    assert.equal(outputCommands(stack), 0);
    const cli = await cliOutputs(stack);
    assert.deepStrictEqual(plain, { plain: cli["plain"], size: cli["size"], nested: cli["nested"] });
    assert.deepStrictEqual(plain, {
      plain: "hello",
      size: 5,
      nested: { list: [1, "two", true, null], inner: { n: 3.5 } },
    });
    assert.deepStrictEqual([...readCheckpointOutputs(stack.stateFile).secretNames].sort(), ["secret", "wrapped"]);
  });

  it("asks `stack output --show-secrets` once for an up's secret outputs, and refuses a later up's values", async () => {
    const first = await stack.up();
    await stack.run(["config", "set", "--secret", "token", SECOND_TOKEN]);
    const second = await stack.up();
    const before = outputCommands(stack);
    assert.equal(second.outputs["secret"], SECOND_TOKEN);
    assert.deepStrictEqual(second.outputs["wrapped"], { label: "x", token: SECOND_TOKEN });
    assert.deepStrictEqual({ ...second.outputs }, await cliOutputs(stack));
    assert.equal(second.outputs["size"], 5);
    assert.equal(outputCommands(stack), before + 2, "one by the helper for both secrets, one by the comparison");
    // The first up's secrets were never read: the checkpoint now holds the second's, so the CLI would print those.
    assert.throws(() => first.outputs["secret"], /has changed since this up: read its secret outputs before/);
    assert.equal(first.outputs["plain"], "hello");
    assert.equal(outputCommands(stack), before + 2, "the refused read ran no command");
  });

  it("gives a plain export and the outputs as the CLI prints them, secrets as ciphertext in the export", async () => {
    const before = outputCommands(stack);
    const exported = await cliExport(stack);
    assert.deepStrictEqual(readCheckpointExport(stack.stateFile), exported);
    assert.deepStrictEqual({ version: 3, deployment: await stack.exportState() }, exported);
    const text = JSON.stringify(await stack.exportState());
    assert.ok(text.includes('"ciphertext"'), "the export holds the secrets' ciphertext");
    assert.ok(!text.includes(SECOND_TOKEN) && !text.includes(FIRST_TOKEN), "and not their values");
    // outputs() holds secrets, so it asks the CLI: its values are the CLI's, decrypted.
    assert.deepStrictEqual(await stack.outputs(), await cliOutputs(stack));
    assert.equal(outputCommands(stack), before + 2);
  });

  it("reads a gzipped checkpoint (PULUMI_SELF_MANAGED_STATE_GZIP), and refuses two checkpoints of one stack", async () => {
    const gzip = { PULUMI_SELF_MANAGED_STATE_GZIP: "true" };
    const up = await stack.up({ env: gzip });
    assert.deepEqual([fs.existsSync(stack.stateFile), fs.existsSync(`${stack.stateFile}.gz`)], [false, true]);
    assert.equal(up.outputs["size"], 5);
    assert.deepStrictEqual(readCheckpointExport(stack.stateFile), await cliExport(stack, gzip));
    fs.writeFileSync(stack.stateFile, "{}");
    try {
      await assert.rejects(stack.exportState(), {
        message: `both ${stack.stateFile} and ${stack.stateFile}.gz exist: set PULUMI_SELF_MANAGED_STATE_GZIP the same way for every command of the stack, or read it with \`pulumi stack export\``,
      });
    } finally {
      fs.rmSync(stack.stateFile);
    }
  });
});
