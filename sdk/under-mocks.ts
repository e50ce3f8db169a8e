/**
 * Data sources under Pulumi's mocks (`pulumi.runtime.setMocks`, Pulumi's unit-testing guide). The SDK's data sources
 * are plain functions that call Google or a Fabric gateway from the program process, which the mock monitor never
 * sees. So when the program runs under the mock monitor, each of them is routed through `pulumi.runtime.invoke` with
 * the token the plugin serves it under and the schema's argument names, which reach the mocks' `call`: nothing is
 * sent and no credential is looked up. A call the mocks do not answer fails at once, naming the token.
 */
import * as pulumi from "@pulumi/pulumi";
import { MockMonitor } from "@pulumi/pulumi/runtime/mocks";
import { SCHEMA } from "../provider/schema/schema";
import type { FunctionDescriptor } from "../provider/registry";

/** Whether the program runs under `pulumi.runtime.setMocks`: the runtime's monitor is Pulumi's mock monitor. */
export function underMocks(): boolean {
  const monitor: unknown = pulumi.runtime.getMonitor();
  // By name as well: a program whose @pulumi/pulumi is another copy than this package's has another MockMonitor class.
  return (
    monitor instanceof MockMonitor ||
    (typeof monitor === "object" && monitor !== null && monitor.constructor.name === "MockMonitor")
  );
}

/** The arguments under the schema's names, without the absent ones; an argument the schema does not know is refused. */
function schemaArguments(token: string, args: object): Record<string, unknown> {
  const known = new Set(Object.keys(SCHEMA.functions[token]?.inputs?.properties ?? {}));
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(args)) {
    if (value === undefined) continue;
    if (!known.has(name))
      throw new Error(`${token}: argument '${name}' is not one of the schema's (${[...known].join(", ")})`);
    out[name] = value;
  }
  return out;
}

/** The data source's answer from the mocks' `call`, under its token; fails naming the token when there is none. */
export async function invokeMocks<T>(token: string, args: object): Promise<T> {
  let result: unknown;
  try {
    result = await pulumi.runtime.invoke(token, schemaArguments(token, args));
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    throw new Error(`${token}: the mocks' call failed${message === "" ? "" : `: ${message}`}`, { cause: e });
  }
  if (result === undefined || result === null || (typeof result === "object" && Object.keys(result).length === 0)) {
    throw new Error(
      `${token} was not answered by the mocks: under pulumi.runtime.setMocks every data source of pulumi-opsledger ` +
        `reaches the mocks' call; return its result when args.token is "${token}"`,
    );
  }
  return result as T;
}

/**
 * A data source's body: the mocks' answer when the program runs under `setMocks`, else `read()` (the real call).
 * `fn` is the data source's descriptor in the registry, which holds the token the mocks are asked under.
 */
export function readOrInvokeMocks<T>(fn: FunctionDescriptor, args: object, read: () => Promise<T>): Promise<T> {
  return underMocks() ? invokeMocks<T>(fn.token, args) : read();
}
