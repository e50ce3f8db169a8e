import { strict as assert } from "node:assert";
import { spawnSync } from "node:child_process";
import * as fs from "node:fs";
import * as https from "node:https";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { EGRESS_LOG_ENV, isLoopback, takeLoggedViolations, takeViolations } from "../helpers/egress-guard";
import { egressGuardEnv } from "../helpers/project-stack";

/** The error a connection attempt ends with (the guard destroys the socket on the next tick). */
function connectError(connect: () => net.Socket): Promise<NodeJS.ErrnoException> {
  return new Promise((resolve, reject) => {
    const socket = connect();
    socket.on("error", resolve);
    socket.on("connect", () => {
      socket.destroy();
      reject(new Error("connected"));
    });
  });
}

describe("the test suite's egress guard (installed by the mocha root hook)", () => {
  it("tells loopback destinations from all others", () => {
    for (const host of ["127.0.0.1", "127.8.9.10", "localhost", "LOCALHOST", "::1", "[::1]", "::ffff:127.0.0.1"]) {
      assert.equal(isLoopback(host), true, host);
    }
    for (const host of ["169.254.169.254", "10.0.0.1", "192.168.1.1", "0.0.0.0", "::", "oauth2.googleapis.com", ""]) {
      assert.equal(isLoopback(host), false, host);
    }
  });

  // Every name below "resolves" to 127.0.0.1 through a lookup of the test's own, so that even a broken guard would send
  // nothing off this machine: the test then fails on the connection being refused by the loopback port instead.
  const toLoopback: net.LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: "127.0.0.1", family: 4 }]);
    else callback(null, "127.0.0.1", 4);
  };

  it("refuses a connection to another host before any DNS lookup, and records it for the root hook", async () => {
    const lookups: string[] = [];
    const error = await connectError(() =>
      net.connect({
        host: "metadata.google.internal",
        port: 1,
        lookup: (hostname, options, callback) => {
          lookups.push(hostname);
          toLoopback(hostname, options, callback);
        },
      }),
    );
    assert.equal(error.code, "EGRESS_REFUSED");
    assert.match(error.message, /^egress guard: connection to metadata\.google\.internal:1 refused/);
    assert.deepEqual(lookups, []);
    const refusedOverHttps = await new Promise<Error>((resolve) => {
      https.get({ host: "oauth2.googleapis.com", port: 1, path: "/token", lookup: toLoopback }).on("error", resolve);
    });
    assert.match(refusedOverHttps.message, /connection to oauth2\.googleapis\.com:1 refused/);
    // Taken here, so that this test's own refusals do not fail it in the root hook.
    assert.deepEqual(
      takeViolations().map((v) => `${v.host}:${v.port}`),
      ["metadata.google.internal:1", "oauth2.googleapis.com:1"],
    );
  });

  it("lets loopback connections through", async () => {
    const server = net.createServer((s) => s.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    try {
      for (const host of ["127.0.0.1", "localhost"]) {
        await new Promise<void>((resolve, reject) => {
          const socket = net.connect({ host, port }, () => {
            socket.destroy();
            resolve();
          });
          socket.on("error", reject);
        });
      }
      assert.deepEqual(takeViolations(), []);
    } finally {
      server.close();
    }
  });

  it("guards the Node processes a pulumi command starts, which report into the test process's log", () => {
    const log = process.env[EGRESS_LOG_ENV] ?? "";
    assert.ok(log !== "" && fs.existsSync(log), "the root hook names a report file");
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-egress-test-"));
    try {
      const script = path.join(dir, "reach-out.js");
      fs.writeFileSync(
        script,
        [
          'const lookup = (_h, _o, cb) => cb(null, "127.0.0.1", 4);',
          'require("node:net").connect({ host: "compute.googleapis.com", port: 1, lookup })',
          '  .on("error", (e) => { console.log(e.code); });',
        ].join("\n"),
      );
      const child = spawnSync(process.execPath, [script], {
        env: { ...process.env, ...egressGuardEnv() },
        encoding: "utf8",
      });
      assert.equal(child.stdout.trim(), "EGRESS_REFUSED", child.stderr);
      const reported = takeLoggedViolations(log);
      assert.deepEqual(
        reported.map((v) => [v.host, v.port, v.pid]),
        [["compute.googleapis.com", "1", child.pid]],
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
