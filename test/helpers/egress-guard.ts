/**
 * The test suite's egress guard: every TCP connection a test process opens must go to a loopback address. A
 * connection to any other host (a name other than `localhost`, or an address outside 127.0.0.0/8 and ::1) is refused
 * before anything is sent — not even a DNS query — and recorded, so the test that caused it fails loudly instead of
 * reaching Google, a metadata server or anything else by accident.
 *
 * `net.Socket.prototype.connect` is where every client connection of Node starts (net/tls/http/https/http2 and the
 * fetch built on undici), so patching it covers axios, gaxios, googleapis, grpc-js and fetch alike. The mocha root
 * hook (root-hooks.ts) installs it in the test processes; egress-guard-preload.ts installs it, through NODE_OPTIONS,
 * in the Node processes the pulumi CLI starts (the program and the dynamic-provider process), which report into a
 * file the root hook reads after each test.
 */
import * as fs from "node:fs";
import * as net from "node:net";

export interface EgressViolation {
  /** The host as the caller named it. */
  readonly host: string;
  readonly port: string;
  /** The process that tried (the test process itself, or a program or provider process the CLI started). */
  readonly pid: number;
  /** Where the connection was asked for. */
  readonly stack: string;
}

/** The environment variable naming the file where processes started by a test report refused connections. */
export const EGRESS_LOG_ENV = "OPSLEDGER_EGRESS_LOG";

const violations: EgressViolation[] = [];
let installed = false;

/** True for `localhost` and loopback addresses (127.0.0.0/8, ::1, ::ffff:127.x.y.z), brackets allowed. */
export function isLoopback(host: string): boolean {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const lower = bare.toLowerCase();
  if (lower === "localhost") return true;
  if (net.isIPv4(lower)) return lower.startsWith("127.");
  if (net.isIPv6(lower)) {
    if (lower.startsWith("::ffff:")) return isLoopback(lower.slice("::ffff:".length));
    return lower === "::1" || lower === "0:0:0:0:0:0:0:1";
  }
  return false;
}

interface Target {
  readonly host: string;
  readonly port: string;
}

/** Where a `Socket#connect(...)` call goes; undefined for an IPC path (a Unix socket never leaves the machine). */
function targetOf(args: readonly unknown[]): Target | undefined {
  // net.connect() hands Socket#connect its normalized arguments as one array [options, callback].
  const first: unknown = Array.isArray(args[0]) ? (args[0] as unknown[])[0] : args[0];
  if (typeof first === "object" && first !== null) {
    const options = first as { path?: unknown; host?: unknown; port?: unknown };
    // As net does (`pipe = !!path`): http's agent passes `path: null` for TCP.
    if (typeof options.path === "string" && options.path !== "") return undefined;
    return {
      host: typeof options.host === "string" && options.host !== "" ? options.host : "localhost",
      port: String(options.port),
    };
  }
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    return { host: typeof args[1] === "string" ? args[1] : "localhost", port: String(first) };
  }
  return undefined;
}

/** Patches Socket#connect in this process (once); `report` also receives each refused connection. */
export function installEgressGuard(report?: (violation: EgressViolation) => void): void {
  if (installed) return;
  installed = true;
  // eslint-disable-next-line @typescript-eslint/unbound-method -- kept to be applied to each socket, with its `this`
  const connect = net.Socket.prototype.connect as (this: net.Socket, ...args: unknown[]) => net.Socket;
  const guarded = function (this: net.Socket, ...args: unknown[]): net.Socket {
    const target = targetOf(args);
    if (target === undefined || isLoopback(target.host)) {
      return connect.apply(this, args);
    }
    const violation: EgressViolation = {
      host: target.host,
      port: target.port,
      pid: process.pid,
      stack: (new Error("egress").stack ?? "").split("\n").slice(2, 12).join("\n"),
    };
    violations.push(violation);
    report?.(violation);
    const error = Object.assign(
      new Error(
        `egress guard: connection to ${target.host}:${target.port} refused; tests reach only 127.0.0.1 (see test/helpers/egress-guard.ts)`,
      ),
      { code: "EGRESS_REFUSED" },
    );
    process.nextTick(() => this.destroy(error));
    return this;
  };
  net.Socket.prototype.connect = guarded;
}

/** The connections refused in this process since the last call, oldest first. */
export function takeViolations(): EgressViolation[] {
  return violations.splice(0, violations.length);
}

/** Appends a refused connection to the report file named by OPSLEDGER_EGRESS_LOG (one JSON object a line). */
export function reportToLog(violation: EgressViolation): void {
  const file = process.env[EGRESS_LOG_ENV];
  if (file === undefined || file === "") return;
  fs.appendFileSync(file, `${JSON.stringify(violation)}\n`);
}

/** Reads and empties a report file. */
export function takeLoggedViolations(file: string): EgressViolation[] {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch {
    return [];
  }
  if (text === "") return [];
  fs.writeFileSync(file, "");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as EgressViolation);
}

/** One paragraph naming every refused connection, for a failing test. */
export function describeViolations(found: readonly EgressViolation[]): string {
  return [
    `the test tried to reach ${String(found.length)} non-loopback destination(s); tests must reach only 127.0.0.1:`,
    ...found.map((v) => `  ${v.host}:${v.port} (pid ${String(v.pid)})\n${v.stack.replace(/^/gm, "      ")}`),
  ].join("\n");
}
