/**
 * Every input the fuzzer (npm run fuzz, fuzz/index.ts) found, run again through its target: each must now end in
 * success or exactly the typed, readable error that test/fixtures/fuzz/<target>/expected.json records for it. The
 * seeds captured from a real Fabric network (test/fixtures/fuzz/seeds/<target>/) run too, so a target that broke
 * (for example a gateway harness that no longer gets past verify-before-sign) fails here rather than fuzzing nothing.
 * Timings are a benchmark (npm run fuzz reports them), never asserted here.
 */
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FUZZ_TARGETS, runInput } from "../../../fuzz/targets";
import { capturedAt, gatewayInput, gatewayTarget } from "../../../fuzz/targets/gateway";
import { runCli } from "../../../provider/ledger/cli";
import { unwrapTarget } from "../../../fuzz/targets/unwrap";
import { codecs } from "../../../provider/ledger/codec";
import { parseProposal } from "../../../provider/ledger/proposal";

const FIXTURES = resolve(__dirname, "../../../../test/fixtures/fuzz");

/** What an input ends in: "ok", or the error's class name and its message. */
type Expected = "ok" | { readonly error: string; readonly message: string };

function inputs(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir, { withFileTypes: true })
        .filter((d) => d.isFile() && d.name.endsWith(".bin"))
        .map((d) => d.name)
        .sort()
    : [];
}

async function outcome(call: () => Promise<unknown>): Promise<Expected> {
  try {
    await call();
    return "ok";
  } catch (error) {
    assert.ok(error instanceof Error, `a non-Error was thrown: ${String(error)}`);
    return { error: error.name, message: error.message };
  }
}

describe("fuzz regressions (test/fixtures/fuzz)", () => {
  for (const target of FUZZ_TARGETS) {
    const dir = join(FIXTURES, target.name);
    const expectedFile = join(dir, "expected.json");
    const expected: Record<string, Expected> = existsSync(expectedFile)
      ? (JSON.parse(readFileSync(expectedFile, "utf8")) as Record<string, Expected>)
      : {};
    const found = inputs(dir);

    describe(target.name, () => {
      it("records an expected outcome for every input found, and an input for every outcome", () => {
        assert.deepEqual(found, Object.keys(expected).sort());
      });

      for (const name of found)
        it(`${name} ends in ${JSON.stringify(expected[name])}`, async () => {
          const input = new Uint8Array(readFileSync(join(dir, name)));
          assert.deepEqual(await outcome(() => target.call(input)), expected[name]);
        });

      it("ends every seed captured from Fabric in success or a typed error", async () => {
        const seeds = inputs(join(FIXTURES, "seeds", target.name));
        assert.ok(seeds.length > 0, `no seeds for ${target.name}`);
        for (const name of seeds)
          await runInput(target, new Uint8Array(readFileSync(join(FIXTURES, "seeds", target.name, name))));
      });
    });
  }

  it("gets the captured EndorseResponse through verify-before-sign, and a changed one rejected", async () => {
    const seeds = join(FIXTURES, "seeds", "gateway");
    const context = JSON.parse(readFileSync(join(seeds, "context.json"), "utf8")) as { proposedTransaction: string };
    const proposed = codecs.ProposedTransaction.decode(Buffer.from(context.proposedTransaction, "base64"));
    const txId = parseProposal(proposed.proposal?.proposalBytes ?? new Uint8Array(0)).txId;
    const endorse = new Uint8Array(readFileSync(join(seeds, "endorse-create-asset.bin")));
    const transaction = (await gatewayTarget.call(endorse)) as { getTransactionId(): string };
    assert.equal(transaction.getTransactionId(), txId);
    // The same answer with one byte of the endorsed payload changed: an endorsement no longer verifies.
    const changed = endorse.slice();
    const at = changed.length - 200;
    changed[at] = (changed[at] as number) ^ 1;
    const rejected = await outcome(() => gatewayTarget.call(changed));
    assert.notEqual(rejected, "ok");
    assert.equal(typeof rejected === "object" ? rejected.error : "", "VerificationError");
  });

  it("verifies the captured transaction and unwraps every endorser transaction of the captured blocks", async () => {
    const envelope = new Uint8Array(readFileSync(join(FIXTURES, "seeds", "cli-verify", "envelope-create-asset.bin")));
    let stdout = "";
    const io = {
      stdout: (t: string) => (stdout += t),
      stderr: () => undefined,
      readFile: () => Promise.resolve(envelope),
    };
    assert.equal(await runCli(["verify", "envelope.bin", "--at", capturedAt()], io), 0);
    assert.equal((JSON.parse(stdout) as { ok: unknown }).ok, true);
    assert.equal(await outcome(() => unwrapTarget.call(envelope)), "ok");
    assert.deepEqual(await outcome(() => gatewayTarget.call(gatewayInput("evaluate", new Uint8Array(0)))), "ok");
  });
});
