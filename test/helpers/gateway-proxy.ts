/**
 * A TLS-terminating proxy in front of a real gateway peer, for fault tests that must act at an exact step of a client
 * they do not control (the ledger component inside `pulumi up`): it forwards the unary gateway.Gateway calls (Endorse,
 * Submit, CommitStatus, Evaluate) byte for byte, records each with its transaction id, and calls hooks that may hold a
 * call — before it goes on, right after it went upstream, or before its answer is relayed (kill a node there).
 * ChaincodeEvents is not forwarded (UNIMPLEMENTED). The proxy presents the certificate it is given (the peer's own TLS
 * certificate, which names 127.0.0.1), so a client keeps the peer's TLS root.
 */
import * as grpc from "@grpc/grpc-js";
import { codecs } from "../../provider/ledger/codec";

export type GatewayMethod = "Endorse" | "Submit" | "CommitStatus" | "Evaluate";

export interface ProxiedCall {
  readonly method: GatewayMethod;
  readonly transactionId: string;
  /** Milliseconds since the proxy started. */
  readonly atMs: number;
}

export interface ProxiedOutcome {
  /** The upstream error (relayed as it is), or undefined when the call succeeded. */
  readonly error: grpc.ServiceError | undefined;
}

export interface GatewayProxyOptions {
  /** The gateway peer to forward to. */
  readonly target: { readonly address: string; readonly tlsRootCertPem: string; readonly serverNameOverride?: string };
  /** The certificate and key the proxy presents (PEM). */
  readonly tls: { readonly certificatePem: string; readonly privateKeyPem: string };
  /** Before the call goes upstream; the call waits for the returned promise. */
  onRequest?(call: ProxiedCall): void | Promise<void>;
  /** Right after the call went upstream (its answer not yet in). */
  onForwarded?(call: ProxiedCall): void | Promise<void>;
  /** Before the answer is relayed; the answer waits for the returned promise. */
  onResponse?(call: ProxiedCall, outcome: ProxiedOutcome): void | Promise<void>;
}

export interface GatewayProxy {
  /** "127.0.0.1:<port>" */
  readonly address: string;
  /** Every call, in arrival order. */
  readonly calls: readonly ProxiedCall[];
  close(): Promise<void>;
}

const passthrough = (b: Buffer): Buffer => b;

function transactionIdOf(method: GatewayMethod, request: Buffer): string {
  try {
    switch (method) {
      case "Endorse":
        return codecs.EndorseRequest.decode(request).transactionId;
      case "Submit":
        return codecs.SubmitRequest.decode(request).transactionId;
      case "Evaluate":
        return codecs.EvaluateRequest.decode(request).transactionId;
      case "CommitStatus":
        return codecs.CommitStatusRequest.decode(codecs.SignedCommitStatusRequest.decode(request).request)
          .transactionId;
    }
  } catch {
    return "";
  }
}

const METHODS: readonly GatewayMethod[] = ["Endorse", "Submit", "CommitStatus", "Evaluate"];

export async function startGatewayProxy(options: GatewayProxyOptions): Promise<GatewayProxy> {
  const { target } = options;
  const upstream = new grpc.Client(
    target.address,
    grpc.credentials.createSsl(Buffer.from(target.tlsRootCertPem)),
    target.serverNameOverride === undefined ? {} : { "grpc.ssl_target_name_override": target.serverNameOverride },
  );
  const started = performance.now();
  const calls: ProxiedCall[] = [];
  const server = new grpc.Server();
  const definition: grpc.ServiceDefinition = Object.fromEntries(
    [...METHODS, "ChaincodeEvents"].map((name) => [
      name,
      {
        path: `/gateway.Gateway/${name}`,
        requestStream: false,
        responseStream: name === "ChaincodeEvents",
        requestSerialize: passthrough,
        requestDeserialize: passthrough,
        responseSerialize: passthrough,
        responseDeserialize: passthrough,
        originalName: name,
      },
    ]),
  );
  const unary =
    (method: GatewayMethod) =>
    (call: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>): void => {
      const proxied: ProxiedCall = {
        method,
        transactionId: transactionIdOf(method, call.request),
        atMs: performance.now() - started,
      };
      calls.push(proxied);
      void (async () => {
        try {
          await options.onRequest?.(proxied);
          const answer = new Promise<{ error: grpc.ServiceError | null; response: Buffer | undefined }>((resolve) => {
            upstream.makeUnaryRequest(
              `/gateway.Gateway/${method}`,
              passthrough,
              passthrough,
              call.request,
              new grpc.Metadata(),
              { deadline: call.getDeadline() },
              (error, response) => {
                resolve({ error, response });
              },
            );
          });
          await options.onForwarded?.(proxied);
          const { error, response } = await answer;
          await options.onResponse?.(proxied, { error: error ?? undefined });
          if (error !== null) callback({ code: error.code, details: error.details, metadata: error.metadata });
          else callback(null, response);
        } catch (e) {
          callback({ code: grpc.status.INTERNAL, details: `gateway proxy hook failed: ${String(e)}` });
        }
      })();
    };
  server.addService(definition, {
    ...Object.fromEntries(METHODS.map((m) => [m, unary(m)])),
    ChaincodeEvents: (call: grpc.ServerWritableStream<Buffer, Buffer>) => {
      call.destroy(Object.assign(new Error("not forwarded by the test proxy"), { code: grpc.status.UNIMPLEMENTED }));
    },
  });
  const credentials = grpc.ServerCredentials.createSsl(null, [
    { cert_chain: Buffer.from(options.tls.certificatePem), private_key: Buffer.from(options.tls.privateKeyPem) },
  ]);
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", credentials, (error, bound) => {
      if (error) reject(error);
      else resolve(bound);
    });
  });
  return {
    address: `127.0.0.1:${String(port)}`,
    calls,
    close: () => {
      upstream.close();
      server.forceShutdown();
      return Promise.resolve();
    },
  };
}
