/**
 * pulumi-resource-opsledger started as a process with no engine (a build's folder, test/helpers/plugin-builds.ts) and a
 * client of its ResourceProvider gRPC service, for the tests that call the plugin as the engine would.
 */
import { spawn } from "node:child_process";
import * as path from "node:path";
import * as grpc from "@grpc/grpc-js";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import { waitFor } from "./wait-for";

export interface PluginProcess {
  readonly client: provrpc.ResourceProviderClient;
  /** What the plugin printed on stderr so far. */
  stderr(): string;
  /** Closes the client and stops the plugin (SIGTERM), resolving once it has exited. */
  stop(): Promise<void>;
}

/** Starts the plugin of the build in `dir` and waits, bounded, for the port it prints. */
export async function startPluginProcess(dir: string): Promise<PluginProcess> {
  // The engine runs the plugin with its own address as the argument; there is no engine here, so none is given.
  const plugin = spawn(path.join(dir, "pulumi-resource-opsledger"), [], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  plugin.stdout.setEncoding("utf8").on("data", (s: string) => (stdout += s));
  plugin.stderr.setEncoding("utf8").on("data", (s: string) => (stderr += s));
  await waitFor({
    what: "the plugin to print its port",
    read: () => ({ stdout, stderr }),
    until: (out) => /^\d+\n/.test(out.stdout),
    timeoutMs: 60_000,
  });
  const client = new provrpc.ResourceProviderClient(`127.0.0.1:${stdout.trim()}`, grpc.credentials.createInsecure());
  return {
    client,
    stderr: () => stderr,
    async stop() {
      client.close();
      const exited = new Promise((resolve) => plugin.once("exit", resolve));
      plugin.kill("SIGTERM");
      await exited;
    },
  };
}
