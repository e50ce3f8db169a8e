/**
 * Fuzz targets `cli-decode` and `cli-verify`: the input as the <file> of `opsledger-ledger decode <file>` and
 * `opsledger-ledger verify <file> --at <capture time>` (cli.ts: base64 or binary detection, json-view, verify.ts).
 * Each input runs twice: with the type detected, then forced with `--type` (the codec's message type at the input's
 * length modulo their count), which reaches the renderings and checks that detection never picks.
 */
import { codecs, type CodecName } from "../../provider/ledger/codec";
import { runCli, type CliIo } from "../../provider/ledger/cli";
import { capturedAt } from "./gateway";
import { isTypedError, type FuzzTarget } from "./typed";

const NAMES = Object.keys(codecs) as CodecName[];

let at: string | undefined;

function io(input: Uint8Array): CliIo {
  return {
    stdout: () => undefined,
    stderr: () => undefined,
    readFile: () => Promise.resolve(input),
  };
}

/** Runs `args` with the type detected, then forced; rejects with the first untyped failure, else the first error. */
async function twice(args: readonly string[], input: Uint8Array): Promise<number> {
  const forced = NAMES[input.length % NAMES.length] as CodecName;
  const failures: unknown[] = [];
  let code = 0;
  for (const extra of [[], ["--type", forced]]) {
    try {
      code = Math.max(code, await runCli([...args, ...extra], io(input)));
    } catch (error) {
      if (!isTypedError(error)) throw error;
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
  return code;
}

export const cliDecodeTarget: FuzzTarget = {
  name: "cli-decode",
  description: "the <file> of `opsledger-ledger decode <file> [--type T]` (binary protobuf or base64 text)",
  modules: ["<generated>", "cli.ts", "json-view.ts", "wire-decode.ts", "codec.ts"],
  call(input) {
    return twice(["decode", "input.bin"], input);
  },
};

export const cliVerifyTarget: FuzzTarget = {
  name: "cli-verify",
  description: "the <file> of `opsledger-ledger verify <file> --at <capture time> [--type T]`",
  modules: [
    "<generated>",
    "cli.ts",
    "verify.ts",
    "unwrap.ts",
    "endorsements.ts",
    "signed-transaction.ts",
    "wire-decode.ts",
  ],
  call(input) {
    // Certificates are checked at the time the seeds were captured, when they were valid.
    at ??= capturedAt();
    return twice(["verify", "input.bin", "--at", at], input);
  },
};
