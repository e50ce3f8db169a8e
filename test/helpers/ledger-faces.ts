/**
 * The two faces a ledger component body runs through: "component", examples/ledger (TypeScript: the SDK's
 * ledger.LedgerTransaction component over its dynamic resource), and "plugin", its YAML twin
 * test/fixtures/pulumi/ledger-yaml (runtime: yaml, `opsledger:ledger:LedgerTransaction` served by
 * bin/pulumi-resource-opsledger). Both take the same stack config keys and export the same stack outputs, so a body
 * asserts the same things of either; what differs is here: the project, the resources a preview creates, which state
 * entry holds the transaction and which process is the provider.
 */
import * as path from "node:path";
import { REPO_ROOT, dynamicResources } from "./project-stack";
import type { ConfigValues, StateResource } from "./project-stack";
import type { Proc } from "./kill-stack";

export type LedgerFace = "component" | "plugin";

/** The plugin's type token for the transaction. */
export const LEDGER_TRANSACTION_TYPE = "opsledger:ledger:LedgerTransaction";

/** The project a face runs. */
export function ledgerProjectOf(face: LedgerFace): string {
  return face === "component"
    ? path.join(REPO_ROOT, "examples", "ledger")
    : path.join(REPO_ROOT, "test", "fixtures", "pulumi", "ledger-yaml");
}

/**
 * The config as the face's project takes it. The YAML twin has no "absent" for a key it reads: a stack without
 * transient data gives it `{}` (a secret, as the key always is).
 */
export function faceConfig(face: LedgerFace, config: ConfigValues): ConfigValues {
  if (face === "component") return config;
  if (config["ledgerOnDestroy"] !== undefined) {
    throw new Error("the YAML twin of examples/ledger has no ledgerOnDestroy: run that body through the component");
  }
  if (config["ledgerChannelCapability"] !== undefined) {
    throw new Error(
      "the YAML twin of examples/ledger has no ledgerChannelCapability (the channel's are read): run that body through the component",
    );
  }
  return { ledgerTransientData: { value: "{}", secret: true }, ...config };
}

/** The resources a first preview creates: the stack and the component and its submission, or the stack and the one. */
export function createdByFirstPreview(face: LedgerFace): number {
  return face === "component" ? 3 : 2;
}

/** The state entries holding the transaction: the component's dynamic submission, or the plugin's resource. */
export function transactionResources(face: LedgerFace, deployment: { resources?: StateResource[] }): StateResource[] {
  return face === "component"
    ? dynamicResources(deployment)
    : (deployment.resources ?? []).filter((r) => r.type === LEDGER_TRANSACTION_TYPE);
}

/** Whether `p`, under a `pulumi` command, is the process serving the transaction (the dynamic provider, the plugin). */
export function isLedgerProvider(face: LedgerFace, p: Proc): boolean {
  return face === "component"
    ? /pulumi-resource-pulumi-nodejs|[\\/]cmd[\\/]dynamic-provider[\\/]index\.js/.test(p.args)
    : /pulumi-resource-opsledger|[\\/]dist[\\/]provider[\\/]plugin[\\/]main\.js/.test(p.args);
}
