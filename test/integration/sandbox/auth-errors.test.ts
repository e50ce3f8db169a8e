import assert from "node:assert/strict";
import {
  createManualClock,
  DEFAULT_MANUAL_CLOCK_START_MS,
  startGoogleSandbox,
  type GoogleSandbox,
  type ManualClock,
} from "../../../sandbox/google";
import { call, DEPLOYER, scope } from "./helpers";

interface RouteCase {
  readonly id: string;
  readonly method: string;
  readonly path: (sandbox: GoogleSandbox) => string;
  readonly body?: string;
  readonly service: string;
  readonly rpc: string;
  readonly scopes: readonly string[];
  /** Who calls; DEPLOYER unless set. */
  readonly principal?: string;
}

const WORKSPACE_EVENTS = [
  "chat.bot",
  "chat.memberships",
  "chat.memberships.readonly",
  "chat.messages",
  "chat.messages.reactions",
  "chat.messages.reactions.readonly",
  "chat.messages.readonly",
  "chat.spaces",
  "chat.spaces.readonly",
  "drive",
  "drive.file",
  "drive.metadata",
  "drive.metadata.readonly",
  "drive.readonly",
  "meetings.space.created",
  "meetings.space.readonly",
];

const ROUTES: readonly RouteCase[] = [
  {
    id: "iam.workforcePools.getIamPolicy",
    method: "POST",
    path: (s) => `${s.endpoints.iam}/v1/locations/global/workforcePools/sandbox-contractors:getIamPolicy`,
    body: "{}",
    service: "iam.googleapis.com",
    rpc: "google.iam.admin.v1.WorkforcePools.GetIamPolicy",
    scopes: ["cloud-platform", "iam"],
  },
  {
    id: "iam.operations.get",
    method: "GET",
    path: (s) => `${s.endpoints.iam}/v3beta/folders/200000000001/locations/global/operations/op-binding-created`,
    service: "iam.googleapis.com",
    rpc: "google.longrunning.Operations.GetOperation",
    scopes: ["cloud-platform", "iam"],
  },
  {
    id: "compute.firewallPolicies.move",
    method: "POST",
    path: (s) =>
      `${s.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000002/move?parentId=folders/200000000003`,
    service: "compute.googleapis.com",
    rpc: "compute.v1.FirewallPoliciesService.Move",
    scopes: ["compute", "cloud-platform"],
  },
  {
    id: "compute.firewallPolicies.get",
    method: "GET",
    path: (s) => `${s.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000002`,
    service: "compute.googleapis.com",
    rpc: "compute.v1.FirewallPoliciesService.Get",
    scopes: ["compute", "compute.readonly", "cloud-platform"],
  },
  {
    id: "compute.globalOrganizationOperations.get",
    method: "GET",
    path: (s) => `${s.endpoints.compute}/compute/v1/locations/global/operations/operation-unknown`,
    service: "compute.googleapis.com",
    rpc: "compute.v1.GlobalOrganizationOperationsService.Get",
    scopes: ["compute", "compute.readonly", "cloud-platform"],
  },
  {
    id: "deploymentmanager.deployments.get",
    method: "GET",
    path: (s) =>
      `${s.endpoints.deploymentManager}/deploymentmanager/v2beta/projects/sandbox-project/global/deployments/web-stack`,
    service: "deploymentmanager.googleapis.com",
    rpc: "deploymentmanager.v2beta.DeploymentsService.Get",
    scopes: ["cloud-platform", "cloud-platform.read-only", "ndev.cloudman", "ndev.cloudman.readonly"],
  },
  {
    id: "workspaceevents.subscriptions.get",
    method: "GET",
    path: (s) => `${s.endpoints.workspaceEvents}/v1beta/subscriptions/chat-spaces-sandbox`,
    service: "workspaceevents.googleapis.com",
    rpc: "google.apps.events.subscriptions.v1beta.SubscriptionsService.GetSubscription",
    scopes: WORKSPACE_EVENTS,
  },
  {
    id: "displayvideo.inventorySourceGroups.delete",
    method: "DELETE",
    path: (s) => `${s.endpoints.displayVideo}/v1/inventorySourceGroups/5005?partnerId=1001`,
    service: "displayvideo.googleapis.com",
    rpc: "google.ads.displayvideo.v1.InventorySourceGroupService.DeleteInventorySourceGroup",
    scopes: ["display-video"],
  },
  {
    id: "displayvideo.inventorySourceGroups.get",
    method: "GET",
    path: (s) => `${s.endpoints.displayVideo}/v4/inventorySourceGroups/5001?partnerId=1001`,
    service: "displayvideo.googleapis.com",
    rpc: "google.ads.displayvideo.v4.InventorySourceGroupService.GetInventorySourceGroup",
    scopes: ["display-video"],
  },
  {
    id: "displayvideo.advertisers.creatives.get",
    method: "GET",
    path: (s) => `${s.endpoints.displayVideo}/v3/advertisers/2001/creatives/7001`,
    service: "displayvideo.googleapis.com",
    rpc: "google.ads.displayvideo.v3.CreativeService.GetCreative",
    scopes: ["display-video"],
  },
  {
    id: "iamcredentials.serviceAccounts.generateAccessToken",
    method: "POST",
    path: (s) =>
      `${s.endpoints.iamCredentials}/v1/projects/-/serviceAccounts/reader@sandbox-project.iam.gserviceaccount.com:generateAccessToken`,
    body: '{"scope":["https://www.googleapis.com/auth/cloud-platform"]}',
    service: "iamcredentials.googleapis.com",
    rpc: "google.iam.credentials.v1.IAMCredentials.GenerateAccessToken",
    scopes: ["iam", "cloud-platform"],
    principal: "alice@sandbox.example.com",
  },
];

const DEVCONSOLE = "See https://developers.google.com/identity/sign-in/web/devconsole-project.";

describe("Google sandbox authentication and scopes", () => {
  let sandbox: GoogleSandbox;
  let clock: ManualClock;

  before(async () => {
    clock = createManualClock();
    sandbox = await startGoogleSandbox({ clock });
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    clock.set(DEFAULT_MANUAL_CLOCK_START_MS);
    sandbox.reset();
  });

  for (const route of ROUTES) {
    it(`rejects ${route.id} with the exact 403 when the token has no accepted scope`, async () => {
      const wrong = sandbox.mintToken({ principal: DEPLOYER, scopes: ["userinfo.email", "gmail.readonly"] });
      const res = await call(route.path(sandbox), {
        method: route.method,
        token: wrong,
        ...(route.body === undefined ? {} : { body: route.body }),
      });
      assert.equal(res.status, 403);
      assert.deepEqual(res.body, {
        error: {
          code: 403,
          message: "Request had insufficient authentication scopes.",
          errors: [{ message: "Insufficient Permission", domain: "global", reason: "insufficientPermissions" }],
          status: "PERMISSION_DENIED",
          details: [
            {
              "@type": "type.googleapis.com/google.rpc.ErrorInfo",
              reason: "ACCESS_TOKEN_SCOPE_INSUFFICIENT",
              domain: "googleapis.com",
              metadata: { service: route.service, method: route.rpc },
            },
          ],
        },
      });
      assert.equal(
        res.headers.get("www-authenticate"),
        `Bearer realm="https://accounts.google.com/", error="insufficient_scope", scope="${route.scopes.map(scope).join(" ")}"`,
      );
      assert.deepEqual(
        sandbox.requests().map((r) => [r.route, r.status, r.principal]),
        [[route.id, 403, DEPLOYER]],
      );
      assert.deepEqual(sandbox.audit(), [], "a rejected request changes nothing");
    });

    it(`accepts ${route.id} with each of its ${route.scopes.length} scopes`, async () => {
      const statuses: number[] = [];
      for (const name of route.scopes) {
        sandbox.reset();
        const res = await call(route.path(sandbox), {
          method: route.method,
          token: sandbox.mintToken({ principal: route.principal ?? DEPLOYER, scopes: ["userinfo.email", name] }),
          ...(route.body === undefined ? {} : { body: route.body }),
        });
        statuses.push(res.status);
      }
      const expected = route.id === "compute.globalOrganizationOperations.get" ? 404 : 200;
      assert.deepEqual(
        statuses,
        route.scopes.map(() => expected),
      );
    });
  }

  it("answers a request without credentials with 401 CREDENTIALS_MISSING", async () => {
    const res = await call(`${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/700000000001`);
    const message = `Request is missing required authentication credential. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${DEVCONSOLE}`;
    assert.equal(res.status, 401);
    assert.deepEqual(res.body, {
      error: {
        code: 401,
        message,
        errors: [
          {
            message: "Login Required.",
            domain: "global",
            reason: "required",
            location: "Authorization",
            locationType: "header",
          },
        ],
        status: "UNAUTHENTICATED",
        details: [
          {
            "@type": "type.googleapis.com/google.rpc.ErrorInfo",
            reason: "CREDENTIALS_MISSING",
            domain: "googleapis.com",
            metadata: { service: "compute.googleapis.com", method: "compute.v1.FirewallPoliciesService.Get" },
          },
        ],
      },
    });
    assert.equal(res.headers.get("www-authenticate"), 'Bearer realm="https://accounts.google.com/"');
    assert.deepEqual(sandbox.requests()[0], {
      method: "GET",
      path: "/compute/compute/v1/locations/global/firewallPolicies/700000000001",
      query: {},
      status: 401,
      route: "compute.firewallPolicies.get",
    });
  });

  it("answers an unknown token with 401 ACCESS_TOKEN_TYPE_UNSUPPORTED and an expired one with ACCESS_TOKEN_EXPIRED", async () => {
    const url = `${sandbox.endpoints.workspaceEvents}/v1beta/subscriptions/chat-spaces-sandbox`;
    const unknown = await call(url, { token: "ya29.not-issued-by-the-sandbox" });
    assert.equal(unknown.status, 401);
    assert.equal(unknown.body.error?.status, "UNAUTHENTICATED");
    assert.equal(
      unknown.body.error.message,
      `Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. ${DEVCONSOLE}`,
    );
    assert.deepEqual(unknown.body.error.errors, [
      {
        message: "Invalid Credentials",
        domain: "global",
        reason: "authError",
        location: "Authorization",
        locationType: "header",
      },
    ]);
    assert.equal(unknown.body.error.details?.[0]?.reason, "ACCESS_TOKEN_TYPE_UNSUPPORTED");
    assert.equal(
      unknown.headers.get("www-authenticate"),
      'Bearer realm="https://accounts.google.com/", error="invalid_token"',
    );

    const shortLived = sandbox.mintToken({ principal: DEPLOYER, scopes: ["chat.bot"], lifetimeSeconds: 60 });
    assert.equal((await call(url, { token: shortLived })).status, 200);
    clock.advance(60_000);
    const expired = await call(url, { token: shortLived });
    assert.equal(expired.status, 401);
    assert.equal(expired.body.error?.details?.[0]?.reason, "ACCESS_TOKEN_EXPIRED");
    const basic = await call(url, { headers: { authorization: "Basic dXNlcjpwYXNz" } });
    assert.equal(basic.body.error?.details?.[0]?.reason, "ACCESS_TOKEN_TYPE_UNSUPPORTED");
  });

  it("forgets every token on reset()", async () => {
    const url = `${sandbox.endpoints.workspaceEvents}/v1beta/subscriptions/chat-spaces-sandbox`;
    const t = sandbox.mintToken({ principal: DEPLOYER, scopes: ["chat.bot"] });
    assert.equal((await call(url, { token: t })).status, 200);
    sandbox.reset();
    const after = await call(url, { token: t });
    assert.deepEqual([after.status, after.body.error?.details?.[0]?.reason], [401, "ACCESS_TOKEN_TYPE_UNSUPPORTED"]);
  });
});
