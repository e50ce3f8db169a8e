import assert from "node:assert/strict";
import {
  computeErrorAnomalies,
  errorInfoAnomalies,
  progressRangeAnomaly,
  rpcStatusAnomalies,
} from "../../../provider/operations/anomalies";

describe("anomalies", () => {
  it("accepts an errorInfo reason of 63 upper-case characters and flags 64", () => {
    assert.deepEqual(errorInfoAnomalies({ reason: "A".repeat(63) }, "e", "metadatas"), []);
    assert.deepEqual(errorInfoAnomalies({ reason: "A".repeat(64) }, "e", "metadatas"), [
      `e.reason "${"A".repeat(64)}" is out of spec: it must be at most 63 characters of A-Z, 0-9 and _ (it has 64)`,
    ]);
  });

  it("flags reasons that are not UPPER_SNAKE_CASE, or not strings", () => {
    assert.deepEqual(errorInfoAnomalies({ reason: "QUOTA_EXCEEDED_2" }, "e", "metadatas"), []);
    assert.equal(errorInfoAnomalies({ reason: "Quota exceeded" }, "e", "metadatas").length, 1);
    assert.equal(errorInfoAnomalies({ reason: "" }, "e", "metadatas").length, 1);
    assert.deepEqual(errorInfoAnomalies({ reason: 7 }, "e", "metadatas"), ["e.reason is 7, not a string"]);
  });

  it("checks metadata keys against the pattern and the 64-character limit", () => {
    const ok = { service: "x", quota_limit: "y", "max-size": "z", [`k${"a".repeat(63)}`]: "64 chars" };
    assert.deepEqual(errorInfoAnomalies({ metadatas: ok }, "e", "metadatas"), []);
    const bad = { a: "too short", Service: "upper", "9x": "digit", [`k${"a".repeat(64)}`]: "65 chars" };
    const found = errorInfoAnomalies({ metadatas: bad }, "e", "metadatas");
    assert.deepEqual(
      found.map((m) => /key "([^"]*)"/.exec(m)?.[1]),
      ["a", "Service", "9x", `k${"a".repeat(64)}`],
    );
    assert.equal(
      found[0],
      'e.metadatas key "a" is out of spec: it must match /^[a-z][a-zA-Z0-9-_]+$/ and be at most 64 characters',
    );
    assert.deepEqual(errorInfoAnomalies({ metadatas: ["x"] }, "e", "metadatas"), [
      "e.metadatas is an array, not a map of strings",
    ]);
    assert.deepEqual(errorInfoAnomalies("x", "e", "metadatas"), ['e is "x", not an object']);
  });

  it("walks compute errors[] and rpc details with their paths", () => {
    assert.deepEqual(
      computeErrorAnomalies([
        { errorDetails: [{ help: {} }] },
        { errorDetails: [{}, { errorInfo: { reason: "bad" } }] },
      ]).map((m) => m.split(" ")[0]),
      ["error.errors[1].errorDetails[1].errorInfo.reason"],
    );
    assert.deepEqual(
      rpcStatusAnomalies({
        details: [
          { "@type": "type.googleapis.com/google.rpc.Help", reason: "not checked" },
          { "@type": "type.googleapis.com/google.rpc.ErrorInfo", metadata: { Bad: "1" } },
        ],
      }).map((m) => m.split(" key")[0]),
      ["error.details[1] (ErrorInfo).metadata"],
    );
  });

  it("accepts progress 0 to 100 and flags the rest", () => {
    assert.deepEqual([0, 55, 100].map(progressRangeAnomaly), [undefined, undefined, undefined]);
    assert.deepEqual([101, -1, Number.NaN, "50"].map(progressRangeAnomaly), [
      "progress 101 is out of spec: it must be a number from 0 to 100; ignoring it",
      "progress -1 is out of spec: it must be a number from 0 to 100; ignoring it",
      "progress NaN is out of spec: it must be a number from 0 to 100; ignoring it",
      'progress "50" is out of spec: it must be a number from 0 to 100; ignoring it',
    ]);
  });
});
