/**
 * One Google client per distinct resolved configuration. Settings are resolved at every call (a pure, cheap function
 * of config and environment), so a process that runs several stacks or whose configuration changes gets the right
 * credentials; the cache key is a hash, so no secret is kept as a readable key. The credential values are hashed too:
 * they are non-enumerable on the settings (JSON never shows them), and two settings that differ only in the credential
 * must not share a client.
 */
import { createHash } from "node:crypto";
import { createGoogleClient } from "../google";
import type { GoogleClient, GoogleSettings } from "../google";

const clients = new Map<string, GoogleClient>();

export function cachedGoogleClient(settings: GoogleSettings, onWarning: (message: string) => void): GoogleClient {
  const key = createHash("sha256")
    .update(JSON.stringify([settings, settings.credentials ?? null, settings.accessToken ?? null]))
    .digest("hex");
  let client = clients.get(key);
  if (!client) {
    client = createGoogleClient({ settings, onWarning });
    clients.set(key, client);
  }
  return client;
}
