/**
 * Every timestamp the Google sandbox writes is in the form the Google service it stands for writes: Compute's
 * operations in Pacific time with offset and milliseconds, IAM's google.protobuf.Timestamps in ProtoJSON (UTC, a
 * fraction only when there is one), IAM Credentials' expireTime in whole seconds (what google-auth for Python parses).
 */
import assert from "node:assert/strict";
import { computeTimestamp, protoTimestamp, wholeSecondsTimestamp } from "../../../sandbox/google/clock";
import { createManualClock, fixture, startGoogleSandbox, type GoogleSandbox } from "../../../sandbox/google";
import { call, moveUrl, str } from "./helpers";

describe("Google sandbox timestamps", () => {
  it("writes Compute's form: Pacific time, its offset (summer and winter) and milliseconds", () => {
    assert.equal(computeTimestamp(Date.UTC(2026, 0, 1, 0, 0, 2)), "2025-12-31T16:00:02.000-08:00");
    assert.equal(computeTimestamp(Date.UTC(2026, 6, 1, 12, 30, 5, 42)), "2026-07-01T05:30:05.042-07:00");
    assert.equal(
      Date.parse(computeTimestamp(Date.UTC(2026, 2, 8, 10, 0, 0, 999))),
      Date.UTC(2026, 2, 8, 10, 0, 0, 999),
    );
  });

  it("writes google.protobuf.Timestamp as ProtoJSON does, and expireTime in whole seconds rounded down", () => {
    assert.equal(protoTimestamp(Date.UTC(2026, 0, 1)), "2026-01-01T00:00:00Z");
    assert.equal(protoTimestamp(Date.UTC(2026, 0, 1, 0, 0, 0, 250)), "2026-01-01T00:00:00.250Z");
    assert.equal(wholeSecondsTimestamp(Date.UTC(2026, 10, 28, 18, 49, 8, 258)), "2026-11-28T18:49:08Z");
  });

  describe("on the wire", () => {
    let sandbox: GoogleSandbox;
    const clock = createManualClock(Date.UTC(2026, 6, 1, 12, 0, 0, 125));
    before(async () => {
      sandbox = await startGoogleSandbox({ clock, moveDurationMs: 1000 });
    });
    after(async () => {
      await sandbox.close();
    });

    it("answers the move's operation, the IAM operation and a token's expireTime in their services' forms", async () => {
      const token = sandbox.mintToken({ principal: fixture.FIXTURE_USER, scopes: ["cloud-platform"] });
      const deployer = sandbox.mintToken({
        principal: "deployer@sandbox-project.iam.gserviceaccount.com",
        scopes: ["cloud-platform"],
      });
      const moved = await call(
        moveUrl(
          sandbox,
          "700000000002",
          "parentId=folders/200000000002&requestId=6f1c2b1e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
        ),
        { method: "POST", token: deployer },
      );
      assert.equal(moved.body.insertTime, "2026-07-01T05:00:00.125-07:00");
      sandbox.createIamOperation({
        name: "folders/200000000001/locations/global/operations/op-t",
        durationMs: 875,
        outcome: "response",
      });
      clock.advance(1000);
      const op = await call(`${sandbox.endpoints.iam}/v3beta/folders/200000000001/locations/global/operations/op-t`, {
        token,
      });
      const metadata = op.body.metadata as Record<string, unknown>;
      const binding = op.body.response as Record<string, unknown>;
      assert.deepEqual(
        [metadata["createTime"], metadata["endTime"], binding["createTime"], binding["updateTime"]],
        ["2026-07-01T12:00:00.125Z", "2026-07-01T12:00:01Z", "2026-07-01T12:00:00.125Z", "2026-07-01T12:00:01Z"],
      );
      const granted = await call(
        `${sandbox.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/reader@sandbox-project.iam.gserviceaccount.com:generateAccessToken`,
        { method: "POST", token, body: '{"scope":["https://www.googleapis.com/auth/compute"],"lifetime":"600s"}' },
      );
      assert.equal(str(granted.body.expireTime), "2026-07-01T12:10:01Z");
    });
  });
});
