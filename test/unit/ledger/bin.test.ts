import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { codecs } from "../../../provider/ledger/codec";

const BIN = path.resolve(__dirname, "..", "..", "..", "..", "bin", "opsledger-ledger.js");

function run(args: readonly string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { encoding: "utf8" });
}

describe("bin/opsledger-ledger (the installed command)", () => {
  it("decodes a ProcessedTransaction file into readable JSON", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-bin-"));
    try {
      const file = path.join(dir, "tx.bin");
      const envelope = codecs.Envelope.encode({ payload: new Uint8Array([1, 2, 3]), signature: new Uint8Array([4]) });
      fs.writeFileSync(
        file,
        codecs.ProcessedTransaction.encode({
          transactionEnvelope: codecs.Envelope.decode(envelope),
          validationCode: 11,
        }),
      );
      const result = run(["decode", file, "--type", "ProcessedTransaction"]);
      assert.equal(result.status, 0, result.stderr);
      assert.match(result.stdout, /MVCC_READ_CONFLICT/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("fails with a message naming the missing file", () => {
    const result = run(["decode", "/nonexistent/tx.bin"]);
    assert.notEqual(result.status, 0);
    assert.match(result.stderr, /\/nonexistent\/tx\.bin/);
  });
});
