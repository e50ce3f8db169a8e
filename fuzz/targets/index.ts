/** Every fuzz target, by name. */
import { cliDecodeTarget, cliVerifyTarget } from "./cli";
import { gatewayTarget } from "./gateway";
import type { FuzzTarget } from "./typed";
import { unwrapTarget } from "./unwrap";
import { wireDecodeTarget } from "./wire-decode";

export const FUZZ_TARGETS: readonly FuzzTarget[] = [
  wireDecodeTarget,
  unwrapTarget,
  gatewayTarget,
  cliDecodeTarget,
  cliVerifyTarget,
];

export { isTypedError, runInput, UntypedFailure, type FuzzTarget } from "./typed";
