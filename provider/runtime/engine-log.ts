/**
 * Messages from inside the dynamic-provider process to the Pulumi engine, attached to a resource's URN.
 *
 * The engine starts every provider plugin with the address of its own gRPC service as the first argument; the
 * dynamic-provider host of @pulumi/pulumi 3.259 receives it but never connects (pulumi/pulumi#6065), so dynamic
 * providers can only print loose lines that the CLI shows without a resource. This module is the one place that
 * speaks the engine's protocol itself: `pulumirpc.Engine/Log` with `LogRequest { severity = 1 (DEBUG 0, INFO 1,
 * WARNING 2, ERROR 3); message = 2; urn = 3; streamId = 4; ephemeral = 5 }`, the request written with protobufjs'
 * Writer and sent through grpc-js. Ephemeral messages become the status shown on the resource's own row while it
 * updates; the others become that resource's diagnostics.
 *
 * When the address is missing or the engine does not answer, `sendToEngine` resolves false (for good, for that engine)
 * and the caller prints the line as before. test/e2e/firewall-policy-move.test.ts pins this to the CLI version we ship
 * by reading the engine's event log.
 */
import * as grpc from "@grpc/grpc-js";
import { Writer } from "protobufjs";

/** How long one Log call may take before the engine is taken as unreachable. */
export const ENGINE_LOG_DEADLINE_MS = 2000;

export type EngineLogSeverity = "debug" | "info" | "warning" | "error";

const SEVERITY: Readonly<Record<EngineLogSeverity, number>> = { debug: 0, info: 1, warning: 2, error: 3 };

export interface EngineLogMessage {
  readonly severity: EngineLogSeverity;
  readonly message: string;
  readonly urn: string;
  /** A status line for the resource's row (replaced by the next one), not a diagnostic. */
  readonly ephemeral: boolean;
}

/** The wire bytes of a LogRequest. */
export function encodeLogRequest(m: EngineLogMessage): Uint8Array {
  const w = Writer.create();
  w.uint32(8).int32(SEVERITY[m.severity]);
  if (m.message !== "") w.uint32(18).string(m.message);
  if (m.urn !== "") w.uint32(26).string(m.urn);
  if (m.ephemeral) w.uint32(40).bool(true);
  return w.finish();
}

/**
 * The engine's address when this process is a provider started by the engine: the dynamic-provider entry
 * `node …/cmd/dynamic-provider/index.js <engine address>`, or this package's plugin `…/bin/pulumi-resource-opsledger
 * <engine address>` (node runs the wrapper file itself, so it is argv[1]).
 */
export function engineAddressOf(argv: readonly string[]): string | undefined {
  const entry = argv[1] ?? "";
  const address = argv[2] ?? "";
  if (!/[\\/](cmd[\\/]dynamic-provider([\\/]index\.js)?|pulumi-resource-opsledger)$/.test(entry)) return undefined;
  return /^[\w.-]*:\d+$/.test(address) ? address : undefined;
}

/** One channel per engine address; undefined once that engine failed to answer. */
const clients = new Map<string, grpc.Client | undefined>();

/** Sends one message; resolves false (and stays false for that engine) when the engine cannot be reached. */
export function sendToEngine(m: EngineLogMessage, argv: readonly string[] = process.argv): Promise<boolean> {
  const address = engineAddressOf(argv);
  if (address === undefined) return Promise.resolve(false);
  if (!clients.has(address)) {
    const target = address.startsWith(":") ? `127.0.0.1${address}` : address;
    clients.set(address, new grpc.Client(target, grpc.credentials.createInsecure()));
  }
  const client = clients.get(address);
  if (client === undefined) return Promise.resolve(false);
  const bytes = Buffer.from(encodeLogRequest(m));
  return new Promise((resolve) => {
    client.makeUnaryRequest(
      "/pulumirpc.Engine/Log",
      (b: Buffer) => b,
      (b: Buffer) => b,
      bytes,
      { deadline: Date.now() + ENGINE_LOG_DEADLINE_MS },
      (error) => {
        if (error) {
          clients.set(address, undefined);
          client.close();
        }
        resolve(!error);
      },
    );
  });
}
