import assert from "node:assert/strict";
import { OpsLedgerError, isOpsLedgerError } from "../../../provider/errors";
import { formatDuration } from "../../../provider/errors/operations/operation-format";
import { OperationError } from "../../../provider/errors/operations/operation-error";
import {
  MAX_RENDERED_ERRORS,
  MAX_RENDERED_MAP_ENTRIES,
  describeOperation,
} from "../../../provider/errors/operations/operation-format";

describe("OperationError", () => {
  it("is an OpsLedgerError recognised by instanceof through the brand, even from another copy", () => {
    const error = new OperationError({ kind: "compute", operationName: "op-1", httpErrorStatusCode: 500 });
    assert.ok(error instanceof OperationError);
    assert.ok(error instanceof OpsLedgerError);
    assert.ok(isOpsLedgerError(error));
    assert.equal(error.name, "OperationError");
    assert.equal(OperationError.kind, "OperationError");
    const foreign: unknown = Object.defineProperty({}, Symbol.for("pulumi-opsledger.error-kinds"), {
      value: ["OperationError", "OpsLedgerError"],
    });
    assert.ok(foreign instanceof OperationError, "a copy from another package instance is recognised");
    assert.ok(!(new Error("x") instanceof OperationError));
  });

  it("lists at most MAX_RENDERED_ERRORS errors and counts the rest", () => {
    const errors = Array.from({ length: MAX_RENDERED_ERRORS + 2 }, (_, i) => ({ code: `E${i}`, message: `m${i}` }));
    const lines = new OperationError({ kind: "compute", operationName: "op-1", errors }).message.split("\n");
    assert.equal(lines.length, 1 + MAX_RENDERED_ERRORS + 1);
    assert.equal(lines[0], "Operation op-1 failed");
    assert.equal(lines[10], "  E9: m9");
    assert.equal(lines[11], "  ... and 2 more errors");
  });

  it("keeps each line short and single: long values are cut and newlines folded", () => {
    const long = `${"a".repeat(400)}\nsecond line`;
    const metadatas = Object.fromEntries(
      Array.from({ length: MAX_RENDERED_MAP_ENTRIES + 3 }, (_, i) => [`k${i}`, "v"]),
    );
    const error = new OperationError({
      kind: "compute",
      operationName: "op-1",
      errors: [{ code: "C", message: long, errorDetails: [{ errorInfo: { reason: "R", metadatas } }] }],
    });
    const lines = error.message.split("\n");
    assert.equal(lines[1], `  C: ${"a".repeat(297)}...`);
    assert.equal(lines[2], "    reason R {k0=v, k1=v, k2=v, k3=v, k4=v, k5=v, k6=v, k7=v, ... 3 more}");
  });

  it("renders missing fields readably", () => {
    const error = new OperationError({
      kind: "compute",
      errors: [{ errorDetails: [{ quotaInfo: {} }, { help: { links: [{}] } }, { localizedMessage: {} }] }],
    });
    assert.equal(
      error.message,
      [
        "Unnamed operation failed",
        "  ERROR: (no message)",
        "    quota metric ?",
        "    help:  <?>",
        "    message (?): ",
      ].join("\n"),
    );
    const rpc = new OperationError({ kind: "longrunning", operationName: "ops/1", status: { code: 99 } });
    assert.equal(rpc.message, "Operation ops/1 failed: code 99: (no message)");
  });
});

describe("describeOperation", () => {
  it("names the operation and the target without repeating the name", () => {
    assert.equal(describeOperation("op-1", "move of firewall policy 9"), "operation op-1 (move of firewall policy 9)");
    assert.equal(describeOperation("op-1", "operation op-1"), "operation op-1");
    assert.equal(describeOperation("op-1", undefined), "operation op-1");
    assert.equal(describeOperation(undefined, "move of x"), "unnamed operation (move of x)");
    assert.equal(describeOperation(undefined, undefined), "unnamed operation");
  });
});

describe("formatDuration", () => {
  it("uses ms, s, min and h as the size calls for", () => {
    assert.deepEqual(
      [0, 850, 1000, 12_345, 59_949, 60_000, 185_000, 3_599_000, 3_720_000, Infinity].map(formatDuration),
      ["0 ms", "850 ms", "1 s", "12.3 s", "59.9 s", "1 min 0 s", "3 min 5 s", "59 min 59 s", "1 h 2 min", "ever"],
    );
  });
});
