/**
 * `startSandbox()`: the whole local sandbox in one call — the Google sandbox (REST endpoints, token service, control
 * plane) and the Fabric sandbox (a gRPC Fabric Gateway) — both on 127.0.0.1. `close()` stops both.
 */
import { startGoogleSandbox } from "./google";
import type { GoogleSandbox, GoogleSandboxOptions } from "./google";
import { startFabricSandbox } from "./fabric";
import type { FabricSandbox, FabricSandboxOptions } from "./fabric";

export interface SandboxOptions {
  google?: GoogleSandboxOptions;
  /** Options of the Fabric gateway, or false to start only the Google sandbox. @default {} */
  fabric?: FabricSandboxOptions | false;
}

export interface Sandbox {
  readonly google: GoogleSandbox;
  /** Undefined when started with `fabric: false`. */
  readonly fabric: FabricSandbox | undefined;
  close(): Promise<void>;
}

export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const google = await startGoogleSandbox(options.google ?? {});
  let fabric: FabricSandbox | undefined;
  try {
    fabric = options.fabric === false ? undefined : await startFabricSandbox(options.fabric ?? {});
  } catch (e) {
    await google.close();
    throw e;
  }
  return {
    google,
    fabric,
    async close() {
      await Promise.all([google.close(), fabric?.close()]);
    },
  };
}
