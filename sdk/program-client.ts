/**
 * The Google client used by data sources, which run in the program process (a dynamic provider cannot serve
 * invokes). Settings come from the invoke options' opsledger.Provider, or else the `opsledger:*` stack configuration,
 * then the environment, then defaults, resolved at every call so that each stack (and each configuration change)
 * gets its own credentials.
 */
import * as pulumi from "@pulumi/pulumi";
import { isApiError } from "../provider/errors";
import type { EndpointId, EndpointParams, EndpointResult } from "../provider/google";
import { cachedGoogleClient } from "../provider/runtime/client-cache";
import type { EndpointCaller } from "../provider/functions/google-reads";
import { resolveSettings, type ExplicitSettings } from "../provider/runtime/settings-reader";
import { explicitSettings, Provider, type InvokeOptions } from "./provider";

/** Calls one endpoint of the table with the program's credentials. */
export function callEndpoint<E extends EndpointId>(id: E, params: EndpointParams<E>): Promise<EndpointResult<E>> {
  return callWith(undefined, id, params);
}

/**
 * The endpoint caller of a data source given `options`: an opsledger.Provider's settings (then the environment), or
 * else the program's stack config as callEndpoint.
 */
export function endpointCaller(options: InvokeOptions | undefined): EndpointCaller {
  if (!Provider.isInstance(options?.provider)) return callEndpoint;
  const settings = explicitSettings(options);
  return async (id, params) => callWith(await settings, id, params);
}

function callWith<E extends EndpointId>(
  explicit: ExplicitSettings | undefined,
  id: E,
  params: EndpointParams<E>,
): Promise<EndpointResult<E>> {
  // The program's own stack config (what pulumi.Config reads); an explicit provider's settings replace it.
  const { google } = resolveSettings({
    stackConfig: (key) => pulumi.runtime.getConfig(key),
    explicit,
    env: process.env,
  });
  const client = cachedGoogleClient(google, (message) => {
    void pulumi.log.warn(message);
  });
  return client.call(id, params).catch((e: unknown) => {
    // The CLI prints the one-paragraph message; the whole structure (already free of secrets) goes to the debug log.
    if (isApiError(e)) void pulumi.log.debug(`${id} failed: ${JSON.stringify(e)}`);
    throw e;
  });
}
