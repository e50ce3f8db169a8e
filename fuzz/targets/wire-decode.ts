/** Fuzz target `wire-decode`: the input decoded as every message type of the codec (codec.ts, wire-decode.ts). */
import { codecs, type CodecName } from "../../provider/ledger/codec";
import { isTypedError, type FuzzTarget } from "./typed";

const NAMES = Object.keys(codecs) as CodecName[];

export const wireDecodeTarget: FuzzTarget = {
  name: "wire-decode",
  description: "any bytes, decoded as each of the codec's message types (codecs.<Message>.decode)",
  modules: ["<generated>", "wire-decode.ts", "codec.ts"],
  // Every type is tried, so one input can fail in several: the first untyped failure is what it ends in.
  async call(input) {
    const failures: unknown[] = [];
    for (const name of NAMES) {
      try {
        codecs[name].decode(input);
      } catch (error) {
        if (!isTypedError(error)) throw error;
        failures.push(error);
      }
    }
    return Promise.resolve(failures.length);
  },
};
