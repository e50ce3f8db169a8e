/**
 * A file backend's checkpoint of one stack (`<backend>/.pulumi/stacks/<project>/<stack>.json`, apitype.VersionedCheckpoint
 * holding a CheckpointV3), read without starting the `pulumi` CLI: the stack's outputs (those of its root
 * `pulumi:pulumi:Stack` resource) and its latest deployment, which is what `pulumi stack export` prints without
 * `--show-secrets`. A secret stays ciphertext here (`{ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
 * "ciphertext": "v1:..." }`), exactly as a plain export shows it; the stack's outputs that hold one are reported, so the
 * caller can ask the CLI (`stack output --show-secrets`) for those values instead.
 */
import * as fs from "node:fs";
import * as zlib from "node:zlib";

/** The key Pulumi marks a secret value with in state, and its value (resource.SigKey / resource.SecretSig). */
export const SECRET_SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";

/** The type of a stack's root resource, whose outputs are the stack's outputs. */
const ROOT_STACK_TYPE = "pulumi:pulumi:Stack";

/** What `pulumi stack export` prints (apitype.UntypedDeployment): the deployment's version and the deployment. */
export interface CheckpointExport {
  readonly version: number;
  readonly deployment: Record<string, unknown>;
}

/** The outputs of a stack's root resource as stored, and the names of those that hold a secret (still ciphertext). */
export interface CheckpointOutputs {
  readonly values: Record<string, unknown>;
  readonly secretNames: readonly string[];
}

/**
 * The checkpoint's JSON. With PULUMI_SELF_MANAGED_STATE_GZIP the backend writes `<stack>.json.gz` instead: that file is
 * read (gunzipped) when it is the only one of the two; both present is refused, since which is current is unknown.
 */
function readCheckpointFile(stateFile: string): { version?: unknown; checkpoint?: { latest?: unknown } } {
  const candidates = [stateFile, `${stateFile}.gz`].filter((f) => fs.existsSync(f));
  if (candidates.length !== 1) {
    throw new Error(
      candidates.length === 0
        ? `no checkpoint at ${stateFile}(.gz): the stack has not been updated, or this is not a file backend's stack`
        : `both ${stateFile} and ${stateFile}.gz exist: set PULUMI_SELF_MANAGED_STATE_GZIP the same way for every ` +
            "command of the stack, or read it with `pulumi stack export`",
    );
  }
  const file = candidates[0] ?? stateFile;
  let bytes = fs.readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) bytes = zlib.gunzipSync(bytes);
  return JSON.parse(bytes.toString("utf8")) as { version?: unknown; checkpoint?: { latest?: unknown } };
}

/**
 * A checkpoint this reader does not know (another format version, written by another CLI): the callers then ask the
 * CLI itself (`pulumi stack output`, `pulumi stack export`), which reads every version it writes.
 */
export class CheckpointFormatError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CheckpointFormatError";
  }
}

/** The checkpoint's latest deployment in the shape `pulumi stack export` (without `--show-secrets`) prints. */
export function readCheckpointExport(stateFile: string): CheckpointExport {
  const file = readCheckpointFile(stateFile);
  if (file.version !== 3) {
    throw new CheckpointFormatError(
      `${stateFile} is checkpoint version ${String(file.version)}; this reader knows version 3 only`,
    );
  }
  const latest = file.checkpoint?.latest;
  if (typeof latest !== "object" || latest === null) {
    throw new Error(`${stateFile} holds no deployment (checkpoint.latest): the stack has never been updated`);
  }
  return { version: 3, deployment: latest as Record<string, unknown> };
}

/** Whether a stored value is, or holds anywhere inside it, a secret. */
export function holdsSecret(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(holdsSecret);
  if (typeof value !== "object" || value === null) return false;
  const record = value as Record<string, unknown>;
  return record[SECRET_SIG_KEY] === SECRET_SIG || Object.values(record).some(holdsSecret);
}

/** The stack's outputs as the checkpoint holds them (`{}` when its root resource has none). */
export function readCheckpointOutputs(stateFile: string): CheckpointOutputs {
  const resources = readCheckpointExport(stateFile).deployment["resources"];
  const root = (Array.isArray(resources) ? (resources as { type?: unknown; outputs?: unknown }[]) : []).find(
    (r) => r.type === ROOT_STACK_TYPE,
  );
  const values = (root?.outputs ?? {}) as Record<string, unknown>;
  return { values, secretNames: Object.keys(values).filter((name) => holdsSecret(values[name])) };
}

/**
 * The stack's outputs now in the checkpoint, as a record: each plain one as its value, each secret one as a getter over
 * `reveal()` (the CLI's outputs, secrets decrypted), called once, on the first such read, and only while the checkpoint
 * still holds these outputs: after another command has changed them it throws rather than give that command's values.
 */
export function outputsRecord(
  stateFile: string,
  stackName: string,
  reveal: () => Record<string, unknown>,
): Record<string, unknown> {
  const stored = readCheckpointOutputs(stateFile);
  let shown: Record<string, unknown> | undefined;
  const secret = (key: string): unknown => {
    if (shown === undefined) {
      if (JSON.stringify(readCheckpointOutputs(stateFile).values) !== JSON.stringify(stored.values)) {
        throw new Error(
          `stack ${stackName} has changed since this up: read its secret outputs before the next command, or with ` +
            "`await stack.outputs()`",
        );
      }
      shown = reveal();
    }
    return shown[key];
  };
  const outputs: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(stored.values)) {
    if (stored.secretNames.includes(key))
      Object.defineProperty(outputs, key, { enumerable: true, get: () => secret(key) });
    else outputs[key] = value;
  }
  return outputs;
}
