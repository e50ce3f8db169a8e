/**
 * The ResourceProvider gRPC service of `pulumi-resource-opsledger`, served directly (as @pulumi/pulumi's own
 * dynamic-provider host does) rather than through `@pulumi/pulumi/provider`, whose server drops what this plugin
 * needs: Configure's values (explicit provider settings), a detailed diff, and the request's `timeout`
 * (docs/decisions/0026-plugin-serves-the-grpc-service-directly.md). Each method converts the request's Structs to plain
 * values, calls the adapter, and converts back; errors go to the engine as one-paragraph messages.
 */
import * as grpc from "@grpc/grpc-js";
import * as anyproto from "google-protobuf/google/protobuf/any_pb";
import * as emptyproto from "google-protobuf/google/protobuf/empty_pb";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as plugproto from "@pulumi/pulumi/proto/plugin_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import * as statusproto from "@pulumi/pulumi/proto/status_pb";
import * as adapter from "./adapter";
import type { PropertyDiffKind } from "./adapter";
import { PartialFailureError } from "../errors";
import { flushLogs } from "../runtime/context";
import { checkPluginVersion, checkSettings, configurePlugin, pluginCaller } from "./config";
import { PROVIDER_TYPE, schemaText, secretNames } from "../schema/schema";
import { wrapProperties } from "./secrets";

type Props = Record<string, unknown>;
type Callback<T> = grpc.sendUnaryData<T>;

const KIND: Readonly<Record<PropertyDiffKind, provproto.PropertyDiff.Kind>> = {
  add: provproto.PropertyDiff.Kind.ADD,
  addReplace: provproto.PropertyDiff.Kind.ADD_REPLACE,
  delete: provproto.PropertyDiff.Kind.DELETE,
  deleteReplace: provproto.PropertyDiff.Kind.DELETE_REPLACE,
  update: provproto.PropertyDiff.Kind.UPDATE,
  updateReplace: provproto.PropertyDiff.Kind.UPDATE_REPLACE,
};

function plain(s: structproto.Struct | undefined): Props {
  return s?.toJavaScript() ?? {};
}

function struct(props: Props): structproto.Struct {
  // Struct cannot hold undefined: a property the module left undefined is absent.
  return structproto.Struct.fromJavaScript(
    JSON.parse(JSON.stringify(props)) as Record<string, structproto.JavaScriptValue>,
  );
}

/**
 * An error as the engine shows it: the message only (it already names the resource, the cause and the fix). A partial
 * failure of a create or update (PartialFailureError) also carries ErrorResourceInitFailed in the status details
 * (`grpc-status-details-bin`, a google.rpc.Status), as @pulumi/pulumi's dynamic-provider host sends it: the engine
 * then records the id and outputs with the error.
 */
function grpcError(e: unknown, code = grpc.status.UNKNOWN): grpc.ServiceError {
  const message = e instanceof Error ? e.message : String(e);
  const metadata = new grpc.Metadata();
  if (e instanceof PartialFailureError) {
    const detail = new provproto.ErrorResourceInitFailed()
      .setId(e.id)
      .setProperties(struct({ ...e.properties }))
      .setReasonsList([...e.reasons]);
    const any = new anyproto.Any();
    any.pack(detail.serializeBinary(), "pulumirpc.ErrorResourceInitFailed");
    const status = new statusproto.Status().setCode(code).setMessage(message);
    status.addDetails(any); // (returns the detail, not the status)
    metadata.add("grpc-status-details-bin", Buffer.from(status.serializeBinary()));
  }
  return Object.assign(new Error(message), { code, details: message, metadata });
}

function failures(list: readonly { property: string; reason: string }[]): provproto.CheckFailure[] {
  return list.map((f) => new provproto.CheckFailure().setProperty(f.property).setReason(f.reason));
}

/** Runs `work` and answers with its value, or with its error. */
function answer<T>(callback: Callback<T>, work: () => Promise<T>): void {
  // Every message the call reported reaches the engine before its answer does (flushLogs).
  work().then(
    async (value) => {
      await flushLogs();
      callback(null, value);
    },
    async (e: unknown) => {
      await flushLogs();
      callback(grpcError(e));
    },
  );
}

function unimplemented(what: string): grpc.handleUnaryCall<unknown, unknown> {
  return (_call, callback) => {
    callback({ code: grpc.status.UNIMPLEMENTED, details: `${what} is not implemented by pulumi-resource-opsledger` });
  };
}

/** The service implementation, for a plugin of the given version. */
export function providerService(version: string): grpc.UntypedServiceImplementation {
  return {
    getPluginInfo: (_call: unknown, callback: Callback<plugproto.PluginInfo>) => {
      callback(null, new plugproto.PluginInfo().setVersion(version));
    },
    getSchema: (_call: unknown, callback: Callback<provproto.GetSchemaResponse>) => {
      callback(null, new provproto.GetSchemaResponse().setSchema(schemaText(version)));
    },
    checkConfig: (
      call: grpc.ServerUnaryCall<provproto.CheckRequest, unknown>,
      callback: Callback<provproto.CheckResponse>,
    ) => {
      const news = plain(call.request.getNews());
      // The settings the schema marks secret go back wrapped as secrets, whether or not they came so (a value from
      // plain stack config or the environment): the engine logs the answer's properties at -v=9, and a plain token
      // there is a token in the CLI's log files.
      const inputs = wrapProperties(news, secretNames(PROVIDER_TYPE, "inputs"));
      callback(
        null,
        new provproto.CheckResponse()
          .setInputs(struct(inputs))
          .setFailuresList(failures([...checkPluginVersion(news, version), ...checkSettings(news)])),
      );
    },
    diffConfig: (_call: unknown, callback: Callback<provproto.DiffResponse>) => {
      // A change of settings never replaces resources: the next call uses the new settings.
      callback(null, new provproto.DiffResponse().setChanges(provproto.DiffResponse.DiffChanges.DIFF_UNKNOWN));
    },
    configure: (
      call: grpc.ServerUnaryCall<provproto.ConfigureRequest, unknown>,
      callback: Callback<provproto.ConfigureResponse>,
    ) => {
      answer(callback, () => {
        const variables: Record<string, string> = {};
        call.request.getVariablesMap().forEach((v, k) => {
          variables[k] = v;
        });
        configurePlugin(plain(call.request.getArgs()), variables, call.request.getUrn());
        return Promise.resolve(
          new provproto.ConfigureResponse().setAcceptsecrets(true).setAcceptresources(false).setSupportspreview(false),
        );
      });
    },
    check: (
      call: grpc.ServerUnaryCall<provproto.CheckRequest, unknown>,
      callback: Callback<provproto.CheckResponse>,
    ) => {
      const r = call.request;
      answer(callback, async () => {
        const type = r.getType() || adapter.typeOfUrn(r.getUrn());
        const result = await adapter.check(type, r.getUrn(), plain(r.getOlds()), plain(r.getNews()));
        return new provproto.CheckResponse()
          .setInputs(struct(result.inputs))
          .setFailuresList(failures(result.failures));
      });
    },
    diff: (call: grpc.ServerUnaryCall<provproto.DiffRequest, unknown>, callback: Callback<provproto.DiffResponse>) => {
      const r = call.request;
      answer(callback, async () => {
        const type = r.getType() || adapter.typeOfUrn(r.getUrn());
        const d = await adapter.diff(
          type,
          r.getUrn(),
          r.getId(),
          plain(r.getOlds()),
          plain(r.getOldInputs()),
          plain(r.getNews()),
        );
        const resp = new provproto.DiffResponse()
          .setChanges(
            d.changes ? provproto.DiffResponse.DiffChanges.DIFF_SOME : provproto.DiffResponse.DiffChanges.DIFF_NONE,
          )
          .setReplacesList(d.replaces)
          .setDeletebeforereplace(d.deleteBeforeReplace)
          .setDiffsList(Object.keys(d.detailedDiff));
        const detailed = Object.entries(d.detailedDiff);
        if (detailed.length > 0) {
          resp.setHasdetaileddiff(true);
          for (const [key, kind] of detailed) {
            resp.getDetaileddiffMap().set(key, new provproto.PropertyDiff().setKind(KIND[kind]).setInputdiff(true));
          }
        }
        return resp;
      });
    },
    create: (
      call: grpc.ServerUnaryCall<provproto.CreateRequest, unknown>,
      callback: Callback<provproto.CreateResponse>,
    ) => {
      const r = call.request;
      answer(callback, async () => {
        const type = r.getType() || adapter.typeOfUrn(r.getUrn());
        const result = await adapter.create(type, r.getUrn(), plain(r.getProperties()), r.getTimeout());
        return new provproto.CreateResponse().setId(result.id).setProperties(struct(result.outs));
      });
    },
    read: (call: grpc.ServerUnaryCall<provproto.ReadRequest, unknown>, callback: Callback<provproto.ReadResponse>) => {
      const r = call.request;
      answer(callback, async () => {
        const type = r.getType() || adapter.typeOfUrn(r.getUrn());
        const result = await adapter.read(type, r.getUrn(), r.getId(), plain(r.getProperties()), plain(r.getInputs()));
        const resp = new provproto.ReadResponse().setId(result.id);
        if (result.id !== "") resp.setProperties(struct(result.props)).setInputs(struct(result.inputs));
        return resp;
      });
    },
    update: (
      call: grpc.ServerUnaryCall<provproto.UpdateRequest, unknown>,
      callback: Callback<provproto.UpdateResponse>,
    ) => {
      const r = call.request;
      answer(callback, async () => {
        const type = r.getType() || adapter.typeOfUrn(r.getUrn());
        const outs = await adapter.update(
          type,
          r.getUrn(),
          r.getId(),
          plain(r.getOlds()),
          plain(r.getNews()),
          r.getTimeout(),
        );
        return new provproto.UpdateResponse().setProperties(struct(outs));
      });
    },
    delete: (call: grpc.ServerUnaryCall<provproto.DeleteRequest, unknown>, callback: Callback<emptyproto.Empty>) => {
      const r = call.request;
      answer(callback, async () => {
        const type = r.getType() || adapter.typeOfUrn(r.getUrn());
        await adapter.remove(type, r.getUrn(), r.getId(), plain(r.getProperties()), r.getTimeout());
        return new emptyproto.Empty();
      });
    },
    invoke: (
      call: grpc.ServerUnaryCall<provproto.InvokeRequest, unknown>,
      callback: Callback<provproto.InvokeResponse>,
    ) => {
      const r = call.request;
      answer(callback, async () => {
        const result = await adapter.invoke(r.getTok(), plain(r.getArgs()), pluginCaller());
        const resp = new provproto.InvokeResponse().setFailuresList(failures(result.failures));
        if (result.result !== undefined) resp.setReturn(struct(result.result));
        return resp;
      });
    },
    cancel: (_call: unknown, callback: Callback<emptyproto.Empty>) => {
      callback(null, new emptyproto.Empty());
    },
    handshake: unimplemented("Handshake"),
    parameterize: unimplemented("Parameterize"),
    construct: unimplemented("Construct"),
    call: unimplemented("Call"),
    attach: unimplemented("Attach"),
    getMapping: unimplemented("GetMapping"),
    getMappings: unimplemented("GetMappings"),
    list: (call: grpc.ServerWritableStream<unknown, unknown>) => {
      call.emit("error", {
        code: grpc.status.UNIMPLEMENTED,
        details: "List is not implemented by pulumi-resource-opsledger",
      });
    },
  };
}

/** Serves the provider on 127.0.0.1 and resolves the port (the engine reads it from the plugin's stdout). */
export function serve(version: string): Promise<{ port: number; server: grpc.Server }> {
  const server = new grpc.Server({ "grpc.max_receive_message_length": 400 * 1024 * 1024 });
  server.addService(provrpc.ResourceProviderService, providerService(version));
  return new Promise((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) => {
      if (error) reject(error);
      else resolve({ port, server });
    });
  });
}
