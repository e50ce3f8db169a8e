/**
 * Fuzz target `gateway`: the input as what a gateway peer answers, through the Gateway client's own code path
 * (gateway-client.ts, gateway-objects.ts, grpc-transport.ts; endorse answers go on through verify-before-sign).
 * Input = one byte choosing the call (GATEWAY_KINDS, modulo their count) followed by the answer's bytes; the
 * errorDetails kind answers with a gRPC error whose grpc-status-details-bin trailer is the bytes, the chaincodeEvents
 * kind with a ChaincodeEvents stream whose one message is the bytes.
 *
 * The context (the client's certificate, the MSP roots, the signed proposal the captured EndorseResponse answers, the
 * time it was captured) comes from test/fixtures/fuzz/seeds/gateway/context.json, written by capture-seeds.ts.
 */
import * as grpc from "@grpc/grpc-js";
import { generateKeyPairSync } from "node:crypto";
import { readFileSync } from "node:fs";
import { PassThrough } from "node:stream";
import { join } from "node:path";
import { codecs, connect, newIdentity, newPrivateKeySigner, type Gateway } from "../../provider/ledger";
import type { FuzzTarget } from "./typed";

export const GATEWAY_KINDS = [
  "endorse",
  "evaluate",
  "submit",
  "commitStatus",
  "processedTransaction",
  "errorDetails",
  "chaincodeEvents",
] as const;
export type GatewayKind = (typeof GATEWAY_KINDS)[number];

/** The target's input for an answer of `kind`. */
export function gatewayInput(kind: GatewayKind, answer: Uint8Array): Uint8Array {
  const input = new Uint8Array(answer.length + 1);
  input[0] = GATEWAY_KINDS.indexOf(kind);
  input.set(answer, 1);
  return input;
}

interface GatewayContextFile {
  readonly capturedAt: string;
  readonly mspId: string;
  readonly certificatePem: string;
  readonly trustedMsps: readonly { mspId: string; rootCertificatePem: string }[];
  readonly proposedTransaction: string;
  readonly channelId: string;
}

/** test/fixtures/fuzz/seeds/gateway/context.json, from dist/fuzz/targets or fuzz/targets. */
function readSeed(name: string): Buffer {
  const root = __dirname.includes("/dist/") ? join(__dirname, "..", "..", "..") : join(__dirname, "..", "..");
  return readFileSync(join(root, "test", "fixtures", "fuzz", "seeds", "gateway", name));
}

/** When the seeds were captured: certificates are checked at that time, so the captured chain stays valid. */
export function capturedAt(): string {
  return contextFile().capturedAt;
}

function contextFile(): GatewayContextFile {
  return JSON.parse(readSeed("context.json").toString("utf8")) as GatewayContextFile;
}

interface Harness {
  readonly gateway: Gateway;
  readonly context: GatewayContextFile;
  answer: Uint8Array;
  asError: boolean;
}

let harness: Harness | undefined;

/** A grpc-js Client stand-in whose every unary call is answered with the harness's current bytes. */
function answeringClient(h: () => Harness): grpc.Client {
  const client = {
    makeUnaryRequest(
      _method: string,
      _serialize: unknown,
      deserialize: (b: Buffer) => unknown,
      _request: unknown,
      _metadata: unknown,
      _options: unknown,
      callback: (e: grpc.ServiceError | null, r?: unknown) => void,
    ) {
      const { answer, asError } = h();
      if (asError) {
        const metadata = new grpc.Metadata();
        metadata.set("grpc-status-details-bin", Buffer.from(answer));
        const error = Object.assign(new Error("2 UNKNOWN: fuzz"), {
          code: grpc.status.UNKNOWN,
          details: "fuzz",
          metadata,
        });
        callback(error);
      } else callback(null, deserialize(Buffer.from(answer)));
      return {};
    },
    makeServerStreamRequest(_method: string, _serialize: unknown, deserialize: (b: Buffer) => unknown) {
      const stream = Object.assign(new PassThrough({ objectMode: true }), {
        cancel() {
          stream.destroy();
        },
      });
      stream.end(deserialize(Buffer.from(h().answer)));
      return stream;
    },
    close() {
      // Nothing to close: no connection.
    },
  };
  return client as unknown as grpc.Client;
}

function setUp(): Harness {
  const context = contextFile();
  const { privateKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const at = new Date(context.capturedAt);
  const gateway = connect({
    client: answeringClient(() => harness as Harness),
    identity: newIdentity(context.mspId, context.certificatePem),
    // A throwaway key: commit-status requests are signed before they are sent; nothing checks the signature here.
    signer: newPrivateKeySigner(privateKey),
    trustedMsps: context.trustedMsps.map((t) => ({ mspId: t.mspId, rootCertificates: [t.rootCertificatePem] })),
    now: () => at,
  });
  return { gateway, context, answer: new Uint8Array(0), asError: false };
}

async function call(h: Harness, kind: GatewayKind): Promise<unknown> {
  const { gateway, context } = h;
  const proposal = () =>
    gateway.newSignedProposal(Buffer.from(context.proposedTransaction, "base64"), new Uint8Array([0x30, 0]));
  switch (kind) {
    case "endorse":
      return proposal().endorse();
    case "evaluate":
    case "errorDetails":
      return proposal().evaluate();
    case "submit":
      // A Transaction prepared offline (PreparedTransaction bytes with a signature): Submit gets the answer.
      return gateway.newSignedTransaction(preparedTransaction(), new Uint8Array([0x30, 0])).submit();
    case "commitStatus":
      return gateway.getCommitStatus(context.channelId, "fuzz");
    case "processedTransaction":
      return gateway.getTransactionById(context.channelId, "fuzz");
    case "chaincodeEvents": {
      const events = [];
      for await (const event of await gateway.getChaincodeEvents(context.channelId, "assets")) events.push(event);
      return events;
    }
  }
}

/** The PreparedTransaction of the captured endorsement: the captured EndorseResponse's envelope. */
let prepared: Uint8Array | undefined;
function preparedTransaction(): Uint8Array {
  prepared ??= codecs.PreparedTransaction.encode({
    transactionId: "fuzz",
    envelope: codecs.EndorseResponse.decode(readSeed("endorse-create-asset.bin").subarray(1)).preparedTransaction,
  });
  return prepared;
}

export const gatewayTarget: FuzzTarget = {
  name: "gateway",
  description: "a call kind byte, then what the gateway answers (EndorseResponse, EvaluateResponse, ...)",
  modules: ["<generated>", "gateway-client.ts", "gateway-objects.ts", "grpc-transport.ts", "verify.ts", "unwrap.ts"],
  call(input) {
    harness ??= setUp();
    const kind = GATEWAY_KINDS[(input[0] ?? 0) % GATEWAY_KINDS.length] as GatewayKind;
    harness.answer = input.subarray(1);
    harness.asError = kind === "errorDetails";
    return call(harness, kind);
  },
};
