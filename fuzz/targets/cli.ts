/**
 * Fuzz targets `cli-decode` and `cli-verify`: the input as the <file> of `opsledger-ledger decode <file>` and
 * `opsledger-ledger verify <file> --at <time>` (cli.ts: base64 or binary detection, json-view, verify.ts).
 */
import { runCli, type CliIo } from "../../provider/ledger/cli";
import type { FuzzTarget } from "./typed";

/** The time verify checks certificates at: when the seeds were captured (gateway/context.json capturedAt). */
export const CLI_VERIFY_AT = "2026-11-25T17:13:15.857Z";

function io(input: Uint8Array): CliIo {
  return {
    stdout: () => undefined,
    stderr: () => undefined,
    readFile: () => Promise.resolve(input),
  };
}

export const cliDecodeTarget: FuzzTarget = {
  name: "cli-decode",
  description: "the <file> of `opsledger-ledger decode <file>` (binary protobuf or base64 text)",
  modules: ["<generated>", "cli.ts", "json-view.ts", "wire-decode.ts", "codec.ts"],
  call(input) {
    return runCli(["decode", "input.bin"], io(input));
  },
};

export const cliVerifyTarget: FuzzTarget = {
  name: "cli-verify",
  description: "the <file> of `opsledger-ledger verify <file> --at <time>`",
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
    return runCli(["verify", "input.bin", "--at", CLI_VERIFY_AT], io(input));
  },
};
