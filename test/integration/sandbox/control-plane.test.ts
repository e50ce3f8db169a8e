import assert from "node:assert/strict";
import {
  createManualClock,
  DEFAULT_MANUAL_CLOCK_START_MS,
  DEFAULT_SEED,
  startGoogleSandbox,
  type GoogleSandbox,
  type ManualClock,
  type SandboxSeed,
} from "../../../sandbox/google";
import { badRequestBody, call, DEPLOYER, moveUrl, notFoundBody, str } from "./helpers";

const T0 = DEFAULT_MANUAL_CLOCK_START_MS;

describe("Google sandbox control plane", () => {
  let sandbox: GoogleSandbox;
  let clock: ManualClock;
  const cp = (path: string, method = "GET", body?: unknown) =>
    call(`${sandbox.url}/_sandbox/${path}`, {
      method,
      ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
    });

  before(async () => {
    clock = createManualClock();
    sandbox = await startGoogleSandbox({ clock, moveDurationMs: 1000, operationRetentionMs: 5000 });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(async () => {
    clock.set(T0);
    assert.deepEqual((await cp("reset", "POST")).body, {});
  });

  it("reports health with the service roots", async () => {
    const res = await cp("health");
    assert.deepEqual([res.status, res.body], [200, { status: "ok", url: sandbox.url, endpoints: sandbox.endpoints }]);
    assert.deepEqual(sandbox.requests(), [], "control-plane calls are not API requests");
  });

  it("mints tokens that API routes accept", async () => {
    const res = await cp("tokens", "POST", { principal: DEPLOYER, scopes: ["compute"], lifetimeSeconds: 120 });
    assert.equal(res.status, 200);
    assert.deepEqual([res.body.expires_in, res.body.token_type], [120, "Bearer"]);
    const move = await call(moveUrl(sandbox, "700000000001", "parentId=folders/200000000001"), {
      method: "POST",
      token: str(res.body.access_token),
    });
    assert.equal(move.status, 200);
    const bad = await cp("tokens", "POST", { principal: DEPLOYER, scopes: "compute" });
    assert.deepEqual(bad.body, badRequestBody("", "mintToken: scopes must be a list of strings"));
  });

  it("sets and clears faults, sets the move outcome, moves policies and lists the audit", async () => {
    const t = sandbox.mintToken({ principal: DEPLOYER, scopes: ["compute"] });
    const url = moveUrl(sandbox, "700000000004", "parentId=folders/200000000002");
    assert.deepEqual(
      (await cp("faults", "POST", [{ route: "compute.firewallPolicies.move", kind: "status", status: 503 }])).body,
      {},
    );
    assert.equal((await call(url, { method: "POST", token: t })).status, 503);
    assert.equal((await cp("faults", "DELETE")).status, 200);
    assert.equal((await cp("move-outcome", "POST", { kind: "quotaExceeded" })).status, 200);
    const op = await call(url, { method: "POST", token: t });
    clock.advance(1000);
    const done = await call(
      `${sandbox.endpoints.compute}/compute/v1/locations/global/operations/${str(op.body.name)}`,
      {
        token: t,
      },
    );
    assert.equal(done.body.error?.errors?.[0]?.code, "QUOTA_EXCEEDED");
    assert.equal(
      (await cp("firewall-policies/700000000004:setParent", "POST", { parent: "organizations/100000000001" })).status,
      200,
    );
    const audit = await cp("audit");
    assert.deepEqual(audit.body, {
      entries: [
        {
          seq: 1,
          timeMs: T0 + 1000,
          source: "control-plane",
          kind: "firewallPolicies.setParent",
          target: "firewallPolicies/700000000004",
          details: { from: "folders/200000000003", to: "organizations/100000000001" },
        },
      ],
    });
    const requests = await cp("requests");
    assert.deepEqual(requests.body, JSON.parse(JSON.stringify({ entries: sandbox.requests() })));
    assert.deepEqual(
      sandbox.requests().map((r) => [r.status, r.fault]),
      [
        [503, "status:503:before"],
        [200, undefined],
        [200, undefined],
      ],
    );
    const badParent = await cp("firewall-policies/700000000004:setParent", "POST", { parent: "folder/1" });
    assert.deepEqual(
      badParent.body,
      badRequestBody("", "setParent: parent 'folder/1' must be 'folders/<digits>' or 'organizations/<digits>'"),
    );
  });

  it("creates inventory source groups and IAM operations", async () => {
    assert.equal(
      (await cp("inventory-source-groups", "POST", { advertiserId: "2002", id: "5100", displayName: "New" })).status,
      200,
    );
    const dv = sandbox.mintToken({ principal: DEPLOYER, scopes: ["display-video", "cloud-platform"] });
    const group = await call(`${sandbox.endpoints.displayVideo}/v4/inventorySourceGroups/5100?advertiserId=2002`, {
      token: dv,
    });
    assert.deepEqual(group.body, {
      name: "inventorySourceGroups/5100",
      inventorySourceGroupId: "5100",
      displayName: "New",
    });
    const both = await cp("inventory-source-groups", "POST", {
      partnerId: "1001",
      advertiserId: "2002",
      id: "5101",
      displayName: "x",
    });
    assert.deepEqual(
      both.body,
      badRequestBody("", "putInventorySourceGroup: set exactly one of partnerId and advertiserId (the owner)"),
    );
    const name = "folders/200000000002/locations/global/operations/op-cp";
    const created = await cp("iam-operations", "POST", {
      name,
      durationMs: 2000,
      outcome: "error",
      error: { code: 7, message: "Caller lacks iam.policybindings.create." },
    });
    assert.equal(created.status, 200);
    const opUrl = `${sandbox.endpoints.iam}/v3beta/${name}`;
    assert.equal((await call(opUrl, { token: dv })).body.done, undefined);
    clock.advance(2000);
    const done = await call(opUrl, { token: dv });
    assert.deepEqual(
      [done.body.done, done.body.error],
      [true, { code: 7, message: "Caller lacks iam.policybindings.create." }],
    );
    clock.advance(5001);
    assert.deepEqual((await call(opUrl, { token: dv })).body, notFoundBody(`Resource '${name}' was not found.`));
    const malformed = await cp("iam-operations", "POST", {
      name: "folders/x/locations/global/operations/o",
      durationMs: 1,
      outcome: "response",
    });
    assert.deepEqual(
      malformed.body,
      badRequestBody(
        "",
        "createIamOperation: name 'folders/x/locations/global/operations/o' must be 'folders/<id>/locations/<location>/operations/<id>'",
      ),
    );
  });

  it("replaces the world with POST seed and rejects a malformed seed", async () => {
    const seed: SandboxSeed = {
      ...DEFAULT_SEED,
      firewallPolicies: [
        {
          id: "42",
          shortName: "only-one",
          parent: "organizations/100000000001",
          creationTimestamp: "2026-01-01T00:00:00Z",
        },
      ],
    };
    assert.equal((await cp("seed", "POST", seed)).status, 200);
    const t = sandbox.mintToken({ principal: DEPLOYER, scopes: ["compute"] });
    const base = `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies`;
    assert.equal((await call(`${base}/42`, { token: t })).body.shortName, "only-one");
    assert.equal((await call(`${base}/700000000001`, { token: t })).status, 404);
    const bad = await cp("seed", "POST", { ...DEFAULT_SEED, folders: [{ id: 1 }] });
    assert.deepEqual(bad.body, badRequestBody("", "seed: folders[0].id must be a string"));
    sandbox.seed(DEFAULT_SEED);
    assert.equal(
      (await call(`${base}/700000000001`, { token: sandbox.mintToken({ principal: DEPLOYER, scopes: ["compute"] }) }))
        .status,
      200,
    );
  });

  it("hands out a service account key file and answers unknown control routes with 404", async () => {
    const key = await cp(`service-accounts/${encodeURIComponent(DEPLOYER)}/key`);
    assert.deepEqual(
      [key.body.type, key.body.client_email, key.body.token_uri],
      ["service_account", DEPLOYER, `${sandbox.endpoints.oauth2}/token`],
    );
    const unknown = await cp("clock", "POST");
    assert.deepEqual(unknown.body, notFoundBody("The sandbox control plane has no route POST /_sandbox/clock."));
    const notJson = await cp("faults", "POST", "{rules");
    assert.deepEqual(notJson.body, badRequestBody("", "control plane: the request body is not valid JSON"));
  });

  it("keeps credentials out of the request log", async () => {
    const t = sandbox.mintToken({ principal: DEPLOYER, scopes: ["compute"] });
    await call(
      `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001?access_token=${t}&key=k1`,
      {
        token: t,
      },
    );
    const log = JSON.stringify(sandbox.requests());
    assert.equal(log.includes(t), false);
    assert.deepEqual(sandbox.requests()[0]?.query, { access_token: "REDACTED", key: "REDACTED" });
  });
});
