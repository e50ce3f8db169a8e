import assert from "node:assert/strict";
import { startGoogleSandbox, type GoogleSandbox } from "../../../sandbox/google";
import { badRequestBody, call, DEPLOYER, moveUrl, notFoundBody, type CallOptions } from "./helpers";

interface BadCase {
  readonly name: string;
  readonly url: (s: GoogleSandbox) => string;
  readonly options?: CallOptions;
  readonly status: number;
  readonly body: unknown;
  readonly route?: string;
}

const UUID_RULE =
  "The requestId must be a valid UUID with the exception that zero UUID is not supported (00000000-0000-0000-0000-000000000000).";
const PARENT_RULE = "Must be 'folders/<folder_id>' or 'organizations/<organization_id>'.";
const POLICY = "700000000002";
const iam = (s: GoogleSandbox, pool: string) =>
  `${s.endpoints.iam}/v1/locations/global/workforcePools/${pool}:getIamPolicy`;
const dv = (s: GoogleSandbox, rest: string) => `${s.endpoints.displayVideo}/${rest}`;
const dm = (s: GoogleSandbox, project: string, d: string) =>
  `${s.endpoints.deploymentManager}/deploymentmanager/v2beta/projects/${project}/global/deployments/${d}`;
const post = (body?: string): CallOptions => ({ method: "POST", ...(body === undefined ? {} : { body }) });

const CASES: readonly BadCase[] = [
  {
    name: "a non-numeric firewall policy id",
    url: (s) => moveUrl(s, "abc", "parentId=folders/200000000002"),
    options: post(),
    status: 400,
    body: badRequestBody(
      "firewallPolicy",
      "Invalid value for field 'firewallPolicy': 'abc'. Must be a match of regex '(firewallPolicies/)?[0-9]{0,20}'",
      "invalid",
    ),
  },
  {
    name: "a move without parentId",
    url: (s) => moveUrl(s, POLICY, ""),
    options: post(),
    status: 400,
    body: badRequestBody("parentId", "Required field 'parentId' not specified", "required"),
  },
  {
    name: "a malformed parentId",
    url: (s) => moveUrl(s, POLICY, "parentId=folder/9"),
    options: post(),
    status: 400,
    body: badRequestBody("parentId", `Invalid value for field 'parentId': 'folder/9'. ${PARENT_RULE}`, "invalid"),
  },
  {
    name: "a malformed requestId",
    url: (s) => moveUrl(s, POLICY, "parentId=folders/200000000002&requestId=not-a-uuid"),
    options: post(),
    status: 400,
    body: badRequestBody("requestId", `Invalid value for field 'requestId': 'not-a-uuid'. ${UUID_RULE}`, "invalid"),
  },
  {
    name: "the zero UUID as requestId",
    url: (s) => moveUrl(s, POLICY, "parentId=folders/200000000002&requestId=00000000-0000-0000-0000-000000000000"),
    options: post(),
    status: 400,
    body: badRequestBody(
      "requestId",
      `Invalid value for field 'requestId': '00000000-0000-0000-0000-000000000000'. ${UUID_RULE}`,
      "invalid",
    ),
  },
  {
    name: "a body on the move",
    url: (s) => moveUrl(s, POLICY, "parentId=folders/200000000002"),
    options: post('{"parentId":"folders/200000000002"}'),
    status: 400,
    body: badRequestBody(
      "",
      "Invalid JSON payload received. POST compute.firewallPolicies.move takes no request body, but 35 bytes were sent.",
      "invalid",
    ),
  },
  {
    name: "an unknown query parameter",
    url: (s) => moveUrl(s, POLICY, "parentId=folders/200000000002&parent=folders/1"),
    options: post(),
    status: 400,
    body: badRequestBody(
      "parent",
      `Invalid JSON payload received. Unknown name "parent": Cannot bind query parameter. Field 'parent' could not be found in request message.`,
      "invalid",
    ),
  },
  {
    name: "a move of an unknown policy",
    url: (s) => moveUrl(s, "123", "parentId=folders/200000000002"),
    options: post(),
    status: 404,
    body: notFoundBody("The resource 'locations/global/firewallPolicies/123' was not found"),
  },
  {
    name: "a move to an unknown folder",
    url: (s) => moveUrl(s, POLICY, "parentId=folders/999"),
    options: post(),
    status: 404,
    body: notFoundBody("The resource 'folders/999' was not found"),
  },
  {
    name: "a malformed compute operation name",
    url: (s) => `${s.endpoints.compute}/compute/v1/locations/global/operations/Operation_1`,
    status: 400,
    body: badRequestBody(
      "operation",
      "Invalid value for field 'operation': 'Operation_1'. Must be a match of regex '[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?|[1-9][0-9]{0,19}'",
      "invalid",
    ),
  },
  {
    name: "requestedPolicyVersion 2",
    url: (s) => iam(s, "sandbox-partners"),
    options: post('{"options":{"requestedPolicyVersion":2}}'),
    status: 400,
    body: badRequestBody(
      "options.requested_policy_version",
      "Invalid requested policy version 2: valid values are 0, 1 and 3.",
    ),
  },
  {
    name: "an unknown field in GetIamPolicyRequest",
    url: (s) => iam(s, "sandbox-partners"),
    options: post('{"option":{}}'),
    status: 400,
    body: badRequestBody("option", 'Invalid JSON payload received. Unknown name "option": Cannot find field.'),
  },
  {
    name: "an unknown field in GetPolicyOptions",
    url: (s) => iam(s, "sandbox-partners"),
    options: post('{"options":{"version":3}}'),
    status: 400,
    body: badRequestBody(
      "options.version",
      `Invalid JSON payload received. Unknown name "version" at 'options': Cannot find field.`,
    ),
  },
  {
    name: "a body that is not JSON",
    url: (s) => iam(s, "sandbox-partners"),
    options: post("{options"),
    status: 400,
    body: badRequestBody("", "Invalid JSON payload received. Unexpected token."),
  },
  {
    name: "a malformed workforce pool id",
    url: (s) => iam(s, "Pool_1"),
    options: post(),
    status: 400,
    body: badRequestBody(
      "resource",
      "Invalid resource name 'locations/global/workforcePools/Pool_1': the workforce pool id must be 6 to 63 lower-case letters, digits or hyphens, start with a letter and not end with a hyphen.",
    ),
  },
  {
    name: "an unknown workforce pool",
    url: (s) => iam(s, "no-such-pool"),
    options: post(),
    status: 404,
    body: notFoundBody("Resource 'locations/global/workforcePools/no-such-pool' was not found."),
  },
  {
    name: "a non-numeric folder in an IAM operation name",
    url: (s) => `${s.endpoints.iam}/v3beta/folders/eng/locations/global/operations/op-1`,
    status: 400,
    body: badRequestBody(
      "name",
      "Invalid resource name 'folders/eng/locations/global/operations/op-1': the folder id must be a number.",
    ),
  },
  {
    name: "an unknown IAM operation",
    url: (s) => `${s.endpoints.iam}/v3beta/folders/200000000001/locations/global/operations/op-none`,
    status: 404,
    body: notFoundBody("Resource 'folders/200000000001/locations/global/operations/op-none' was not found."),
  },
  {
    name: "a deployment name that breaks the pattern",
    url: (s) => dm(s, "sandbox-project", "Web_Stack"),
    status: 400,
    body: badRequestBody(
      "deployment",
      "Invalid value for field 'deployment': 'Web_Stack'. Must be a match of regex '[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?'",
      "invalid",
    ),
  },
  {
    name: "an unknown deployment",
    url: (s) => dm(s, "sandbox-project", "missing"),
    status: 404,
    body: notFoundBody("The object 'projects/sandbox-project/global/deployments/missing' is not found."),
  },
  {
    name: "a body on inventorySourceGroups.delete",
    url: (s) => dv(s, "v1/inventorySourceGroups/5001?partnerId=1001"),
    options: { method: "DELETE", body: "{}" },
    status: 400,
    body: badRequestBody(
      "",
      "Invalid JSON payload received. DELETE displayvideo.inventorySourceGroups.delete takes no request body, but 2 bytes were sent.",
    ),
  },
  {
    name: "a subscription id with a dot",
    url: (s) => `${s.endpoints.workspaceEvents}/v1beta/subscriptions/bad.id`,
    status: 400,
    body: badRequestBody(
      "name",
      "Invalid resource name 'subscriptions/bad.id': the subscription id may contain only letters, digits, '-' and '_'.",
    ),
  },
  {
    name: "an unknown subscription",
    url: (s) => `${s.endpoints.workspaceEvents}/v1beta/subscriptions/none`,
    status: 404,
    body: notFoundBody("Resource 'subscriptions/none' was not found."),
  },
  {
    name: "a non-numeric inventory source group id",
    url: (s) => dv(s, "v1/inventorySourceGroups/abc?partnerId=1001"),
    status: 400,
    body: badRequestBody(
      "inventory_source_group_id",
      `Invalid value at 'inventory_source_group_id' (TYPE_INT64), "abc"`,
    ),
  },
  {
    name: "both partnerId and advertiserId",
    url: (s) => dv(s, "v1/inventorySourceGroups/5001?partnerId=1001&advertiserId=2001"),
    options: { method: "DELETE" },
    status: 400,
    body: badRequestBody(
      "owner",
      "Only one of 'partnerId' or 'advertiserId' may be set for inventory source group 5001; both were set.",
    ),
  },
  {
    name: "neither partnerId nor advertiserId",
    url: (s) => dv(s, "v1/inventorySourceGroups/5001"),
    options: { method: "DELETE" },
    status: 400,
    body: badRequestBody(
      "owner",
      "Exactly one of 'partnerId' or 'advertiserId' must be set to identify the owner of inventory source group 5001.",
    ),
  },
  {
    name: "a non-numeric partnerId",
    url: (s) => dv(s, "v3/inventorySourceGroups/5001?partnerId=p1"),
    status: 400,
    body: badRequestBody("partner_id", `Invalid value at 'partner_id' (TYPE_INT64), "p1"`),
  },
  {
    name: "an unknown inventory source group",
    url: (s) => dv(s, "v4/inventorySourceGroups/9999?partnerId=1001"),
    options: { method: "DELETE" },
    status: 404,
    body: notFoundBody("Resource 'inventorySourceGroups/9999' was not found."),
  },
  {
    name: "a non-numeric creative id",
    url: (s) => dv(s, "v3/advertisers/2001/creatives/c-1"),
    status: 400,
    body: badRequestBody("creative_id", `Invalid value at 'creative_id' (TYPE_INT64), "c-1"`),
  },
  {
    name: "a creative of another advertiser",
    url: (s) => dv(s, "v3/advertisers/2001/creatives/7003"),
    status: 404,
    body: notFoundBody("Resource 'advertisers/2001/creatives/7003' was not found."),
  },
  {
    name: "an unknown API version",
    url: (s) => dv(s, "v5/advertisers/2001/creatives/7001"),
    status: 404,
    body: notFoundBody(
      "The requested URL /displayvideo/v5/advertisers/2001/creatives/7001 was not found on this server (method GET).",
    ),
    route: "none",
  },
  {
    name: "a wrong method on a known path",
    url: (s) => `${s.endpoints.compute}/compute/v1/locations/global/firewallPolicies/${POLICY}`,
    options: { method: "DELETE" },
    status: 404,
    body: notFoundBody(
      `The requested URL /compute/compute/v1/locations/global/firewallPolicies/${POLICY} was not found on this server (method DELETE).`,
    ),
    route: "none",
  },
];

describe("Google sandbox input validation", () => {
  let sandbox: GoogleSandbox;
  let all: string;

  before(async () => {
    sandbox = await startGoogleSandbox();
  });
  after(async () => {
    await sandbox.close();
  });
  beforeEach(() => {
    sandbox.reset();
    all = sandbox.mintToken({
      principal: DEPLOYER,
      scopes: ["cloud-platform", "display-video", "chat.bot", "compute"],
    });
  });

  for (const c of CASES) {
    it(`answers ${c.name} with ${c.status} and changes nothing`, async () => {
      const res = await call(c.url(sandbox), { ...c.options, token: all });
      assert.equal(res.status, c.status);
      assert.deepEqual(res.body, c.body);
      const log = sandbox.requests();
      assert.equal(log.length, 1);
      assert.equal(log[0]?.status, c.status);
      if (c.route === "none") assert.equal(log[0].route, undefined);
      else assert.notEqual(log[0].route, undefined);
      assert.deepEqual(sandbox.audit(), []);
    });
  }

  it("answers percent-encoding that does not decode with 400", async () => {
    const res = await call(`${sandbox.endpoints.workspaceEvents}/v1beta/subscriptions/%E0%A4%A`, { token: all });
    assert.deepEqual(res.body, badRequestBody("", "Invalid percent-encoding in the URL path segment '%E0%A4%A'."));
  });

  it("accepts a policy id written as firewallPolicies/<id> in one encoded segment", async () => {
    const res = await call(
      `${sandbox.endpoints.compute}/compute/v1/locations/global/firewallPolicies/firewallPolicies%2F${POLICY}`,
      { token: all },
    );
    assert.deepEqual([res.status, res.body.id], [200, POLICY]);
  });

  it("serves every route both under its service prefix and at the sandbox root", async () => {
    const paths = [
      "/compute/v1/locations/global/firewallPolicies/700000000001",
      "/deploymentmanager/v2beta/projects/sandbox-project/global/deployments/web-stack",
      "/v1beta/subscriptions/chat-spaces-sandbox",
      "/v4/inventorySourceGroups/5001?partnerId=1001",
      "/v3beta/folders/200000000001/locations/global/operations/op-binding-created",
    ];
    for (const path of paths) assert.equal((await call(sandbox.url + path, { token: all })).status, 200, path);
    assert.deepEqual(
      sandbox.requests().map((r) => r.route),
      [
        "compute.firewallPolicies.get",
        "deploymentmanager.deployments.get",
        "workspaceevents.subscriptions.get",
        "displayvideo.inventorySourceGroups.get",
        "iam.operations.get",
      ],
    );
  });

  it("accepts the standard query parameters of every Google API", async () => {
    const res = await call(
      `${sandbox.endpoints.workspaceEvents}/v1beta/subscriptions/chat-spaces-sandbox?prettyPrint=false&alt=json&quotaUser=u1&$.xgafv=2`,
      { token: all },
    );
    assert.equal(res.status, 200);
    assert.deepEqual(sandbox.requests()[0]?.query, {
      prettyPrint: "false",
      alt: "json",
      quotaUser: "u1",
      "$.xgafv": "2",
    });
    const url = `${sandbox.endpoints.workspaceEvents}/v1beta/subscriptions/chat-spaces-sandbox`;
    const headers = { authorization: `Bearer ${all}` };
    const compact = await (await fetch(`${url}?prettyPrint=false`, { headers })).text();
    const pretty = await (await fetch(url, { headers })).text();
    assert.deepEqual([compact.includes("\n"), pretty.startsWith('{\n  "name": ')], [false, true]);
  });
});
