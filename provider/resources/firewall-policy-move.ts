/**
 * compute.FirewallPolicyMove: keeps an organization firewall policy under a chosen parent by calling
 * firewallPolicies.move (asynchronous, idempotent by requestId) and waiting on the returned Operation.
 *
 * Exactly-once: `check` derives the requestId from the URN, the policy, the target parent and a generation counter
 * kept in the inputs, so a retried or crash-interrupted create/update sends the same requestId (the server returns the
 * original operation), while each later change of parent gets a new one (A→B→A→B moves three times).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { ComputeOperation } from "../operations/operation-types";
import { waitForComputeOperation } from "../operations";
import { isApiError } from "../errors";
import type { CallOptions, GoogleClient } from "../google";
import { log, providerClient, status } from "../runtime/context";
import { quotaWaitReporter } from "../runtime/quota-status";
import { checkTimeouts, deterministicUuid, messageOf, nameFromUrn, timeoutMs } from "./common";
import type { Timeouts } from "./common";
import { moveInputFailures, normalizeFirewallPolicy } from "./validate";

/** Stale failed operations skipped (each with a new derived requestId) before giving up. */
export const MAX_STALE_OPERATION_SKIPS = 20;

/** Deadlines of the move steps, as durations ("20m", "90s"). `customTimeouts` never reaches a dynamic provider. */
export type MoveTimeouts = Pick<Timeouts, "create" | "update" | "delete">;

/**
 * What a program declares: the SDK's FirewallPolicyMoveArgs maps it to Inputs (sdk/inputs.ts), and the schema reads
 * its doc comments (scripts/gen-schema.ts).
 */
export interface FirewallPolicyMoveShape {
  /** The organization firewall policy: its numeric id or `locations/global/firewallPolicies/<id>`. Changing it replaces the resource. */
  firewallPolicy: string;
  /** The parent to keep the policy under: `folders/<digits>` or `organizations/<digits>`. Changing it moves the policy in place. */
  parentId: string;
  /**
   * Idempotency key of the move (a UUID, not the zero UUID). Leave it out: the provider derives one from the URN, the
   * target parent and a generation counter, so retries reuse it and every new move gets a new one.
   */
  requestId?: string;
  /** On destroy, move the policy back to the parent it had before this resource first moved it. @default false */
  restoreOnDelete?: boolean;
  /** Deadlines for create, update and delete. @default {@link DEFAULT_OPERATION_TIMEOUT_MS} each */
  timeouts?: MoveTimeouts;
}

export interface FirewallPolicyMoveInputs extends FirewallPolicyMoveShape {
  /** The resource's URN (dynamic providers are not told it): set by the SDK. Keys starting `__` stay out of previews. */
  __urn: string;
  /** Set by check: how many distinct target parents this resource has been given. */
  __generation?: number;
  /** Set by check: the requestId of the current target parent (the user's, or derived). */
  __requestId?: string;
}

export interface OperationSummary {
  name?: string;
  status?: string;
  progress?: number;
  insertTime?: string;
  startTime?: string;
  endTime?: string;
  warnings?: { code?: string; message?: string }[];
}

export interface FirewallPolicyMoveOutputs extends FirewallPolicyMoveInputs {
  firewallPolicyId: string;
  parent: string;
  previousParent: string;
  operation?: OperationSummary;
}

/**
 * Inputs and state written before the plumbing moved to `__` keys (`resourceUrn`, `generation`, and `requestId` with
 * `requestIdSource`), read as today's shape so an existing stack keeps its requestId and generation.
 */
export function fromLegacyState<T extends Partial<FirewallPolicyMoveInputs>>(props: T): T {
  const legacy = props as T & {
    resourceUrn?: string;
    generation?: number;
    requestIdSource?: "user" | "derived";
  };
  if (legacy.__urn !== undefined || legacy.resourceUrn === undefined) return props;
  const { resourceUrn, generation, requestIdSource, ...rest } = legacy;
  const upgraded = { ...rest, __urn: resourceUrn } as Partial<FirewallPolicyMoveInputs>;
  if (generation !== undefined) upgraded.__generation = generation;
  if (legacy.requestId !== undefined) upgraded.__requestId = legacy.requestId;
  if (requestIdSource !== "user") delete upgraded.requestId;
  return upgraded as T;
}

async function check(
  rawOlds: Partial<FirewallPolicyMoveInputs>,
  news: FirewallPolicyMoveInputs,
): Promise<dynamic.CheckResult> {
  const olds = fromLegacyState(rawOlds);
  const failures = [...moveInputFailures(news), ...checkTimeouts(news.timeouts)];
  if (news.restoreOnDelete !== undefined && typeof news.restoreOnDelete !== "boolean") {
    failures.push({ property: "restoreOnDelete", reason: "must be true or false" });
  }
  const sameTarget =
    olds.__generation !== undefined &&
    olds.parentId === news.parentId &&
    olds.firewallPolicy !== undefined &&
    normalizeFirewallPolicy(olds.firewallPolicy) === normalizeFirewallPolicy(news.firewallPolicy);
  if (!sameTarget && news.requestId !== undefined && news.requestId === olds.requestId) {
    failures.push({
      property: "requestId",
      reason: `'${news.requestId}' was already used for the move to ${String(olds.parentId)}; Google ignores a repeated requestId, so give this move a new one or remove requestId to let the provider derive it`,
    });
  }
  if (failures.length > 0) return Promise.resolve({ failures });

  let generation: number;
  let requestId: string;
  if (
    sameTarget &&
    olds.__generation !== undefined &&
    olds.__requestId !== undefined &&
    (news.requestId ?? olds.requestId) === olds.requestId
  ) {
    generation = olds.__generation;
    requestId = olds.__requestId;
  } else {
    generation = sameTarget && olds.__generation !== undefined ? olds.__generation : (olds.__generation ?? 0) + 1;
    requestId =
      news.requestId ??
      deterministicUuid(
        "FirewallPolicyMove",
        news.__urn,
        normalizeFirewallPolicy(news.firewallPolicy),
        news.parentId,
        String(generation),
      );
  }
  return Promise.resolve({ inputs: { ...news, __generation: generation, __requestId: requestId } });
}

async function diff(
  _id: string,
  rawOlds: FirewallPolicyMoveOutputs,
  news: FirewallPolicyMoveInputs,
): Promise<dynamic.DiffResult> {
  const olds = fromLegacyState(rawOlds);
  const replaces: string[] = [];
  if (normalizeFirewallPolicy(olds.firewallPolicy) !== normalizeFirewallPolicy(news.firewallPolicy))
    replaces.push("firewallPolicy");
  const changes =
    replaces.length > 0 ||
    olds.parentId !== news.parentId ||
    olds.parent !== news.parentId ||
    (olds.restoreOnDelete ?? false) !== (news.restoreOnDelete ?? false) ||
    JSON.stringify(olds.timeouts ?? {}) !== JSON.stringify(news.timeouts ?? {});
  return Promise.resolve({ changes, replaces, deleteBeforeReplace: false });
}

function summarize(op: ComputeOperation | undefined): OperationSummary | undefined {
  if (!op) return undefined;
  const summary: OperationSummary = {};
  if (op.name !== undefined) summary.name = op.name;
  if (op.status !== undefined) summary.status = op.status;
  if (op.progress !== undefined) summary.progress = op.progress;
  if (op.insertTime !== undefined) summary.insertTime = op.insertTime;
  if (op.startTime !== undefined) summary.startTime = op.startTime;
  if (op.endTime !== undefined) summary.endTime = op.endTime;
  if (op.warnings?.length)
    summary.warnings = op.warnings.map((w) => ({
      ...(w.code ? { code: w.code } : {}),
      ...(w.message ? { message: w.message } : {}),
    }));
  return summary;
}

/**
 * Whether the server answered the move POST with a failed operation of an earlier run (replayed for the requestId):
 * one inserted before this run began, with a second's room for the server's clock. An operation this run's POST
 * created was inserted after the run began, however fast it failed. (Its end time would not tell: a re-run less than a
 * second after the failure, as a YAML program's `pulumi up` can be, took the stale failure for its own.)
 */
function failedInEarlierRun(op: ComputeOperation, startedMs: number): boolean {
  if (op.status !== "DONE" || !(op.error?.errors?.length || (op.httpErrorStatusCode ?? 0) >= 400)) return false;
  const inserted = Date.parse(op.insertTime ?? op.startTime ?? op.endTime ?? "");
  return Number.isFinite(inserted) && inserted < startedMs - 1000;
}

/**
 * Moves the policy and waits. A requestId whose operation already failed in an earlier run is replayed by the server
 * as that failed operation; such a stale failure is skipped with the next derived requestId, so a retry after a cleared
 * fault really moves, and a re-run after a crash still finds the operation it started. The operation's status and
 * progress are shown on the resource's own row while it runs.
 */
export async function moveAndWait(
  client: GoogleClient,
  args: { urn: string; policyId: string; parentId: string; requestId: string; deadlineMs: number },
): Promise<ComputeOperation> {
  const started = Date.now();
  const urnName = nameFromUrn(args.urn);
  const signal = AbortSignal.timeout(args.deadlineMs);
  const onQuotaWait = quotaWaitReporter(args.urn);
  for (let attempt = 0; attempt <= MAX_STALE_OPERATION_SKIPS; attempt++) {
    const requestId =
      attempt === 0 ? args.requestId : deterministicUuid(args.requestId, "after-failed-operation", String(attempt));
    const op = await client.call(
      "compute.firewallPolicies.move",
      { firewallPolicy: args.policyId, parentId: args.parentId, requestId },
      { signal, onQuotaWait },
    );
    if (failedInEarlierRun(op, started)) {
      log(
        "info",
        `FirewallPolicyMove ${urnName}: operation ${op.name ?? "?"} (requestId ${requestId}) failed in an earlier run; retrying the move with a new requestId`,
        args.urn,
      );
      continue;
    }
    log(
      "info",
      `FirewallPolicyMove ${urnName}: moving firewall policy ${args.policyId} to ${args.parentId} (operation ${op.name ?? "?"}, requestId ${requestId})`,
      args.urn,
    );
    const operationName = op.name ?? "";
    return waitForComputeOperation(
      async (pollSignal) => ({
        operation: await client.call(
          "compute.globalOrganizationOperations.get",
          { operation: operationName, parentId: args.parentId },
          { signal: pollSignal, onQuotaWait },
        ),
      }),
      {
        initial: op,
        target: `move of firewall policy ${args.policyId} to ${args.parentId}`,
        timeoutMs: Math.max(1, args.deadlineMs - (Date.now() - started)),
        signal,
        onProgress: (p) => {
          status(
            args.urn,
            `moving to ${args.parentId}: ${operationName} ${p.status}${p.progress === undefined ? "" : ` ${p.progress}%`}`,
          );
        },
        onWarning: (m) => {
          log("warning", `FirewallPolicyMove ${urnName}: ${m}`, args.urn);
        },
      },
    );
  }
  throw new Error(
    `FirewallPolicyMove ${urnName}: ${MAX_STALE_OPERATION_SKIPS} earlier move operations of firewall policy ${args.policyId} all failed; see the previous errors`,
  );
}

async function observeParent(
  client: GoogleClient,
  policyId: string,
  options: CallOptions = {},
): Promise<string | undefined> {
  try {
    return (await client.call("compute.firewallPolicies.get", { firewallPolicy: policyId }, options)).parent;
  } catch (e) {
    if (isApiError(e) && e.httpStatus === 404) return undefined;
    throw e;
  }
}

async function apply(
  inputs: FirewallPolicyMoveInputs,
  previousParent: string | undefined,
  step: "create" | "update",
): Promise<FirewallPolicyMoveOutputs> {
  const client = providerClient();
  const policyId = normalizeFirewallPolicy(inputs.firewallPolicy);
  const urnName = nameFromUrn(inputs.__urn);
  const reads = { onQuotaWait: quotaWaitReporter(inputs.__urn) };
  const before = await observeParent(client, policyId, reads);
  if (before === undefined)
    throw new Error(
      `FirewallPolicyMove ${urnName}: firewall policy ${policyId} was not found (compute.firewallPolicies.get returned 404); check firewallPolicy`,
    );
  const outs: FirewallPolicyMoveOutputs = {
    ...inputs,
    firewallPolicyId: policyId,
    parent: before,
    previousParent: previousParent ?? before,
  };
  if (before === inputs.parentId) {
    log(
      "info",
      `FirewallPolicyMove ${urnName}: firewall policy ${policyId} is already under ${before}; adopted without a move`,
      inputs.__urn,
    );
    return outs;
  }
  const op = await moveAndWait(client, {
    urn: inputs.__urn,
    policyId,
    parentId: inputs.parentId,
    requestId: inputs.__requestId ?? "",
    deadlineMs: timeoutMs(inputs.timeouts, step),
  });
  const summary = summarize(op);
  if (summary) outs.operation = summary;
  outs.parent = (await observeParent(client, policyId, reads)) ?? inputs.parentId;
  return outs;
}

/**
 * Import (`pulumi import`, the `import` option; resource plugin only): adopts the policy `id` (its number, or
 * `locations/global/firewallPolicies/<number>`) under the parent it has now, with no move. Inputs and outputs are what
 * a create under that parent writes (generation 1 and its derived requestId), so the next preview of a program naming
 * that parent shows no change. Not found is an empty id, which the engine reports as a missing resource.
 */
export async function adoptFirewallPolicyMove(
  id: string,
  urn: string,
): Promise<{ id: string; props?: FirewallPolicyMoveOutputs; inputs?: FirewallPolicyMoveInputs }> {
  const policyId = normalizeFirewallPolicy(id);
  const parent = await observeParent(providerClient(), policyId, { onQuotaWait: quotaWaitReporter(urn) });
  if (parent === undefined) return { id: "" };
  const inputs: FirewallPolicyMoveInputs = {
    __urn: urn,
    firewallPolicy: policyId,
    parentId: parent,
    __generation: 1,
    __requestId: deterministicUuid("FirewallPolicyMove", urn, policyId, parent, "1"),
  };
  log("info", `FirewallPolicyMove ${nameFromUrn(urn)}: firewall policy ${policyId} adopted under ${parent}`, urn);
  return {
    id: `locations/global/firewallPolicies/${policyId}`,
    props: { ...inputs, firewallPolicyId: policyId, parent, previousParent: parent },
    inputs,
  };
}

export const firewallPolicyMoveProvider = {
  check,
  diff,
  async create(inputs: FirewallPolicyMoveInputs): Promise<dynamic.CreateResult> {
    const outs = await apply(inputs, undefined, "create");
    return { id: `locations/global/firewallPolicies/${outs.firewallPolicyId}`, outs };
  },
  async update(
    _id: string,
    olds: FirewallPolicyMoveOutputs,
    news: FirewallPolicyMoveInputs,
  ): Promise<dynamic.UpdateResult> {
    return { outs: await apply(news, olds.previousParent, "update") };
  },
  async read(id: string, rawProps: FirewallPolicyMoveOutputs): Promise<dynamic.ReadResult> {
    const props = fromLegacyState(rawProps);
    const observed = await observeParent(providerClient(), props.firewallPolicyId);
    if (observed === undefined) return { id: "" };
    const { firewallPolicyId: _a, parent: _b, previousParent: _c, operation: _d, ...inputs } = props;
    return { id, props: { ...props, parent: observed }, inputs: { ...inputs, parentId: observed } };
  },
  async delete(_id: string, rawProps: FirewallPolicyMoveOutputs): Promise<void> {
    const props = fromLegacyState(rawProps);
    const urnName = nameFromUrn(props.__urn);
    if (!props.restoreOnDelete) {
      log(
        "info",
        `FirewallPolicyMove ${urnName}: firewall policy ${props.firewallPolicyId} stays under ${props.parent} (restoreOnDelete is false)`,
        props.__urn,
      );
      return;
    }
    const client = providerClient();
    const current = await observeParent(client, props.firewallPolicyId);
    if (current === undefined || current === props.previousParent) return;
    try {
      await moveAndWait(client, {
        urn: props.__urn,
        policyId: props.firewallPolicyId,
        parentId: props.previousParent,
        requestId: deterministicUuid(
          "FirewallPolicyMove:restore",
          props.__urn,
          props.firewallPolicyId,
          props.previousParent,
          String(props.__generation ?? 0),
        ),
        deadlineMs: timeoutMs(props.timeouts, "delete"),
      });
    } catch (e) {
      throw new Error(
        `FirewallPolicyMove ${urnName}: could not restore firewall policy ${props.firewallPolicyId} to ${props.previousParent}: ${messageOf(e)}`,
      );
    }
  },
};
