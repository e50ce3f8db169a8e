/**
 * Entry point loaded inside the dynamic-provider process by the serialized stubs (sdk/provider-stubs.ts).
 * Keep the names stable: state written by earlier versions calls them.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { RESOURCE_LIST } from "../registry";
import { URN_INPUT, parseUrn } from "../runtime/urn";
import type { ResourceDescriptor } from "../registry";
import { PartialFailureError } from "../errors";
import { configureProvider, flushLogs } from "../runtime/context";
import { exitWhenOutputIsGone } from "../runtime/orphan-guard";
import { runWithSettings, settingsOf } from "../runtime/resource-settings";

export function configure(req: dynamic.ConfigureRequest): Promise<void> {
  configureProvider(req);
  return Promise.resolve();
}

/** The registry's resources by the type of their TypeScript dynamic resource, which their state names. */
const BY_DYNAMIC_TYPE: ReadonlyMap<string, ResourceDescriptor> = new Map(RESOURCE_LIST.map((d) => [d.dynamicType, d]));

/**
 * The resource of a call, from the type in the URN input every resource carries (`resourceUrn` in state written
 * before the plumbing was hidden from previews); what names it when the package has none.
 */
function resourceOf(args: readonly unknown[]): ResourceDescriptor | string {
  for (const arg of args) {
    const inputs = arg as Record<string, unknown> | null;
    const urn = inputs?.[URN_INPUT] ?? inputs?.["resourceUrn"];
    if (typeof urn === "string") {
      let type: string;
      try {
        type = parseUrn(urn).type;
      } catch {
        return urn;
      }
      return BY_DYNAMIC_TYPE.get(type) ?? type.replace(/^pulumi-nodejs:dynamic\//, "");
    }
  }
  return `(no ${URN_INPUT} input)`;
}

/** Which argument of each method holds the properties whose `__settings` apply (diff calls no API). */
const SETTINGS_ARG: Readonly<Record<string, number>> = { check: 1, create: 0, read: 1, update: 2, delete: 1 };

/**
 * The single entry the serialized stubs call: `dispatch(method, args)`. `configure` applies to every kind.
 * An unknown kind or method (state written by a newer version) is a clear error rather than a crash.
 */
export function dispatch(method: string, args: unknown[]): Promise<unknown> {
  exitWhenOutputIsGone(); // only this entry runs inside the dynamic-provider process
  if (method === "configure") return configure(args[0] as dynamic.ConfigureRequest);
  const resource = resourceOf(args);
  const provider =
    typeof resource === "string" ? undefined : (resource.load().provider as unknown as Record<string, unknown>);
  const fn = provider?.[method];
  if (typeof fn !== "function") {
    const kind = typeof resource === "string" ? resource : resource.dynamicType.replace(/^pulumi-nodejs:dynamic\//, "");
    return Promise.reject(
      new Error(
        `pulumi-opsledger: the installed version has no provider ${kind}.${method}; upgrade the package that wrote this state`,
      ),
    );
  }
  // A resource given an opsledger.Provider runs with its settings: the new inputs' on create and update, the
  // state's on read and delete (resource-settings.ts). Every message the call reported reaches the engine before
  // its answer does (flushLogs).
  const settings = settingsOf(args[SETTINGS_ARG[method] ?? -1]);
  return Promise.resolve()
    .then(() => runWithSettings(settings, () => (fn as (...a: unknown[]) => Promise<unknown>).apply(provider, args)))
    .then(
      async (value) => {
        await flushLogs();
        return value;
      },
      async (e: unknown) => {
        await flushLogs();
        throw plainError(e, args[method === "update" ? 2 : 0]);
      },
    );
}

type Method = "configure" | "check" | "diff" | "create" | "read" | "update" | "delete";

function via(method: Method): (...args: unknown[]) => Promise<never> {
  return (...args) => dispatch(method, args) as Promise<never>;
}

/**
 * The provider object the one-line `__provider` module returns (sdk/provider-stubs.ts): every method goes through
 * `dispatch`. The dynamic-provider host evaluates that module once per process and keeps this object.
 */
export const provider: dynamic.ResourceProvider = {
  configure: via("configure"),
  check: via("check"),
  diff: via("diff"),
  create: via("create"),
  read: via("read"),
  update: via("update"),
  delete: via("delete"),
};

/**
 * The dynamic-provider host hands errors of read and delete straight to grpc-js as a call status, where fields such as
 * `code`, `details` and `metadata` have grpc meanings (a `metadata` without .clone() crashes the host). So the host
 * only ever sees a plain Error carrying the message, which already names the resource, the cause and the fix.
 *
 * A create or update that made part of its effect throws a PartialFailureError: the host sends a thrown error's `id`,
 * `properties` and `reasons` as ErrorResourceInitFailed, and the engine keeps them in the state with the error. The
 * host passes them as they are, so the `__provider` it adds to every other answer's outputs (refresh and delete need
 * it) is added here from the call's inputs.
 */
function plainError(e: unknown, inputs: unknown): Error {
  const plain = new Error(e instanceof Error ? e.message : String(e));
  if (!(e instanceof PartialFailureError)) return plain;
  const provider = (inputs as Record<string, unknown> | null)?.["__provider"];
  return Object.assign(plain, {
    id: e.id,
    properties: { ...e.properties, ...(provider === undefined ? {} : { __provider: provider }) },
    reasons: [...e.reasons],
  });
}
