/**
 * The plugin's calls as plain values: what each ResourceProvider method does between the wire (server.ts) and the
 * per-resource modules of provider/resources. The adapter only translates: it gives the module the URN under its
 * input key, unwraps secret inputs and marks secret outputs, turns the request's `timeout` (a resource's
 * `customTimeouts`) into the module's `timeouts` input for that step, and answers a detailed diff naming the changed
 * input properties. Everything the resource does is the module's own code, the same the dynamic face runs.
 */
import { URN_INPUT, parseUrn } from "../runtime/urn";
import { FUNCTIONS, RESOURCES } from "./kinds";
import type { ResourceKind, Step } from "./kinds";
import { requiredFailures, secretNames } from "../schema/schema";
import { unwrapProperties, wrapProperties } from "./secrets";
import type { EndpointCaller } from "../functions/google-reads";
import { PartialFailureError } from "../errors";

type Props = Record<string, unknown>;
/** The resources served (the plugin's table; tests pass their own). */
type Kinds = Readonly<Record<string, ResourceKind>>;

/** One entry of a detailed diff: how an input property changes. */
export type PropertyDiffKind = "add" | "addReplace" | "delete" | "deleteReplace" | "update" | "updateReplace";

export interface CheckAnswer {
  inputs: Props;
  failures: { property: string; reason: string }[];
}

export interface DiffAnswer {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /**
   * Changed input properties (plumbing under `__` keys and the URN left out): what the CLI shows. Empty when the
   * module reports a change no input shows; the engine then compares the properties itself.
   */
  detailedDiff: Record<string, PropertyDiffKind>;
}

/** The resource served under `type`, or a clear error naming the tokens there are. */
export function kindOf(type: string, kinds: Kinds = RESOURCES): ResourceKind {
  const kind = kinds[type];
  if (kind === undefined) {
    throw new Error(
      `pulumi-resource-opsledger: unknown resource type ${type}; this plugin serves ${Object.keys(kinds).join(", ")}`,
    );
  }
  return kind;
}

/** The type token inside a URN (`urn:pulumi:stack::project::[parent$]type::name`). */
export function typeOfUrn(urn: string): string {
  return parseUrn(urn).type;
}

/** Plumbing: `__` keys (the URN's among them), which the CLI's diff never shows. */
function isPlumbing(key: string): boolean {
  return key.startsWith("__");
}

/** The module's inputs with the URN under its key, and the request's deadline (seconds) as `timeouts[step]`. */
function withPlumbing(kind: ResourceKind, urn: string, props: Props, step?: Step, timeoutSeconds = 0): Props {
  const out: Props = { ...props, [URN_INPUT]: urn };
  if (step !== undefined && timeoutSeconds > 0 && kind.timeoutSteps.includes(step)) {
    const timeouts = (props["timeouts"] ?? {}) as Record<string, unknown>;
    if (timeouts[step] === undefined) out["timeouts"] = { ...timeouts, [step]: `${String(timeoutSeconds)}s` };
  }
  return out;
}

/**
 * Outputs as the engine stores them: the user's own `timeouts` (not the one derived from customTimeouts), secrets
 * marked (inputs that arrived secret, the schema's secret outputs and the module's own secret outputs).
 */
function finish(type: string, kind: ResourceKind, outs: Props, original: Props, secret: Set<string>): Props {
  const result: Props = { ...outs };
  if (original["timeouts"] === undefined) delete result["timeouts"];
  else result["timeouts"] = original["timeouts"];
  return wrapProperties(result, [...secret, ...secretNames(type, "outputs"), ...(kind.secretOutputs ?? [])]);
}

/**
 * Runs a create or update; the outputs of a partial failure (PartialFailureError: some of its effect made, which the
 * server sends as ErrorResourceInitFailed) are finished with `finishing`, as a success's are (secrets marked).
 */
async function finishingPartial<T>(work: () => Promise<T>, finishing: (outs: Props) => Props): Promise<T> {
  try {
    return await work();
  } catch (e) {
    if (!(e instanceof PartialFailureError)) throw e;
    throw new PartialFailureError({
      message: e.message,
      id: e.id,
      properties: finishing({ ...e.properties }),
      reasons: e.reasons,
      cause: e,
    });
  }
}

export async function check(
  type: string,
  urn: string,
  olds: Props,
  news: Props,
  kinds: Kinds = RESOURCES,
): Promise<CheckAnswer> {
  const kind = kindOf(type, kinds);
  const o = unwrapProperties(olds);
  const n = unwrapProperties(news);
  const result = await kind.module.check(withPlumbing(kind, urn, o.plain), withPlumbing(kind, urn, n.plain));
  const inputs = (result.inputs ?? withPlumbing(kind, urn, n.plain)) as Props;
  return {
    inputs: wrapProperties(inputs, [...n.secret, ...secretNames(type, "inputs")]),
    failures: result.failures ?? [],
  };
}

export async function diff(
  type: string,
  urn: string,
  id: string,
  olds: Props,
  oldInputs: Props,
  news: Props,
  kinds: Kinds = RESOURCES,
): Promise<DiffAnswer> {
  const kind = kindOf(type, kinds);
  const result = await kind.module.diff(
    id,
    withPlumbing(kind, urn, unwrapProperties(olds).plain),
    withPlumbing(kind, urn, unwrapProperties(news).plain),
  );
  const replaces = result.replaces ?? [];
  const changes = result.changes === true || replaces.length > 0;
  // State written without inputs has only the outputs: then only the properties the program sets are compared.
  const hasInputs = Object.keys(oldInputs).length > 0;
  const before = unwrapProperties(hasInputs ? oldInputs : olds).plain;
  const after = unwrapProperties(news).plain;
  const detailedDiff: Record<string, PropertyDiffKind> = {};
  if (changes) {
    for (const key of new Set([...(hasInputs ? Object.keys(before) : []), ...Object.keys(after)])) {
      if (isPlumbing(key)) continue;
      const replace = replaces.includes(key);
      if (before[key] === undefined && after[key] !== undefined) detailedDiff[key] = replace ? "addReplace" : "add";
      else if (before[key] !== undefined && after[key] === undefined)
        detailedDiff[key] = replace ? "deleteReplace" : "delete";
      else if (JSON.stringify(before[key]) !== JSON.stringify(after[key]))
        detailedDiff[key] = replace ? "updateReplace" : "update";
    }
  }
  return { changes, replaces, deleteBeforeReplace: result.deleteBeforeReplace === true, detailedDiff };
}

export async function create(
  type: string,
  urn: string,
  news: Props,
  timeoutSeconds: number,
  kinds: Kinds = RESOURCES,
): Promise<{ id: string; outs: Props }> {
  const kind = kindOf(type, kinds);
  const n = unwrapProperties(news);
  const finishing = (outs: Props): Props => finish(type, kind, outs, n.plain, n.secret);
  const result = await finishingPartial(
    () => kind.module.create(withPlumbing(kind, urn, n.plain, "create", timeoutSeconds)),
    finishing,
  );
  return { id: result.id, outs: finishing((result.outs ?? {}) as Props) };
}

export async function update(
  type: string,
  urn: string,
  id: string,
  olds: Props,
  news: Props,
  timeoutSeconds: number,
  kinds: Kinds = RESOURCES,
): Promise<Props> {
  const kind = kindOf(type, kinds);
  const n = unwrapProperties(news);
  const module = kind.module;
  if (module.update === undefined) throw new Error(`pulumi-resource-opsledger: ${type} has no update`);
  const finishing = (outs: Props): Props => finish(type, kind, outs, n.plain, n.secret);
  const result = await finishingPartial(
    () =>
      (module.update?.(
        id,
        withPlumbing(kind, urn, unwrapProperties(olds).plain),
        withPlumbing(kind, urn, n.plain, "update", timeoutSeconds),
      ) ?? Promise.resolve({})) as Promise<{ outs?: unknown }>,
    finishing,
  );
  return finishing((result.outs ?? {}) as Props);
}

export async function read(
  type: string,
  urn: string,
  id: string,
  props: Props,
  inputs: Props,
  kinds: Kinds = RESOURCES,
): Promise<{ id: string; props: Props; inputs: Props }> {
  const kind = kindOf(type, kinds);
  if (Object.keys(props).length === 0 && Object.keys(inputs).length === 0) {
    // An import: no state yet. The resource adopts what `id` names, or refuses with why and what to do instead.
    const adopted = await kind.adopt(id, urn);
    if (adopted.id === "") return { id: "", props: {}, inputs: {} };
    return {
      id: adopted.id,
      props: finish(type, kind, (adopted.props ?? {}) as Props, {}, new Set()),
      inputs: wrapProperties((adopted.inputs ?? {}) as Props, secretNames(type, "inputs")),
    };
  }
  const p = unwrapProperties(props);
  const i = unwrapProperties(inputs);
  if (kind.module.read === undefined) return { id, props, inputs };
  const result = await kind.module.read(id, withPlumbing(kind, urn, p.plain));
  const secret = new Set([...p.secret, ...i.secret]);
  return {
    id: result.id ?? id,
    props: result.props === undefined ? props : finish(type, kind, result.props as Props, p.plain, secret),
    inputs:
      result.inputs === undefined
        ? inputs
        : wrapProperties(result.inputs as Props, [...secret, ...secretNames(type, "inputs")]),
  };
}

export async function remove(
  type: string,
  urn: string,
  id: string,
  props: Props,
  timeoutSeconds: number,
  kinds: Kinds = RESOURCES,
): Promise<void> {
  const kind = kindOf(type, kinds);
  if (kind.module.delete === undefined) return;
  await kind.module.delete(id, withPlumbing(kind, urn, unwrapProperties(props).plain, "delete", timeoutSeconds));
}

/** Runs a function; a missing required argument is refused, naming it, before any request. */
export async function invoke(
  token: string,
  args: Props,
  call: EndpointCaller,
): Promise<{ result?: Props; failures: { property: string; reason: string }[] }> {
  const fn = FUNCTIONS[token];
  if (fn === undefined) {
    throw new Error(
      `pulumi-resource-opsledger: unknown function ${token}; this plugin serves ${Object.keys(FUNCTIONS).join(", ")}`,
    );
  }
  const plain = unwrapProperties(args).plain;
  const failures = requiredFailures(token, plain);
  if (failures.length > 0) return { failures };
  return { result: (await fn(call, plain)) as Props, failures: [] };
}
