import { strict as assert } from "node:assert";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import { serve } from "../../../provider/plugin/server";
import { call } from "../../helpers/grpc-unary";

describe("pulumi-resource-opsledger's gRPC service (provider/plugin/server.ts), in process", () => {
  let server: grpc.Server;
  let client: provrpc.ResourceProviderClient;
  before(async () => {
    const served = await serve("9.8.7");
    server = served.server;
    client = new provrpc.ResourceProviderClient(`127.0.0.1:${String(served.port)}`, grpc.credentials.createInsecure());
  });
  after(() => {
    client.close();
    server.forceShutdown();
  });

  it("answers GetPluginInfo and GetSchema with the package's version", async () => {
    const info = await call<emptyproto.Empty, plugproto.PluginInfo>(
      client.getPluginInfo.bind(client),
      new emptyproto.Empty(),
    );
    assert.equal(info.getVersion(), "9.8.7");
    const schema = await call<provproto.GetSchemaRequest, provproto.GetSchemaResponse>(
      client.getSchema.bind(client),
      new provproto.GetSchemaRequest(),
    );
    const parsed = JSON.parse(schema.getSchema()) as { name: string; version: string; resources: object };
    assert.equal(parsed.name, "opsledger");
    assert.equal(parsed.version, "9.8.7");
    assert.ok("opsledger:compute:FirewallPolicyMove" in parsed.resources);
  });

  it("answers CheckConfig with the secret settings wrapped as secrets, plain or wrapped as they came (once), the rest as they are", async () => {
    const SIG = "4dabf18193072939515e22adb298388d";
    const SECRET = "1b47061264138c4ac30d75fd1eb44270";
    const resp = await call<provproto.CheckRequest, provproto.CheckResponse>(
      client.checkConfig.bind(client),
      new provproto.CheckRequest().setNews(
        structproto.Struct.fromJavaScript({
          accessToken: "ya29.plain-token",
          project: "p",
        }),
      ),
    );
    assert.deepEqual(resp.getInputs()?.toJavaScript(), {
      accessToken: { [SIG]: SECRET, value: "ya29.plain-token" },
      project: "p",
    });
    assert.deepEqual(resp.getFailuresList(), []);
    const wrapped = { [SIG]: SECRET, value: '{"type":"service_account"}' };
    const again = await call<provproto.CheckRequest, provproto.CheckResponse>(
      client.checkConfig.bind(client),
      new provproto.CheckRequest().setNews(structproto.Struct.fromJavaScript({ credentials: wrapped })),
    );
    assert.deepEqual(again.getInputs()?.toJavaScript(), { credentials: wrapped });
  });

  it("accepts secrets in Configure and keeps no preview of its own", async () => {
    const resp = await call<provproto.ConfigureRequest, provproto.ConfigureResponse>(
      client.configure.bind(client),
      new provproto.ConfigureRequest()
        .setArgs(structproto.Struct.fromJavaScript({ project: "p" }))
        .setAcceptsecrets(true),
    );
    assert.deepEqual(
      [resp.getAcceptsecrets(), resp.getSupportspreview(), resp.getAcceptresources()],
      [true, false, false],
    );
  });

  it("returns check failures on the wire, and a detailed diff naming parentId", async () => {
    const urn = "urn:pulumi:dev::p::opsledger:compute:FirewallPolicyMove::edge";
    const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
      client.check.bind(client),
      new provproto.CheckRequest()
        .setUrn(urn)
        .setOlds(structproto.Struct.fromJavaScript({}))
        .setNews(structproto.Struct.fromJavaScript({ firewallPolicy: "700000000002", parentId: "projects/1" })),
    );
    assert.deepEqual(
      checked.getFailuresList().map((f) => f.getProperty()),
      ["parentId"],
    );
    const inputs = {
      __urn: urn,
      __generation: 1,
      __requestId: "r",
      firewallPolicy: "700000000002",
      parentId: "folders/3",
    };
    const diff = await call<provproto.DiffRequest, provproto.DiffResponse>(
      client.diff.bind(client),
      new provproto.DiffRequest()
        .setUrn(urn)
        .setId("locations/global/firewallPolicies/700000000002")
        .setOlds(structproto.Struct.fromJavaScript({ ...inputs, parent: "folders/3" }))
        .setOldInputs(structproto.Struct.fromJavaScript(inputs))
        .setNews(structproto.Struct.fromJavaScript({ ...inputs, __generation: 2, parentId: "folders/2" })),
    );
    assert.equal(diff.getChanges(), provproto.DiffResponse.DiffChanges.DIFF_SOME);
    assert.equal(diff.getHasdetaileddiff(), true);
    const detailed = diff.getDetaileddiffMap();
    assert.equal(detailed.getLength(), 1);
    assert.equal(detailed.get("parentId")?.getKind(), provproto.PropertyDiff.Kind.UPDATE);
  });

  it("answers an unknown token with an error naming it", async () => {
    await assert.rejects(
      call<provproto.InvokeRequest, provproto.InvokeResponse>(
        client.invoke.bind(client),
        new provproto.InvokeRequest().setTok("opsledger:iam:getNothing").setArgs(structproto.Struct.fromJavaScript({})),
      ),
      /unknown function opsledger:iam:getNothing; this plugin serves opsledger:iam:getWorkforcePoolIamPolicy/,
    );
  });
});
