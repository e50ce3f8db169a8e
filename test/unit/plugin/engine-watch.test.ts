import { strict as assert } from "node:assert";
import * as net from "node:net";
import {
  DEFAULT_ENGINE_CHECK_INTERVAL_MS,
  engineListens,
  exitWhenEngineIsGone,
} from "../../../provider/plugin/engine-watch";
import { ORPHAN_EXIT_CODE } from "../../../provider/runtime/orphan-guard";
import { serve } from "../../../provider/plugin/server";

/** A port nothing listens on: one the kernel gave a server that has since closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((resolve) =>
    server.close(() => {
      resolve();
    }),
  );
  return port;
}

describe("the plugin's engine watch (provider/plugin/engine-watch.ts)", () => {
  it("takes any gRPC answer as a listening engine (here UNIMPLEMENTED), and a refused connection as none", async () => {
    const { port, server } = await serve("1.2.3");
    try {
      assert.equal(await engineListens(`127.0.0.1:${String(port)}`), true);
    } finally {
      server.forceShutdown();
    }
    assert.equal(await engineListens(`127.0.0.1:${String(await closedPort())}`), false);
  });

  it("checks every interval while the engine listens and exits with the orphan code once it does not", async () => {
    const answers = [true, true, false];
    const asked: string[] = [];
    const delays: number[] = [];
    const pending: (() => void)[] = [];
    let exited: number | undefined;
    exitWhenEngineIsGone("127.0.0.1:4711", {
      check: (address) => {
        asked.push(address);
        return Promise.resolve(answers.shift() ?? true);
      },
      schedule: (fn, ms) => {
        delays.push(ms);
        pending.push(fn);
      },
      exit: (code) => (exited = code),
    });
    while (exited === undefined && pending.length > 0) {
      pending.shift()?.();
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.deepEqual(asked, ["127.0.0.1:4711", "127.0.0.1:4711", "127.0.0.1:4711"]);
    assert.deepEqual(
      delays,
      [1, 2, 3].map(() => DEFAULT_ENGINE_CHECK_INTERVAL_MS),
    );
    assert.equal(exited, ORPHAN_EXIT_CODE);
    assert.equal(pending.length, 0, "nothing scheduled after the exit");
  });

  it("watches nothing without an engine address (the service called directly, as tests do)", () => {
    const delays: number[] = [];
    exitWhenEngineIsGone(undefined, { schedule: (_fn, ms) => delays.push(ms) });
    assert.deepEqual(delays, []);
  });
});
