import assert from "node:assert/strict";
import { startGoogleSandbox, type GoogleSandbox } from "../../../sandbox/google";
import { call, DEPLOYER, forbiddenBody } from "./helpers";

type Owner = `partnerId=${string}` | `advertiserId=${string}`;

interface Row {
  readonly group: string;
  readonly caller: Owner;
  readonly status: number;
  readonly message?: string;
}

const ONLY_OWNING_PARTNER_WRITES = "only the owning partner can modify a partner-owned group.";
const PARENT_PARTNER = "it is owned by an advertiser, and a parent partner has no access to advertiser-owned groups.";
const ONLY_OWNING_ADVERTISER = "only the owning advertiser can access an advertiser-owned group.";

/** 5001: partner 1001 (shared with advertiser 2001). 5002: advertiser 2001 (partner 1001). 5004: advertiser 2003. */
const DELETE_MATRIX: readonly Row[] = [
  { group: "5001", caller: "partnerId=1001", status: 200 },
  {
    group: "5001",
    caller: "partnerId=1002",
    status: 403,
    message: `Partner 1002 has no write access to inventory source group 5001: ${ONLY_OWNING_PARTNER_WRITES}`,
  },
  {
    group: "5001",
    caller: "advertiserId=2001",
    status: 403,
    message: `Advertiser 2001 has no write access to inventory source group 5001: ${ONLY_OWNING_PARTNER_WRITES}`,
  },
  {
    group: "5001",
    caller: "advertiserId=2002",
    status: 403,
    message: `Advertiser 2002 has no write access to inventory source group 5001: ${ONLY_OWNING_PARTNER_WRITES}`,
  },
  { group: "5002", caller: "advertiserId=2001", status: 200 },
  {
    group: "5002",
    caller: "partnerId=1001",
    status: 403,
    message: `Partner 1001 has no access to inventory source group 5002: ${PARENT_PARTNER}`,
  },
  {
    group: "5002",
    caller: "partnerId=1002",
    status: 403,
    message: `Partner 1002 has no access to inventory source group 5002: ${ONLY_OWNING_ADVERTISER}`,
  },
  {
    group: "5002",
    caller: "advertiserId=2002",
    status: 403,
    message: `Advertiser 2002 has no access to inventory source group 5002: ${ONLY_OWNING_ADVERTISER}`,
  },
  { group: "5004", caller: "advertiserId=2003", status: 200 },
  {
    group: "5004",
    caller: "partnerId=1002",
    status: 403,
    message: `Partner 1002 has no access to inventory source group 5004: ${PARENT_PARTNER}`,
  },
  {
    group: "5001",
    caller: "partnerId=9999",
    status: 403,
    message: "Partner 9999 does not exist or the caller has no access to it.",
  },
];

const GET_MATRIX: readonly Row[] = [
  { group: "5001", caller: "partnerId=1001", status: 200 },
  { group: "5001", caller: "advertiserId=2001", status: 200 },
  {
    group: "5001",
    caller: "advertiserId=2002",
    status: 403,
    message:
      "Advertiser 2002 has no access to inventory source group 5001: only the owning partner can read a partner-owned group unless it was shared with the advertiser.",
  },
  {
    group: "5001",
    caller: "partnerId=1002",
    status: 403,
    message:
      "Partner 1002 has no access to inventory source group 5001: only the owning partner can read a partner-owned group unless it was shared with the advertiser.",
  },
  { group: "5002", caller: "advertiserId=2001", status: 200 },
  {
    group: "5002",
    caller: "partnerId=1001",
    status: 403,
    message: `Partner 1001 has no access to inventory source group 5002: ${PARENT_PARTNER}`,
  },
  {
    group: "5002",
    caller: "advertiserId=2003",
    status: 403,
    message: `Advertiser 2003 has no access to inventory source group 5002: ${ONLY_OWNING_ADVERTISER}`,
  },
  {
    group: "5003",
    caller: "advertiserId=9999",
    status: 403,
    message: "Advertiser 9999 does not exist or the caller has no access to it.",
  },
];

describe("Google sandbox DV360 ownership", () => {
  let sandbox: GoogleSandbox;
  let dv: string;

  before(async () => {
    sandbox = await startGoogleSandbox();
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
    dv = sandbox.mintToken({ principal: DEPLOYER, scopes: ["display-video"] });
  });

  for (const row of DELETE_MATRIX) {
    it(`answers DELETE of group ${row.group} with ${row.caller} with ${row.status}`, async () => {
      const url = `${sandbox.endpoints.displayVideo}/v4/inventorySourceGroups/${row.group}?${row.caller}`;
      const res = await call(url, { method: "DELETE", token: dv });
      assert.equal(res.status, row.status);
      const still = await call(
        `${sandbox.endpoints.displayVideo}/v4/inventorySourceGroups/${row.group}?${row.caller}`,
        {
          token: dv,
        },
      );
      if (row.status === 200) {
        assert.deepEqual(res.body, {});
        assert.equal(still.status, 404, "the group is gone");
        assert.deepEqual(
          sandbox.audit().map((e) => [e.kind, e.target]),
          [["inventorySourceGroups.delete", `inventorySourceGroups/${row.group}`]],
        );
      } else {
        assert.deepEqual(res.body, forbiddenBody(row.message ?? ""));
        assert.deepEqual(sandbox.audit(), []);
      }
    });
  }

  for (const row of GET_MATRIX) {
    it(`answers GET of group ${row.group} with ${row.caller} with ${row.status}`, async () => {
      const res = await call(`${sandbox.endpoints.displayVideo}/v2/inventorySourceGroups/${row.group}?${row.caller}`, {
        token: dv,
      });
      assert.equal(res.status, row.status);
      if (row.status === 200) assert.equal(res.body.inventorySourceGroupId, row.group);
      else assert.deepEqual(res.body, forbiddenBody(row.message ?? ""));
    });
  }

  it("re-creates a deleted group with putInventorySourceGroup and audits both changes", async () => {
    const url = `${sandbox.endpoints.displayVideo}/v4/inventorySourceGroups/5005?partnerId=1001`;
    assert.equal((await call(url, { method: "DELETE", token: dv })).status, 200);
    sandbox.putInventorySourceGroup({ partnerId: "1001", id: "5005", displayName: "Restored supply" });
    const res = await call(url, { token: dv });
    assert.deepEqual(res.body, {
      name: "inventorySourceGroups/5005",
      inventorySourceGroupId: "5005",
      displayName: "Restored supply",
    });
    assert.deepEqual(
      sandbox.audit().map((e) => [e.seq, e.source, e.kind, e.target]),
      [
        [1, "api", "inventorySourceGroups.delete", "inventorySourceGroups/5005"],
        [2, "control-plane", "inventorySourceGroups.put", "inventorySourceGroups/5005"],
      ],
    );
    assert.throws(() => {
      sandbox.putInventorySourceGroup({ advertiserId: "7", id: "5006", displayName: "x" });
    }, /^SandboxInputError: putInventorySourceGroup: advertiser '7' does not exist$/);
  });
});
