import { strict as assert } from "node:assert";
import { resetDeprecationWarnings } from "../../../provider/google/deprecations";
import { harness } from "./client-harness";

describe("Display & Video 360 deprecation warning", () => {
  it("warns once per process and version about sunset versions", async () => {
    resetDeprecationWarnings();
    const warnings: string[] = [];
    const h = harness([{ status: 200, body: {} }], { onWarning: (m) => warnings.push(m) });
    await h.client.call("displayvideo.inventorySourceGroups.delete", {
      inventorySourceGroupId: "5001",
      partnerId: "1001",
    });
    await h.client.call("displayvideo.inventorySourceGroups.get", {
      inventorySourceGroupId: "5001",
      partnerId: "1001",
    });
    await h.client.call("displayvideo.advertisers.creatives.get", {
      advertiserId: "1",
      creativeId: "2",
      apiVersion: "v4",
    });
    assert.deepEqual(warnings, [
      "Display & Video 360 API v1 is deprecated (sunset 2023-09-14 per Google); set opsledger:displayVideoApiVersion=v4 (same shapes)",
    ]);
    const other: string[] = [];
    const second = harness([{ status: 200, body: {} }], { onWarning: (m) => other.push(m) });
    await second.client.call("displayvideo.inventorySourceGroups.delete", {
      inventorySourceGroupId: "5001",
      partnerId: "1001",
    });
    assert.deepEqual(other, []);
  });
});
