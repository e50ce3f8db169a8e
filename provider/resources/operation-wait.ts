/**
 * operations.OperationWait: waits for an existing operation started outside Pulumi to finish, and records its final
 * state. Accepts a compute operation (selfLink or name, polled through globalOrganizationOperations.get) or an IAM
 * long-running operation name (folders/*\/locations/*\/operations/*, endpoint 2). Fails with the operation's error.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { waitForComputeOperation, waitForLongRunningOperation } from "../operations";
import { isApiError } from "../errors";
import { log, providerClient, status } from "../runtime/context";
import { checkTimeouts, nameFromUrn, timeoutMs } from "./common";
import type { Timeouts } from "./common";
import { operationInputFailures, operationRef } from "./validate";

/** The deadline of the wait, as a duration ("20m", "90s"). `customTimeouts` never reaches a dynamic provider. */
export type OperationWaitTimeouts = Pick<Timeouts, "create">;

/**
 * What a program declares: the SDK's OperationWaitArgs maps it to Inputs (sdk/inputs.ts), and the schema reads its
 * doc comments (scripts/gen-schema.ts).
 */
export interface OperationWaitShape {
  /**
   * The operation to wait for: a compute operation's selfLink or name, or an IAM long-running operation name
   * (`folders/<id>/locations/<loc>/operations/<id>`). Changing it replaces the resource.
   */
  operation: string;
  /** Deadline of the wait. @default { create: "{@link DEFAULT_OPERATION_TIMEOUT_MS}" } */
  timeouts?: OperationWaitTimeouts;
}

export interface OperationWaitInputs extends OperationWaitShape {
  /** The resource's URN (dynamic providers are not told it): set by the SDK, kept out of previews. */
  __urn: string;
}

export interface OperationWaitOutputs extends OperationWaitInputs {
  kind: "compute" | "longrunning";
  operationName: string;
  done: boolean;
  status: string;
  progress?: number;
  endTime?: string;
  /** The LRO response's @type, or the compute operation's targetLink. */
  result?: string;
}

async function waitFor(inputs: OperationWaitInputs): Promise<OperationWaitOutputs> {
  const client = providerClient();
  const ref = operationRef(inputs.operation);
  const urnName = nameFromUrn(inputs.__urn);
  const common = {
    target: `operation ${ref.name}`,
    timeoutMs: timeoutMs(inputs.timeouts, "create"),
    onProgress: (p: { status?: string; progress?: number }) => {
      status(
        inputs.__urn,
        `waiting: ${ref.name} ${p.status ?? ""}${p.progress === undefined ? "" : ` ${p.progress}%`}`,
      );
    },
    onWarning: (m: string) => {
      log("warning", `OperationWait ${urnName}: ${m}`, inputs.__urn);
    },
  };
  if (ref.kind === "compute") {
    const op = await waitForComputeOperation(
      async (signal) => ({
        operation: await client.call("compute.globalOrganizationOperations.get", { operation: ref.name }, { signal }),
      }),
      common,
    );
    return {
      ...inputs,
      kind: "compute",
      operationName: ref.name,
      done: true,
      status: op.status ?? "DONE",
      ...(op.progress !== undefined ? { progress: op.progress } : {}),
      ...(op.endTime !== undefined ? { endTime: op.endTime } : {}),
      ...(op.targetLink !== undefined ? { result: op.targetLink } : {}),
    };
  }
  const op = await waitForLongRunningOperation(
    async (signal) => ({ operation: await client.call("iam.operations.get", { name: ref.name }, { signal }) }),
    common,
  );
  const endTime = op.metadata?.["endTime"];
  const type = op.response?.["@type"];
  return {
    ...inputs,
    kind: "longrunning",
    operationName: ref.name,
    done: true,
    status: "DONE",
    ...(typeof endTime === "string" ? { endTime } : {}),
    ...(typeof type === "string" ? { result: type } : {}),
  };
}

/**
 * Import (resource plugin only): adopts the operation `id` (a name or selfLink, as `operation` takes) once it is done,
 * recording what a create's wait records. An operation still running is refused (declare the OperationWait without
 * `import` to wait for it); a failed one is refused with its error, as a create would fail; not found is an empty id.
 */
export async function adoptOperationWait(
  id: string,
  urn: string,
): Promise<{ id: string; props?: OperationWaitOutputs; inputs?: OperationWaitInputs }> {
  const failures = operationInputFailures(id);
  if (failures.length > 0)
    throw new Error(`OperationWait ${nameFromUrn(urn)}: cannot import '${id}': ${failures[0]?.reason ?? ""}`);
  const ref = operationRef(id);
  let done: boolean;
  try {
    done =
      ref.kind === "compute"
        ? (await providerClient().call("compute.globalOrganizationOperations.get", { operation: ref.name })).status ===
          "DONE"
        : (await providerClient().call("iam.operations.get", { name: ref.name })).done === true;
  } catch (e) {
    if (isApiError(e) && e.httpStatus === 404) return { id: "" };
    throw e;
  }
  if (!done)
    throw new Error(
      `OperationWait ${nameFromUrn(urn)}: cannot import operation ${ref.name}: it is not done yet, and import adopts only a finished operation; declare the OperationWait without import to wait for it`,
    );
  const inputs: OperationWaitInputs = { __urn: urn, operation: id };
  const outs = await waitFor(inputs);
  return { id: outs.operationName, props: outs, inputs };
}

export const operationWaitProvider = {
  check(_olds: unknown, news: OperationWaitInputs): Promise<dynamic.CheckResult> {
    const failures = [...operationInputFailures(news.operation), ...checkTimeouts(news.timeouts)];
    return Promise.resolve(failures.length > 0 ? { failures } : { inputs: news });
  },
  diff(_id: string, olds: OperationWaitOutputs, news: OperationWaitInputs): Promise<dynamic.DiffResult> {
    const replaces = olds.operation !== news.operation ? ["operation"] : [];
    const changes = replaces.length > 0 || JSON.stringify(olds.timeouts ?? {}) !== JSON.stringify(news.timeouts ?? {});
    return Promise.resolve({ changes, replaces, deleteBeforeReplace: true });
  },
  async create(inputs: OperationWaitInputs): Promise<dynamic.CreateResult> {
    const outs = await waitFor(inputs);
    return { id: outs.operationName, outs };
  },
  update(_id: string, olds: OperationWaitOutputs, news: OperationWaitInputs): Promise<dynamic.UpdateResult> {
    return Promise.resolve({ outs: { ...olds, ...news } });
  },
  async read(id: string, props: OperationWaitOutputs): Promise<dynamic.ReadResult> {
    // A finished operation does not change; once Google's retention period passes it is gone (404), which says
    // nothing about the outcome we recorded, so the recorded state is kept.
    try {
      const ref = operationRef(props.operation);
      if (ref.kind === "compute")
        await providerClient().call("compute.globalOrganizationOperations.get", { operation: ref.name });
      else await providerClient().call("iam.operations.get", { name: ref.name });
    } catch (e) {
      if (!(isApiError(e) && e.httpStatus === 404)) throw e;
    }
    return { id, props };
  },
  delete(): Promise<void> {
    return Promise.resolve();
  },
};
