import { strict as assert } from "node:assert";
import { ConfigError } from "../../provider/errors";

/** The ConfigError `run` throws; fails the test when it throws nothing, and rethrows any other error. */
export function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  assert.fail("expected a ConfigError");
}
