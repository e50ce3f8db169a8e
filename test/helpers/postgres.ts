/**
 * A private PostgreSQL cluster for Pulumi's `postgres://` state backend (docs/multi-runner.md): Debian's server, found
 * or fetched by scripts/ensure-postgres.sh, a cluster made with initdb in a temp folder, started with pg_ctl on
 * 127.0.0.1 and a free port (no Unix socket outside the temp folder), password authentication over TCP for one role,
 * `pulumi`, that owns the database `pulumi`; stopped and removed by close(), which proves that no process of the
 * cluster is left.
 *
 * PostgreSQL refuses to run as root (CI runs as root): then initdb, pg_ctl and the server run as `nobody` (setpriv),
 * the temp folder is nobody's, and an unpacked server under root's cache (which nobody cannot reach) is hard-linked,
 * else copied, into the temp folder first.
 *
 * Every statement that changes data is logged (log_statement=mod, the first 120 characters of each parameter), so
 * `writes()` counts the backend's writes by key: what Pulumi's DIY backend stores per step (checkpoint, backup,
 * history, lock).
 */
import { spawnSync } from "node:child_process";
import type { SpawnSyncReturns } from "node:child_process";
import { randomBytes } from "node:crypto";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { REPO_ROOT } from "./project-stack";
import { isRunning, processOf, waitGone } from "./kill-stack";
import type { Proc } from "./kill-stack";

const NOBODY = 65534;

/** One write the server logged: the statement's table and the blob key it wrote or deleted. */
export interface BackendWrite {
  readonly verb: "INSERT" | "DELETE";
  readonly key: string;
}

export interface PostgresCluster {
  /** The backend URL without a password (PGPASSWORD carries it): `postgres://pulumi@127.0.0.1:<port>/pulumi?sslmode=disable`. */
  readonly url: string;
  /** The environment a client needs besides the URL: PGPASSWORD. */
  readonly clientEnv: Readonly<Record<string, string>>;
  readonly port: number;
  /** The running postmaster, or undefined while the server is stopped. */
  postmaster(): Proc | undefined;
  /** `pg_ctl stop -m immediate` (the server goes away as on a crash or a network cut) and waits for every process. */
  stop(): Promise<void>;
  /** `pg_ctl start` again on the same port and data. */
  start(): void;
  /** A query through psql, as tab-separated rows. */
  query(sql: string): string[][];
  /** The writes logged since the cluster started (or since `mark`, an index from a previous call). */
  writes(from?: number): BackendWrite[];
  /** Stops the server, proves every process of it is gone, removes the temp folder. */
  close(): Promise<void>;
}

interface Install {
  readonly bin: string;
  readonly libs: string;
}

let installed: Install | undefined;

/** scripts/ensure-postgres.sh's answer (it prints its progress on stderr). */
export function postgresInstall(): Install {
  if (installed) return installed;
  const r = spawnSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-postgres.sh")], {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
  if (r.status !== 0) throw new Error(`scripts/ensure-postgres.sh exited with ${String(r.status ?? r.signal)}`);
  const value = (key: string): string => new RegExp(`^${key}=(.*)$`, "m").exec(r.stdout)?.[1] ?? "";
  installed = { bin: value("bin"), libs: value("libs") };
  return installed;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address() as net.AddressInfo;
      server.close(() => {
        resolve(address.port);
      });
    });
  });
}

const asRoot = process.getuid?.() === 0;

/** The install's tree (the folder holding `usr`) when nobody cannot run its binaries where they are. */
function reachableInstall(install: Install, tmp: string): Install {
  if (!asRoot) return install;
  const probe = spawnSync("setpriv", [...nobodyArgs(), "test", "-x", path.join(install.bin, "postgres")]);
  if (probe.status === 0) return install;
  const root = install.bin.slice(0, install.bin.lastIndexOf(`${path.sep}usr${path.sep}`));
  const copy = path.join(tmp, "install");
  if (spawnSync("cp", ["-al", root, copy]).status !== 0) {
    fs.rmSync(copy, { recursive: true, force: true });
    const r = spawnSync("cp", ["-a", root, copy], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`copying ${root} for the nobody user failed: ${r.stderr}`);
  }
  const moved = (p: string) => (p === "" ? "" : path.join(copy, path.relative(root, p)));
  return { bin: moved(install.bin), libs: moved(install.libs) };
}

function nobodyArgs(): string[] {
  return [`--reuid=${String(NOBODY)}`, `--regid=${String(NOBODY)}`, "--clear-groups"];
}

/** Runs a PostgreSQL program, as nobody when this process is root; fails with its output. */
function runPg(install: Install, program: string, args: readonly string[]): SpawnSyncReturns<string> {
  const exe = path.join(install.bin, program);
  const [cmd, full] = asRoot ? ["setpriv", [...nobodyArgs(), exe, ...args]] : [exe, [...args]];
  const env = { ...process.env, ...(install.libs === "" ? {} : { LD_LIBRARY_PATH: install.libs }) };
  const r = spawnSync(cmd, full, { encoding: "utf8", env, timeout: 120_000 });
  if (r.status !== 0) {
    throw new Error(
      `${program} ${args.join(" ")} exited with ${String(r.status ?? r.signal)}:\n${r.stdout}${r.stderr}`,
    );
  }
  return r;
}

/** Starts a private cluster. */
export async function startPostgres(): Promise<PostgresCluster> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-pg-"));
  let cleanUp = (): Promise<void> => Promise.resolve();
  try {
    if (asRoot) fs.chownSync(tmp, NOBODY, NOBODY);
    const install = reachableInstall(postgresInstall(), tmp);
    const data = path.join(tmp, "data");
    const log = path.join(tmp, "server.log");
    const password = randomBytes(18).toString("base64url");
    const pwfile = path.join(tmp, "pwfile");
    fs.writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
    if (asRoot) fs.chownSync(pwfile, NOBODY, NOBODY);
    runPg(install, "initdb", [
      "-D",
      data,
      "-U",
      "pulumi",
      `--pwfile=${pwfile}`,
      "--auth-host=scram-sha-256",
      "--auth-local=scram-sha-256",
      "--locale=C",
      "--encoding=UTF8",
      "--no-sync",
    ]);
    fs.rmSync(pwfile);
    const port = await freePort();
    const options = [
      `-p ${String(port)}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${tmp}`,
      "-c jit=off",
      "-c log_statement=mod",
      "-c log_parameter_max_length=120",
    ].join(" "); // pg_ctl passes these to a shell: no shell metacharacters
    const start = (): void => {
      runPg(install, "pg_ctl", ["-D", data, "-l", log, "-w", "-t", "60", "-o", options, "start"]);
    };
    const postmaster = (): Proc | undefined => {
      const pidFile = path.join(data, "postmaster.pid");
      if (!fs.existsSync(pidFile)) return undefined;
      const pid = Number(fs.readFileSync(pidFile, "utf8").split("\n")[0]);
      const p = processOf(pid);
      return p !== undefined && isRunning(p) ? p : undefined;
    };
    /** The postmaster and its children (the server's processes). */
    const serverProcesses = (): Proc[] => {
      const root = postmaster();
      if (root === undefined) return [];
      const children = fs
        .readdirSync("/proc")
        .filter((n) => /^\d+$/.test(n))
        .map((n) => processOf(Number(n)))
        .filter((p): p is Proc => p !== undefined && p.ppid === root.pid);
      return [root, ...children];
    };
    const stop = async (): Promise<void> => {
      const procs = serverProcesses();
      if (procs.length === 0) return;
      runPg(install, "pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      await waitGone(procs);
    };
    cleanUp = stop;
    start();
    await createDatabase(install, port, password);
    const cluster: PostgresCluster = {
      url: `postgres://pulumi@127.0.0.1:${String(port)}/pulumi?sslmode=disable`,
      clientEnv: { PGPASSWORD: password },
      port,
      postmaster,
      stop,
      start,
      query: (sql) => psql(install, port, password, "pulumi", sql),
      writes: (from = 0) => parseWrites(fs.readFileSync(log, "utf8")).slice(from),
      async close() {
        const procs = serverProcesses();
        await stop();
        const left = procs.filter((p) => isRunning(p));
        if (left.length > 0) throw new Error(`PostgreSQL processes left: ${left.map((p) => p.args).join("; ")}`);
        fs.rmSync(tmp, { recursive: true, force: true });
      },
    };
    return cluster;
  } catch (error) {
    await cleanUp().catch(() => undefined);
    fs.rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}

function psql(install: Install, port: number, password: string, db: string, sql: string): string[][] {
  const env = {
    ...process.env,
    PGPASSWORD: password,
    ...(install.libs === "" ? {} : { LD_LIBRARY_PATH: install.libs }),
  };
  const args = ["-h", "127.0.0.1", "-p", String(port), "-U", "pulumi", "-d", db, "-X", "-A", "-t", "-F", "\t", "-v"];
  const r = spawnSync(path.join(install.bin, "psql"), [...args, "ON_ERROR_STOP=1", "-c", sql], {
    encoding: "utf8",
    env,
  });
  if (r.status !== 0) throw new Error(`psql -c ${sql} exited with ${String(r.status ?? r.signal)}:\n${r.stderr}`);
  return r.stdout
    .split("\n")
    .filter((l) => l !== "")
    .map((l) => l.split("\t"));
}

async function createDatabase(install: Install, port: number, password: string): Promise<void> {
  psql(install, port, password, "postgres", "CREATE DATABASE pulumi");
  return Promise.resolve();
}

/**
 * The INSERT/DELETE statements of the DIY backend's blob table in a server log (log_statement=mod): the statement
 * line, then `DETAIL:  parameters: $1 = '<key>', ...`.
 */
export function parseWrites(log: string): BackendWrite[] {
  const writes: BackendWrite[] = [];
  const lines = log.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const verb = /LOG: {2}(?:execute \S+|statement): (INSERT|DELETE) /.exec(lines[i] ?? "")?.[1];
    if (verb === undefined) continue;
    const key = /DETAIL: {2}parameters: \$1 = '([^']*)'/.exec(lines[i + 1] ?? "")?.[1];
    if (key !== undefined) writes.push({ verb: verb as BackendWrite["verb"], key });
  }
  return writes;
}

/**
 * What a DIY backend key is: the stack's checkpoint, a backup of it (`.bak` beside it, or under backups/), the update
 * history, a lock, or other. Keys start
 * with the URL's path (`pulumi/.pulumi/stacks/...` for `postgres://…/pulumi`).
 */
export function writeKind(key: string): "checkpoint" | "backup" | "history" | "lock" | "other" {
  const kinds = { stacks: "checkpoint", backups: "backup", history: "history", locks: "lock" } as const;
  const dir = /(?:^|\/)\.pulumi\/(stacks|backups|history|locks)\//.exec(key)?.[1] as keyof typeof kinds | undefined;
  if (dir === undefined) return "other";
  // The checkpoint's previous version, copied beside it before each write (`<stack>.json.bak`).
  return dir === "stacks" && key.endsWith(".bak") ? "backup" : kinds[dir];
}
