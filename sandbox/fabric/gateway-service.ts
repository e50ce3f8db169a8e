/**
 * The gateway.Gateway gRPC service (and the peers' Endorser service) on @grpc/grpc-js, with the sandbox's protobufjs codec: requests and responses
 * cross grpc-js as raw bytes (identity serializers) and are decoded inside the handlers, so malformed messages
 * become INVALID_ARGUMENT gateway errors instead of transport failures.
 */
import {
  Server,
  ServerCredentials,
  status,
  type MethodDefinition,
  type sendUnaryData,
  type ServerUnaryCall,
  type ServerWritableStream,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import type { GatewayContext } from "./gateway-context";
import { chaincodeEvents, commitStatus, submit } from "./gateway-commit";
import { processProposal } from "./endorser-service";
import { endorse, evaluate } from "./gateway-endorse";
import { GatewayError, toServerStatus } from "./gateway-error";
import { WireDecodeError } from "./wire";

const identity = (bytes: Buffer): Buffer => bytes;

function method(name: string, responseStream: boolean, service = "gateway.Gateway"): MethodDefinition<Buffer, Buffer> {
  return {
    path: `/${service}/${name}`,
    requestStream: false,
    responseStream,
    requestSerialize: identity,
    requestDeserialize: identity,
    responseSerialize: identity,
    responseDeserialize: identity,
    originalName: name,
  };
}

export const GATEWAY_SERVICE = {
  Endorse: method("Endorse", false),
  Submit: method("Submit", false),
  CommitStatus: method("CommitStatus", false),
  Evaluate: method("Evaluate", false),
  ChaincodeEvents: method("ChaincodeEvents", true),
} as const;

/** The peers' Endorser service (endorser-service.ts), on the same server: the sandbox's peers share its address. */
export const ENDORSER_SERVICE = {
  ProcessProposal: method("ProcessProposal", false, "protos.Endorser"),
} as const;

function normalize(err: unknown): unknown {
  return err instanceof WireDecodeError
    ? new GatewayError({ code: status.INVALID_ARGUMENT, message: err.message })
    : err;
}

function abortSignalOf(call: ServerUnaryCall<Buffer, Buffer> | ServerWritableStream<Buffer, Buffer>): AbortSignal {
  const controller = new AbortController();
  call.on("cancelled", () => {
    controller.abort();
  });
  return controller.signal;
}

function unary(
  handler: (request: Buffer, signal: AbortSignal) => Promise<Buffer>,
): (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>) => void {
  return (call, callback) => {
    handler(call.request, abortSignalOf(call)).then(
      (response) => {
        callback(null, response);
      },
      (err: unknown) => {
        callback(toServerStatus(normalize(err)));
      },
    );
  };
}

function implementation(ctx: GatewayContext): UntypedServiceImplementation {
  return {
    Endorse: unary((request) => endorse(ctx, request)),
    Submit: unary((request) => submit(ctx, request)),
    CommitStatus: unary((request, signal) => commitStatus(ctx, request, signal)),
    Evaluate: unary((request) => evaluate(ctx, request)),
    ChaincodeEvents: (call: ServerWritableStream<Buffer, Buffer>) => {
      const signal = abortSignalOf(call);
      chaincodeEvents(ctx, call.request, (response) => call.write(response), signal).then(
        () => {
          call.end();
        },
        (err: unknown) => {
          call.emit("error", toServerStatus(normalize(err)));
        },
      );
    },
  };
}

/** Starts the gateway service on 127.0.0.1:<port> (insecure: TLS, when asked for, is the front proxy's job). */
export async function startGatewayServer(ctx: GatewayContext, port = 0): Promise<{ server: Server; port: number }> {
  const server = new Server();
  server.addService(GATEWAY_SERVICE, implementation(ctx));
  server.addService(ENDORSER_SERVICE, { ProcessProposal: unary((request) => processProposal(ctx, request)) });
  const bound = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`127.0.0.1:${port}`, ServerCredentials.createInsecure(), (err, actual) => {
      if (err === null) resolve(actual);
      else reject(err);
    });
  });
  return { server, port: bound };
}
