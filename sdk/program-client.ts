/**
 * The Google client used by data sources, which run in the program process (a dynamic provider cannot serve
 * invokes). Settings come from the `opsledger:*` stack configuration, then the environment, then defaults, resolved
 * at every call so that each stack (and each configuration change) gets its own credentials.
 */
import * as pulumi from "@pulumi/pulumi";
import { isApiError, resolveGoogleSettings } from "../provider/google";
import type { EndpointId, EndpointParams, EndpointResult } from "../provider/google";
import { cachedGoogleClient } from "../provider/resources/client-cache";

/** Calls one endpoint of the table with the program's credentials. */
export function callEndpoint<E extends EndpointId>(id: E, params: EndpointParams<E>): Promise<EndpointResult<E>> {
  const config = new pulumi.Config("opsledger");
  const settings = resolveGoogleSettings({ config: (key) => config.get(key), env: process.env });
  const client = cachedGoogleClient(settings, (message) => {
    void pulumi.log.warn(message);
  });
  return client.call(id, params).catch((e: unknown) => {
    // The CLI prints the one-paragraph message; the whole structure (already free of secrets) goes to the debug log.
    if (isApiError(e)) void pulumi.log.debug(`${id} failed: ${JSON.stringify(e)}`);
    throw e;
  });
}
