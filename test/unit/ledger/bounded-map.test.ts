/**
 * provider/ledger/bounded-map.ts with injected work that records how many calls are in flight: each call is a promise
 * the test settles by hand, and the test lets the event loop turn (setImmediate) before it looks, so what it sees is
 * every call the helper could have started by then: no timing.
 */
import { strict as assert } from "node:assert";
import { mapBounded } from "../../../provider/ledger/bounded-map";

/** A turn of the event loop: every promise reaction the last settle caused has run. */
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Work whose calls stay in flight until the test settles them, counting calls in flight and their peak. */
function heldWork<T>() {
  const calls: { item: T; resolve: (value: string) => void; reject: (error: unknown) => void }[] = [];
  const state = { inFlight: 0, peak: 0 };
  const work = (item: T): Promise<string> => {
    state.inFlight++;
    state.peak = Math.max(state.peak, state.inFlight);
    return new Promise<string>((resolve, reject) => {
      calls.push({ item, resolve, reject });
    }).finally(() => state.inFlight--);
  };
  return { calls, state, work };
}

describe("mapBounded", () => {
  it("keeps at most `limit` calls in flight, starts the next as one settles, and calls every item once", async () => {
    const items = Array.from({ length: 10 }, (_, i) => `tx-${String(i)}`);
    const held = heldWork<string>();
    const run = mapBounded(items, 3, held.work);
    await turn();
    assert.deepEqual(
      held.calls.map((c) => c.item),
      ["tx-0", "tx-1", "tx-2"],
    );
    // Settled out of order: each settle starts exactly one more, in list order.
    for (const [settled, index] of [1, 0, 2, 4, 3, 5, 6, 7, 8, 9].entries()) {
      held.calls[index]?.resolve(`value of ${String(index)}`);
      await turn();
      assert.equal(held.calls.length, Math.min(items.length, settled + 4));
      assert.ok(held.state.inFlight <= 3, `in flight: ${String(held.state.inFlight)}`);
    }
    const { outcomes, notStarted } = await run;
    assert.equal(held.state.peak, 3);
    assert.deepEqual(
      held.calls.map((c) => c.item),
      items,
    );
    assert.deepEqual(
      outcomes,
      items.map((_, i) => ({ ok: true, value: `value of ${String(i)}` })),
    );
    assert.equal(notStarted, 0);
  });

  it("reports a failed item with its error and keeps every other item's result", async () => {
    const held = heldWork<number>();
    const run = mapBounded([0, 1, 2, 3], 2, held.work);
    await turn();
    const refused = new Error("gateway refused item 1");
    held.calls[1]?.reject(refused);
    await turn();
    held.calls[0]?.resolve("zero");
    await turn();
    held.calls[2]?.resolve("two");
    held.calls[3]?.resolve("three");
    const { outcomes, notStarted } = await run;
    assert.deepEqual(outcomes, [
      { ok: true, value: "zero" },
      { ok: false, error: refused },
      { ok: true, value: "two" },
      { ok: true, value: "three" },
    ]);
    assert.equal(notStarted, 0);
    assert.equal(held.state.peak, 2);
  });

  it("starts no more items once stopAfter says so; those in flight finish", async () => {
    const held = heldWork<number>();
    const run = mapBounded([0, 1, 2, 3, 4], 2, held.work, { stopAfter: (o) => !o.ok });
    await turn();
    held.calls[0]?.reject(new Error("item 0 failed"));
    await turn();
    assert.equal(held.calls.length, 2, "nothing started after the failure");
    held.calls[1]?.resolve("one");
    const { outcomes, notStarted } = await run;
    assert.deepEqual(
      outcomes.map((o) => o?.ok),
      [false, true, undefined, undefined, undefined],
    );
    assert.equal(notStarted, 3);
  });

  it("runs one at a time with a limit of 1, and nothing for an empty list", async () => {
    const held = heldWork<number>();
    const run = mapBounded([0, 1, 2], 1, held.work);
    for (const index of [0, 1, 2]) {
      await turn();
      assert.equal(held.calls.length, index + 1);
      held.calls[index]?.resolve(String(index));
    }
    assert.equal((await run).outcomes.length, 3);
    assert.equal(held.state.peak, 1);
    assert.deepEqual(await mapBounded([], 4, held.work), { outcomes: [], notStarted: 0 });
  });

  it("refuses a limit that is not a whole number of at least 1 before calling anything", async () => {
    const held = heldWork<number>();
    for (const limit of [0, -1, 1.5, Number.NaN]) {
      await assert.rejects(mapBounded([1, 2], limit, held.work), {
        name: "RangeError",
        message: `mapBounded: limit must be a whole number of at least 1, got ${String(limit)}`,
      });
    }
    assert.equal(held.calls.length, 0);
  });
});
