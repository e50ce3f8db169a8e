/**
 * The two endpoints no googleapis Node client covers (IAM v3beta folders.locations.operations.get, Workspace Events
 * v1beta subscriptions.get), checked against what Google publishes about them (test/fixtures
 * google-discovery-methods.json, in Discovery form, naming its sources): our client's requests (the endpoint table's
 * method, path template and parameters; the URL it sends, built from the template; no body; names outside the
 * parameter's pattern refused before sending) and the sandbox's responses (every field declared by the schema and
 * typed as declared).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import axios from "axios";
import { ValidationError } from "../../../provider/errors";
import { type EndpointId } from "../../../provider/google/endpoint-types";
import { getEndpoint } from "../../../provider/google/endpoints";
import { fixture, startGoogleSandbox, type GoogleSandbox } from "../../../sandbox/google";
import { seedWithOperationStillRunning } from "../../helpers/sandbox-config";
import { DEPLOYER, sandboxClient } from "../google/helpers";

interface SchemaNode {
  readonly $ref?: string;
  readonly type?: string;
  readonly format?: string;
  readonly enum?: readonly string[];
  readonly items?: SchemaNode;
  readonly properties?: Readonly<Record<string, SchemaNode>>;
  readonly additionalProperties?: SchemaNode;
}

interface DiscoveryMethod {
  readonly ourEndpoint: EndpointId;
  readonly path: string;
  readonly httpMethod: string;
  readonly parameterOrder: readonly string[];
  readonly parameters: Readonly<Record<string, { location: string; required: boolean; type: string; pattern: string }>>;
  readonly request: null;
  readonly response: { readonly $ref: string };
}

interface DiscoveryFixture {
  readonly methods: Readonly<Record<string, DiscoveryMethod>>;
  readonly schemas: Readonly<Record<string, SchemaNode>>;
}

const DISCOVERY = JSON.parse(
  fs.readFileSync(path.resolve(__dirname, "../../../../test/fixtures/google-discovery-methods.json"), "utf8"),
) as DiscoveryFixture;

/** RFC 6570 as Discovery uses it: `{+name}` keeps reserved characters (the slashes), `{name}` encodes them. */
function expand(template: string, params: Readonly<Record<string, string>>): string {
  return template.replace(/\{(\+?)(\w+)\}/g, (_m, plus: string, name: string) => {
    const value = params[name] ?? "";
    return plus === "+" ? encodeURI(value) : encodeURIComponent(value);
  });
}

const DATETIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;
const DURATION = /^-?\d+(\.\d{1,9})?s$/;

/** Where `value` departs from `node`: unknown fields, wrong types, values outside an enum or format. */
function schemaErrors(value: unknown, node: SchemaNode, at: string): string[] {
  if (node.$ref !== undefined) {
    const target = DISCOVERY.schemas[node.$ref];
    return target === undefined ? [`${at}: no schema ${node.$ref}`] : schemaErrors(value, target, at);
  }
  switch (node.type) {
    case "any":
      return [];
    case "string":
      if (typeof value !== "string") return [`${at}: ${typeof value}, not a string`];
      if (node.enum !== undefined && !node.enum.includes(value)) return [`${at}: '${value}' is not in the enum`];
      if (node.format === "google-datetime" && !DATETIME.test(value)) return [`${at}: '${value}' is not a datetime`];
      if (node.format === "google-duration" && !DURATION.test(value)) return [`${at}: '${value}' is not a duration`];
      return [];
    case "boolean":
      return typeof value === "boolean" ? [] : [`${at}: ${typeof value}, not a boolean`];
    case "integer":
      return Number.isInteger(value) && Math.abs(value as number) < 2 ** 31 ? [] : [`${at}: not an int32`];
    case "array":
      return Array.isArray(value)
        ? value.flatMap((v, i) => schemaErrors(v, node.items ?? {}, `${at}[${String(i)}]`))
        : [`${at}: not an array`];
    case "object": {
      if (typeof value !== "object" || value === null || Array.isArray(value)) return [`${at}: not an object`];
      const entries = Object.entries(value as Record<string, unknown>);
      if (node.properties === undefined) {
        return entries.flatMap(([k, v]) => schemaErrors(v, node.additionalProperties ?? {}, `${at}.${k}`));
      }
      const properties = node.properties;
      return entries.flatMap(([k, v]) => {
        const property = properties[k];
        return property === undefined
          ? [`${at}.${k}: not a field of the schema`]
          : schemaErrors(v, property, `${at}.${k}`);
      });
    }
    default:
      return [`${at}: the schema has no type`];
  }
}

interface Sample {
  readonly name: string;
  /** Fields the response must carry (beyond being declared and typed). */
  readonly present: readonly string[];
}

const SUBSCRIPTION_FIELDS = [
  "name",
  "uid",
  "targetResource",
  "eventTypes",
  "notificationEndpoint",
  "state",
  "authority",
  "createTime",
  "updateTime",
  "expireTime",
  "etag",
];
const CASES: readonly {
  readonly method: string;
  readonly service: "iam" | "workspaceEvents";
  readonly samples: readonly Sample[];
  /** Names the parameter's pattern refuses. */
  readonly offPattern: readonly string[];
}[] = [
  {
    method: "iam.folders.locations.operations.get",
    service: "iam",
    samples: [
      { name: fixture.FIXTURE_IAM_OPERATIONS.done, present: ["name", "metadata", "done", "response"] },
      { name: fixture.FIXTURE_IAM_OPERATIONS.failed, present: ["name", "metadata", "done", "error"] },
      { name: fixture.FIXTURE_IAM_OPERATIONS.running, present: ["name", "metadata"] },
    ],
    offPattern: [
      "projects/p/locations/global/operations/o",
      "folders/1/locations/global/operations",
      "folders/1/locations/global/operations/a/b",
      "folders//locations/global/operations/o",
    ],
  },
  {
    method: "workspaceevents.subscriptions.get",
    service: "workspaceEvents",
    samples: [
      { name: "subscriptions/chat-spaces-sandbox", present: [...SUBSCRIPTION_FIELDS, "payloadOptions"] },
      { name: "subscriptions/meet-sandbox-suspended", present: [...SUBSCRIPTION_FIELDS, "suspensionReason"] },
    ],
    offPattern: ["subscriptions/", "subscriptions/a/b", "spaces/AAAA", "subscriptions"],
  },
];

describe("the endpoints without a googleapis client, against Google's published Discovery facts", () => {
  let sandbox: GoogleSandbox;
  let token: string;

  before(async () => {
    sandbox = await startGoogleSandbox({ seed: seedWithOperationStillRunning() });
  });
  beforeEach(() => {
    sandbox.reset();
    token = sandbox.mintToken({
      principal: DEPLOYER,
      scopes: ["cloud-platform", "chat.spaces.readonly", "meetings.space.readonly"],
    });
  });
  after(async () => {
    await sandbox.close();
  });

  it("the fixture describes both methods and every schema it refers to", () => {
    assert.deepEqual(
      Object.keys(DISCOVERY.methods),
      CASES.map((c) => c.method),
    );
    for (const name of ["GoogleLongrunningOperation", "GoogleRpcStatus", "Subscription"]) {
      assert.ok(DISCOVERY.schemas[name]?.properties !== undefined, name);
    }
  });

  for (const c of CASES) {
    const method = (): DiscoveryMethod => {
      const m = DISCOVERY.methods[c.method];
      assert.ok(m !== undefined, c.method);
      return m;
    };

    it(`${c.method}: our endpoint table has its HTTP method, path template, path parameters and empty body`, () => {
      const m = method();
      const ours = getEndpoint(m.ourEndpoint);
      assert.deepEqual([ours.method, ours.pathTemplate, ours.body], [m.httpMethod, m.path, "empty"]);
      assert.equal(m.request, null);
      assert.deepEqual(
        ours.params.filter((p) => p.location === "path").map((p) => [p.name, p.required]),
        m.parameterOrder.map((name) => [name, m.parameters[name]?.required]),
      );
    });

    it(`${c.method}: our client sends ${c.samples.length} names as the template expands them, no body; refuses names off the pattern`, async () => {
      const m = method();
      const pattern = new RegExp(m.parameters["name"]?.pattern ?? "^$");
      const sent: { method: string; url: string; data: unknown }[] = [];
      const transport = axios.create();
      transport.interceptors.request.use((config) => {
        sent.push({ method: (config.method ?? "").toUpperCase(), url: config.url ?? "", data: config.data });
        return config;
      });
      const { client } = sandboxClient(sandbox, { accessToken: token }, { axios: transport });
      const root = sandbox.endpoints[c.service];
      for (const sample of c.samples) {
        assert.match(sample.name, pattern);
        await client.call(m.ourEndpoint, { name: sample.name });
      }
      assert.deepEqual(
        sent,
        c.samples.map((s) => ({
          method: m.httpMethod,
          url: `${root}/${expand(m.path, { name: s.name })}`,
          data: undefined,
        })),
      );
      for (const name of c.offPattern) {
        assert.doesNotMatch(name, pattern);
        await assert.rejects(client.call(m.ourEndpoint, { name }), ValidationError);
      }
      assert.equal(sent.length, c.samples.length, "a name off the pattern was sent");
    });

    it(`${c.method}: the sandbox answers with the response schema's fields, typed as declared`, async () => {
      const m = method();
      for (const sample of c.samples) {
        const url = `${sandbox.endpoints[c.service]}/${expand(m.path, { name: sample.name })}`;
        const res = await fetch(url, { method: m.httpMethod, headers: { authorization: `Bearer ${token}` } });
        assert.equal(res.status, 200, url);
        const body = (await res.json()) as Record<string, unknown>;
        assert.deepEqual(schemaErrors(body, m.response, m.response.$ref), [], sample.name);
        assert.deepEqual(
          sample.present.filter((f) => body[f] === undefined),
          [],
          `${sample.name} lacks fields`,
        );
        assert.equal(body["name"], sample.name);
      }
    });
  }
});
