/** Fuzz target `unwrap`: the input as Envelope bytes through the committer's two stages (unwrap.ts). */
import { unwrap } from "../../provider/ledger/unwrap";
import type { FuzzTarget } from "./typed";

export const unwrapTarget: FuzzTarget = {
  name: "unwrap",
  description: "Envelope bytes (a block's data entry), through unwrap(): Envelope → ... → KVRWSets and the event",
  modules: ["<generated>", "unwrap.ts", "wire-decode.ts", "codec.ts"],
  call(input) {
    return Promise.resolve().then(() => unwrap(input));
  },
};
