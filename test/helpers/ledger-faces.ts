/**
 * The faces a ledger component body runs through: "component", examples/ledger (TypeScript: the SDK's
 * ledger.LedgerTransaction component over its dynamic resource), "plugin", its YAML twin
 * test/fixtures/pulumi/ledger-yaml (runtime: yaml, `opsledger:ledger:LedgerTransaction` served by
 * bin/pulumi-resource-opsledger), and "python", examples/python's ledger transaction through sdk/python and the same
 * plugin (test/fixtures/pulumi/ledger-python, run by the virtualenv of scripts/ensure-python.sh --sdk). Both take the same stack config keys and export the same stack outputs, so a body
 * asserts the same things of either; what differs is here: the project, the resources a preview creates, which state
 * entry holds the transaction and which process is the provider.
 */
import * as path from "node:path";
import { LEDGER_TRANSACTION_RESOURCE_TYPE } from "../../sdk/ledger/ledger-transaction";
import { LEDGER_TRANSACTION_SUBMISSION_TYPE } from "../../sdk/ledger/ledger-transaction-submission";
import { REPO_ROOT } from "./project-stack";
import type { ConfigValues, StateResource } from "./project-stack";
import type { Proc } from "./kill-stack";
import { pythonBinDir, pythonEnv } from "./python-toolchain";

export type LedgerFace = "component" | "plugin" | "python";

/** What differs between the faces of one ledger transaction, as data: the bodies read it instead of the face's name. */
interface LedgerFaceModel {
  /** The type of the state entry holding the transaction (its inputs, txId and outcome). */
  readonly transactionType: string;
  /** The resources one transaction registers: the component and its submission, or the plugin's one resource. */
  readonly resourcesPerTransaction: number;
  /** The process serving the transaction under a `pulumi` command: the dynamic provider, or the plugin. */
  readonly provider: RegExp;
}

const DYNAMIC_PROVIDER = /pulumi-resource-pulumi-nodejs|[\\/]cmd[\\/]dynamic-provider[\\/]index\.js/;
const PLUGIN = /pulumi-resource-opsledger|[\\/]dist[\\/]provider[\\/]plugin[\\/]main\.js/;
const PLUGIN_FACE: LedgerFaceModel = {
  transactionType: LEDGER_TRANSACTION_RESOURCE_TYPE,
  resourcesPerTransaction: 1,
  provider: PLUGIN,
};

/** Each face's model (docs/decisions/0049-one-kind-per-ledger-token.md: one token, one kind of resource). */
export const LEDGER_FACES: Readonly<Record<LedgerFace, LedgerFaceModel>> = {
  component: {
    transactionType: LEDGER_TRANSACTION_SUBMISSION_TYPE,
    resourcesPerTransaction: 2,
    provider: DYNAMIC_PROVIDER,
  },
  plugin: PLUGIN_FACE,
  python: PLUGIN_FACE,
};

/** The project a face runs. */
export function ledgerProjectOf(face: LedgerFace): string {
  const fixture = { component: "", plugin: "ledger-yaml", python: "ledger-python" }[face];
  return face === "component"
    ? path.join(REPO_ROOT, "examples", "ledger")
    : path.join(REPO_ROOT, "test", "fixtures", "pulumi", fixture);
}

/** What the face's stack needs in its environment: the Python face, the project's virtualenv first on PATH. */
export function faceEnv(face: LedgerFace): Readonly<Record<string, string>> {
  if (face !== "python") return {};
  const env = pythonEnv(pythonBinDir({ sdk: true }));
  return { PATH: env["PATH"] ?? "", PYTHONDONTWRITEBYTECODE: "1" };
}

/**
 * The config as the face's project takes it. The YAML twin has no "absent" for a key it reads: a stack without
 * transient data gives it `{}` (a secret, as the key always is).
 */
export function faceConfig(face: LedgerFace, config: ConfigValues): ConfigValues {
  if (face === "component") return config;
  if (config["ledgerOnDestroy"] !== undefined) {
    throw new Error(`the ${face} twin of examples/ledger has no ledgerOnDestroy: run that body through the component`);
  }
  if (config["ledgerChannelCapability"] !== undefined) {
    throw new Error(
      `the ${face} twin of examples/ledger has no ledgerChannelCapability (the channel's are read): run that body through the component`,
    );
  }
  if (face === "python") return config;
  return { ledgerTransientData: { value: "{}", secret: true }, ...config };
}

/** The resources a first preview creates: the stack and the component and its submission, or the stack and the one. */
export function createdByFirstPreview(face: LedgerFace): number {
  return 1 + LEDGER_FACES[face].resourcesPerTransaction;
}

/** The state entries holding the transaction: the component's dynamic submission, or the plugin's resource. */
export function transactionResources(face: LedgerFace, deployment: { resources?: StateResource[] }): StateResource[] {
  return (deployment.resources ?? []).filter((r) => r.type === LEDGER_FACES[face].transactionType);
}

/** Whether `p`, under a `pulumi` command, is the process serving the transaction (the dynamic provider, the plugin). */
export function isLedgerProvider(face: LedgerFace, p: Proc): boolean {
  return LEDGER_FACES[face].provider.test(p.args);
}
