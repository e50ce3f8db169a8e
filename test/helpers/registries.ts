/**
 * Stand-ins on 127.0.0.1 for the registries a release is published to, each serving the files of one release folder
 * (scripts/release.ts) as the real one serves them to its installer: the plugin archives over HTTP (the GitHub
 * release, for the engine's acquisition: `PULUMI_PLUGIN_DOWNLOAD_URL_OVERRIDES`), a PEP 503 index (PyPI, for pip: the
 * wheel and sdist, and the wheels of what they require, scripts/ensure-python-wheelhouse.sh), a Go module proxy folder
 * (GOPROXY=file://) and verdaccio (npm: the tarball published to it, everything else through its uplink, the npm
 * registry, scripts/ensure-verdaccio.sh).
 */
import { execFileSync, spawn } from "node:child_process";
import type { ChildProcess } from "node:child_process";
import { createReadStream, existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import * as http from "node:http";
import type { AddressInfo } from "node:net";
import * as path from "node:path";
import { REPO_ROOT } from "./project-stack";
import { waitFor } from "./wait-for";

/** A server on 127.0.0.1 and what it was asked for. */
export interface StandIn {
  readonly url: string;
  /** Each request's method and path, in order. */
  readonly requests: readonly string[];
  close(): Promise<void>;
}

async function listen(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<StandIn> {
  const requests: string[] = [];
  const server = http.createServer((req, res) => {
    requests.push(`${req.method ?? "GET"} ${req.url ?? "/"}`);
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

function sendFile(res: http.ServerResponse, file: string, type = "application/octet-stream"): void {
  if (!existsSync(file) || !statSync(file).isFile()) {
    res.writeHead(404, { "content-type": "text/plain" }).end("not found\n");
    return;
  }
  res.writeHead(200, { "content-type": type, "content-length": statSync(file).size });
  createReadStream(file).pipe(res);
}

/** Files of `dir` by name (no subfolders), as a GitHub release's download URLs serve its assets. */
export function startFileServer(dir: string): Promise<StandIn> {
  return listen((req, res) => {
    const name = decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname).replace(/^\/+/, "");
    if (name.includes("/") || name.startsWith(".")) res.writeHead(404).end();
    else sendFile(res, path.join(dir, name));
  });
}

/** PEP 503's normalized project name. */
export function normalizeProject(name: string): string {
  return name.toLowerCase().replace(/[-_.]+/g, "-");
}

/** The project a wheel's or sdist's file name belongs to (its name up to the version). */
function projectOf(file: string): string | undefined {
  const wheel = /^([^-]+)-[^-]+-.+\.whl$/.exec(file);
  const sdist = /^(.+)-\d[^-]*\.tar\.gz$/.exec(file);
  const name = wheel?.[1] ?? sdist?.[1];
  return name === undefined ? undefined : normalizeProject(name);
}

/** A PEP 503 "simple" index of the wheels and sdists in `dirs` (the first folder holding a file name serves it). */
export function startSimpleIndex(dirs: readonly string[]): Promise<StandIn> {
  const files = new Map<string, string>();
  for (const dir of dirs) {
    for (const f of readdirSync(dir)) if (projectOf(f) !== undefined && !files.has(f)) files.set(f, path.join(dir, f));
  }
  return listen((req, res) => {
    const url = new URL(req.url ?? "/", "http://x").pathname;
    const project = /^\/simple\/([^/]+)\/?$/.exec(url)?.[1];
    if (url === "/simple/" || url === "/simple") {
      const names = [...new Set([...files.keys()].map((f) => projectOf(f) ?? ""))].sort();
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!DOCTYPE html><html><body>\n${names.map((n) => `<a href="/simple/${n}/">${n}</a>`).join("\n")}\n</body></html>\n`,
      );
    } else if (project !== undefined) {
      const mine = [...files.keys()].filter((f) => projectOf(f) === normalizeProject(project)).sort();
      if (mine.length === 0) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "content-type": "text/html" });
      res.end(
        `<!DOCTYPE html><html><body>\n${mine.map((f) => `<a href="/files/${f}">${f}</a>`).join("\n")}\n</body></html>\n`,
      );
    } else if (url.startsWith("/files/")) {
      const file = files.get(decodeURIComponent(url.slice("/files/".length)));
      if (file === undefined) res.writeHead(404).end();
      else sendFile(res, file);
    } else res.writeHead(404).end();
  });
}

/**
 * The Go environment that takes the SDK module from the release folder's proxy layout, before the proxies the user's
 * Go already names (`upstream`, `go env GOPROXY`): the Go module proxy still serves every other module, and the
 * checksum database's answers for them (through its /sumdb/ endpoint), as for any Go user.
 */
export function goProxyEnv(releaseDir: string, module: string, upstream: string): Record<string, string> {
  return {
    GOPROXY: `file://${path.join(releaseDir, "go")},${upstream}`,
    // The module is not in the public checksum database until its tag is public.
    GONOSUMDB: module,
    GOFLAGS: "-mod=mod",
  };
}

/** An npm registry on 127.0.0.1: verdaccio with the release's tarball published to it. */
export interface NpmRegistry extends StandIn {
  readonly child: ChildProcess;
}

/**
 * Starts verdaccio with its storage in `dir`: packages of the name `ownName` only from what is published to it, every
 * other package through its uplink (the npm registry), cached in the storage; publishes `tarball` as a user.
 */
export async function startNpmRegistry(dir: string, ownName: string, tarball: string): Promise<NpmRegistry> {
  const bin = execFileSync("bash", [path.join(REPO_ROOT, "scripts", "ensure-verdaccio.sh")], {
    encoding: "utf8",
  }).trim();
  mkdirSync(path.join(dir, "storage"), { recursive: true });
  const port = await freePort();
  const uplink = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
  writeFileSync(
    path.join(dir, "config.yaml"),
    [
      `storage: ${path.join(dir, "storage")}`,
      "auth:",
      "  htpasswd:",
      `    file: ${path.join(dir, "htpasswd")}`,
      "uplinks:",
      "  npmjs:",
      `    url: ${uplink}`,
      "    timeout: 120s",
      "packages:",
      `  '${ownName}':`,
      "    access: $all",
      "    publish: $authenticated",
      "  '**':",
      "    access: $all",
      "    proxy: npmjs",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const child = spawn(bin, ["--config", path.join(dir, "config.yaml"), "--listen", `127.0.0.1:${String(port)}`], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  child.stdout.setEncoding("utf8").on("data", (s: string) => (log += s));
  child.stderr.setEncoding("utf8").on("data", (s: string) => (log += s));
  const url = `http://127.0.0.1:${String(port)}`;
  await waitFor({
    what: `verdaccio to answer on ${url}`,
    read: async () => (await fetch(`${url}/-/ping`)).status,
    until: (status) => status === 200,
    retrying: () => true,
    timeoutMs: 60_000,
  });
  // A user, then the tarball published with that user's token, as `npm adduser` and `npm publish` do.
  const user = await fetch(`${url}/-/user/org.couchdb.user:release`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release", password: "release-test" }),
  });
  const { token } = (await user.json()) as { token?: string };
  if (token === undefined) throw new Error(`verdaccio created no user: ${String(user.status)}\n${log}`);
  const npmrc = path.join(dir, "publish.npmrc");
  writeFileSync(npmrc, `registry=${url}/\n//127.0.0.1:${String(port)}/:_authToken=${token}\n`);
  execFileSync("npm", ["publish", "--userconfig", npmrc, "--registry", `${url}/`, tarball], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const requests: string[] = [];
  return {
    url,
    child,
    requests,
    close: async () => {
      if (child.exitCode === null) {
        const gone = new Promise((resolve) => child.once("exit", resolve));
        child.kill("SIGTERM");
        await gone;
      }
    },
  };
}

/** A port no one listens on now. */
async function freePort(): Promise<number> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
