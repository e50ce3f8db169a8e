import { strict as assert } from "node:assert";
import { waitFor } from "../helpers/wait-for";

describe("test/helpers/wait-for: the tests' one bounded wait", () => {
  it("resolves with the first value the predicate accepts, reading until then", async () => {
    let reads = 0;
    const value = await waitFor({
      what: "the third read",
      read: () => ++reads,
      until: (n) => n === 3,
      timeoutMs: 5_000,
      intervalMs: 1,
    });
    assert.equal(value, 3);
    assert.equal(reads, 3);
  });

  it("fails after the bound naming what was awaited and the last value seen", async () => {
    let reads = 0;
    await assert.rejects(
      waitFor({
        what: "a height of 10",
        read: () => ({ height: ++reads === 1 ? 1 : 2 }),
        until: (h) => h.height >= 10,
        timeoutMs: 50,
        intervalMs: 5,
      }),
      { message: 'timed out after 50 ms waiting for a height of 10; last seen: {"height":2}' },
    );
    assert.ok(reads >= 2, `read ${String(reads)} times`);
  });

  it("shows the last value as `show` writes it", async () => {
    await assert.rejects(
      waitFor({ what: "x", read: () => 7n, until: () => false, show: (v) => `v=${String(v)}`, timeoutMs: 0 }),
      { message: "timed out after 0 ms waiting for x; last seen: v=7" },
    );
  });

  it("ends at once on an error of the reader that is not retried", async () => {
    let reads = 0;
    const gone = new Error("the command ended first");
    await assert.rejects(
      waitFor({
        what: "a log line",
        read: () => {
          reads++;
          throw gone;
        },
        timeoutMs: 5_000,
      }),
      (e) => e === gone,
    );
    assert.equal(reads, 1);
  });

  it("reads again after a retried error, and reports the last one on timeout", async () => {
    let reads = 0;
    const refused = (e: unknown): boolean => e instanceof Error && e.message.includes("ECONNREFUSED");
    const value = await waitFor({
      what: "the peer to answer",
      read: () => {
        if (++reads < 3) throw new Error("connect ECONNREFUSED 127.0.0.1:7051");
        return "answer";
      },
      retrying: refused,
      timeoutMs: 5_000,
      intervalMs: 1,
    });
    assert.deepEqual([value, reads], ["answer", 3]);
    await assert.rejects(
      waitFor({
        what: "the peer to answer",
        read: () => Promise.reject(new Error("connect ECONNREFUSED 127.0.0.1:7051")),
        retrying: refused,
        timeoutMs: 0,
      }),
      {
        message:
          "timed out after 0 ms waiting for the peer to answer; last seen: error: Error: connect ECONNREFUSED 127.0.0.1:7051",
      },
    );
  });
});
