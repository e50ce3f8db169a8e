import { strict as assert } from "node:assert";
import {
  MIN_QUOTA_HOLD_MS,
  QuotaPacer,
  clearQuotaPacers,
  pacersFor,
  quotaUnitWindowMs,
  rateLimitNotice,
  sharedQuotaPacer,
} from "../../../provider/google/quota-pacer";
import { computeWriteQuotaMetadata } from "../../helpers/google-rate-limit";

describe("QuotaPacer", () => {
  beforeEach(clearQuotaPacers);

  it("lets everything through at once before any rejection", () => {
    let now = 5000;
    const pacer = new QuotaPacer({ now: () => now });
    assert.deepEqual([pacer.reserve(), pacer.reserve(), pacer.reserve()], [5000, 5000, 5000]);
    now = 9000;
    assert.equal(pacer.reserve(), 9000);
  });

  it("after a rejection, holds every request until the refill, then admits the limit per window, in order", () => {
    let now = 10_000;
    const pacer = new QuotaPacer({ now: () => now });
    pacer.reject({ serverDelayMs: 45_000, limitPerWindow: 3, windowMs: 60_000 });
    const reservations = Array.from({ length: 8 }, () => pacer.reserve());
    // Refill at 55 s: three in that window, three in the next, two in the one after.
    assert.deepEqual(reservations, [55_000, 55_000, 55_000, 115_000, 115_000, 115_000, 175_000, 175_000]);
    now = 300_000; // long after: the window of `now` has room again
    assert.equal(pacer.reserve(), 300_000);
    assert.equal(pacer.limitPerWindow, 3);
    assert.equal(pacer.rejections, 1);
  });

  it("holds everything until the refill when the limit is unknown, for a whole window without a server delay", () => {
    const now = 1000;
    const pacer = new QuotaPacer({ now: () => now });
    pacer.reject({});
    assert.deepEqual([pacer.reserve(), pacer.reserve()], [61_000, 61_000]);
    pacer.reject({ serverDelayMs: 90_000 });
    pacer.reject({ serverDelayMs: 5_000 });
    assert.equal(pacer.reserve(), 61_000, "rejections before the refill answer the same window: no change");
    assert.equal(pacer.rejections, 3);
  });

  it("keeps its count when a burst sent before it held the group is rejected one by one", () => {
    let now = 0;
    const pacer = new QuotaPacer({ now: () => now });
    const places: number[] = [];
    for (let i = 0; i < 6; i++) {
      // Each rejection arrives a little later and its Retry-After is rounded up: it must not open a new window.
      now = 5 + i;
      pacer.reject({ serverDelayMs: 1000, limitPerWindow: 2, windowMs: 1000 });
      places.push(pacer.reserve());
    }
    assert.deepEqual(places, [1005, 1005, 2005, 2005, 3005, 3005]);
  });

  it("holds at least a second after a rejection whose server delay is zero, so a Retry-After of 0 cannot spin", () => {
    const now = 7000;
    const pacer = new QuotaPacer({ now: () => now });
    pacer.reject({ serverDelayMs: 0 });
    assert.equal(pacer.reserve(), 7000 + MIN_QUOTA_HOLD_MS);
  });

  it("re-synchronizes on a rejection in a window it thought had room (another process spends the quota too)", () => {
    let now = 0;
    const pacer = new QuotaPacer({ now: () => now });
    pacer.reject({ serverDelayMs: 1000, limitPerWindow: 10, windowMs: 60_000 });
    assert.equal(pacer.reserve(), 1000);
    now = 20_000;
    pacer.reject({ serverDelayMs: 41_000, limitPerWindow: 10, windowMs: 60_000 });
    assert.deepEqual(
      Array.from({ length: 11 }, () => pacer.reserve()),
      [...Array.from({ length: 10 }, () => 61_000), 121_000],
    );
  });

  it("reads the quota from ErrorInfo metadata as Google reports it", () => {
    const metadata = computeWriteQuotaMetadata(600);
    assert.deepEqual(rateLimitNotice(metadata, 12_000), {
      serverDelayMs: 12_000,
      quotaMetric: "compute.googleapis.com/write_requests",
      quotaLimit: "WriteRequestsPerMinutePerProject",
      limitPerWindow: 600,
      windowMs: 60_000,
    });
    assert.deepEqual(rateLimitNotice({ quota_limit_value: "many" }, undefined), {
      serverDelayMs: undefined,
      quotaMetric: undefined,
      quotaLimit: undefined,
      limitPerWindow: undefined,
      windowMs: undefined,
    });
    assert.equal(quotaUnitWindowMs("1/min/{project}"), 60_000);
    assert.equal(quotaUnitWindowMs("1/100s/{project}/{user}"), 100_000);
    assert.equal(quotaUnitWindowMs("1/d/{project}"), 86_400_000);
    assert.equal(quotaUnitWindowMs("1/s/{project}"), 1000);
    assert.equal(quotaUnitWindowMs("per minute"), undefined);
  });

  it("shares one pacer per service root and quota, governing the endpoints that met it", () => {
    const notice = { quotaMetric: "compute.googleapis.com/write_requests", quotaLimit: "W" };
    const a = sharedQuotaPacer("https://compute.test", "compute.firewallPolicies.move", notice);
    const b = sharedQuotaPacer("https://compute.test", "compute.other.insert", notice);
    const other = sharedQuotaPacer("https://elsewhere.test", "compute.firewallPolicies.move", notice);
    assert.equal(a, b);
    assert.notEqual(a, other);
    assert.deepEqual(pacersFor("https://compute.test", "compute.firewallPolicies.move"), [a]);
    assert.deepEqual(pacersFor("https://compute.test", "compute.firewallPolicies.get"), []);
  });
});
