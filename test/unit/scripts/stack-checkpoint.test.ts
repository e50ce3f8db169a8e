/**
 * The checkpoint reader's refusals and its secret detection, on checkpoint files written here (the reader against the
 * CLI on a real stack is test/e2e/stack-checkpoint.test.ts).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as zlib from "node:zlib";
import {
  SECRET_SIG,
  SECRET_SIG_KEY,
  holdsSecret,
  outputsRecord,
  readCheckpointExport,
  readCheckpointOutputs,
} from "../../../scripts/lib/stack-checkpoint";
import { fromCheckpoint } from "../../../scripts/lib/pulumi-cli";

const SECRET = { [SECRET_SIG_KEY]: SECRET_SIG, ciphertext: "v1:abc:def" };

function checkpoint(outputs: Record<string, unknown>, version: number = 3): string {
  const root = { urn: "urn:pulumi:s::p::pulumi:pulumi:Stack::p-s", type: "pulumi:pulumi:Stack", outputs };
  return JSON.stringify({ version, checkpoint: { stack: "organization/p/s", latest: { resources: [root] } } });
}

describe("stack-checkpoint: the file backend's checkpoint read without the CLI", () => {
  let dir: string;
  let file: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-checkpoint-unit-"));
    file = path.join(dir, "s.json");
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("finds a secret at any depth, and nothing else", () => {
    assert.deepEqual(
      [SECRET, { a: [1, { b: SECRET }] }, [SECRET], { a: "x", [SECRET_SIG_KEY]: "other" }, "s", null, 3].map(
        holdsSecret,
      ),
      [true, true, true, false, false, false, false],
    );
  });

  it("reads the outputs and names the secret ones; a gzipped checkpoint alike", () => {
    const text = checkpoint({ plain: "p", nested: { t: SECRET }, secret: SECRET });
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(text));
    const read = readCheckpointOutputs(file);
    assert.deepEqual(read.values, { plain: "p", nested: { t: SECRET }, secret: SECRET });
    assert.deepEqual(read.secretNames, ["nested", "secret"]);
    const { latest } = (JSON.parse(text) as { checkpoint: { latest: unknown } }).checkpoint;
    assert.deepEqual(readCheckpointExport(file), { version: 3, deployment: latest });
  });

  it("refuses a missing checkpoint, two of one stack, another version and one with no deployment", () => {
    assert.throws(() => readCheckpointExport(file), { message: new RegExp(`^no checkpoint at ${file}\\(\\.gz\\)`) });
    fs.writeFileSync(file, checkpoint({}, 4));
    assert.throws(() => readCheckpointExport(file), {
      name: "CheckpointFormatError",
      message: `${file} is checkpoint version 4; this reader knows version 3 only`,
    });
    // Another version is the CLI's to read: the harness asks it instead (fromCheckpoint); other errors stay errors.
    assert.equal(
      fromCheckpoint(
        () => readCheckpointExport(file),
        () => "asked the CLI",
      ),
      "asked the CLI",
    );
    fs.writeFileSync(file, JSON.stringify({ version: 3, checkpoint: { stack: "organization/p/s" } }));
    assert.throws(() => readCheckpointExport(file), /holds no deployment \(checkpoint\.latest\)/);
    assert.throws(
      () =>
        fromCheckpoint(
          () => readCheckpointExport(file),
          () => "asked the CLI",
        ),
      /holds no deployment/,
    );
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(checkpoint({})));
    assert.throws(() => readCheckpointExport(file), /^Error: both .* and .*\.gz exist/);
  });

  it("reveals secret outputs once, on the first read of one, and refuses once the checkpoint changed", () => {
    fs.writeFileSync(file, checkpoint({ plain: "p", secret: SECRET, other: SECRET }));
    let reveals = 0;
    const reveal = (): Record<string, unknown> => {
      reveals++;
      return { plain: "p", secret: "s1", other: "o1" };
    };
    const outputs = outputsRecord(file, "s", reveal);
    assert.equal(outputs["plain"], "p");
    assert.equal(reveals, 0, "a plain output asks nothing");
    assert.deepEqual([outputs["secret"], outputs["other"], outputs["secret"]], ["s1", "o1", "s1"]);
    assert.equal(reveals, 1);

    const stale = outputsRecord(file, "s", reveal);
    fs.writeFileSync(file, checkpoint({ plain: "p", secret: { ...SECRET, ciphertext: "v1:new:ghi" }, other: SECRET }));
    assert.throws(() => stale["secret"], {
      message:
        "stack s has changed since this up: read its secret outputs before the next command, or with `await stack.outputs()`",
    });
    assert.equal(reveals, 1);
    assert.equal(stale["plain"], "p");
  });
});
