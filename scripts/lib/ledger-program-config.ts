/**
 * examples/ledger's stack config as each program that runs its transaction takes it, and the asset keys such a run
 * writes: the upgrade recorder (scripts/record-upgrade-fixtures.ts) and the tests (test/helpers/ledger-component.ts)
 * both write them.
 */
import * as crypto from "node:crypto";
import type { ConfigValues } from "./pulumi-cli";

/**
 * The program that runs examples/ledger's transaction: the TypeScript component itself, its YAML twin through the
 * plugin (test/fixtures/pulumi/ledger-yaml), or examples/python through sdk/python and the plugin.
 */
export type LedgerProgram = "component" | "plugin" | "python";

/** A key no other test (nor another run on a long-lived network) uses. */
export function uniqueKey(label: string): string {
  return `${label}-${crypto.randomBytes(6).toString("hex")}`;
}

/**
 * The ledger config as `program` takes it. The twins read neither ledgerOnDestroy nor ledgerChannelCapability, and the
 * YAML twin has no "absent" for a key it reads: a stack without transient data gives it `{}` (a secret, as the key
 * always is).
 */
export function ledgerProgramConfig(program: LedgerProgram, config: ConfigValues): ConfigValues {
  if (program === "component") return config;
  if (config["ledgerOnDestroy"] !== undefined) {
    throw new Error(
      `the ${program} twin of examples/ledger has no ledgerOnDestroy: run that body through the component`,
    );
  }
  if (config["ledgerChannelCapability"] !== undefined) {
    throw new Error(
      `the ${program} twin of examples/ledger has no ledgerChannelCapability (the channel's are read): run that body through the component`,
    );
  }
  if (program === "python") return config;
  return { ledgerTransientData: { value: "{}", secret: true }, ...config };
}
