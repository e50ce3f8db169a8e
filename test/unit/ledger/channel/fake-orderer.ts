/**
 * An in-process orderer for unit tests: AtomicBroadcast's Broadcast and Deliver over grpc-js on 127.0.0.1 (insecure:
 * loopback), with a chain of blocks a test supplies. Broadcast answers what the test's `onBroadcast` says (and appends
 * the block it returns); Deliver streams the asked range, waiting for blocks not cut yet, as an orderer does. Every
 * call is recorded, so a test can assert how many were made (none, for bad input).
 */
import * as grpc from "@grpc/grpc-js";
import { codecs } from "../../../../provider/ledger/codec";
import type { BroadcastResponse, Config } from "../../../../provider/ledger/config-messages";
import type { Block } from "../../../../provider/ledger/messages";

export interface BroadcastAnswer {
  readonly response: BroadcastResponse;
  /** A block to cut after answering (a configuration block carrying the update). */
  readonly block?: Block;
}

export interface FakeOrderer {
  readonly address: string;
  readonly channelId: string;
  readonly blocks: Block[];
  /** The envelopes Broadcast received, as bytes. */
  readonly broadcasts: Uint8Array[];
  /** How many Deliver streams were opened. */
  readonly delivers: { count: number };
  append(block: Block): void;
  close(): Promise<void>;
}

const passthrough = (b: Uint8Array): Buffer => Buffer.from(b);
const bytes = (b: Buffer): Uint8Array => new Uint8Array(b);

export async function startFakeOrderer(options: {
  readonly channelId: string;
  readonly blocks: readonly Block[];
  readonly onBroadcast: (envelope: Uint8Array, index: number) => BroadcastAnswer;
  /** How many Deliver streams are answered SERVICE_UNAVAILABLE first (a channel without a leader yet). @default 0 */
  readonly unavailable?: number;
}): Promise<FakeOrderer> {
  const blocks = [...options.blocks];
  const broadcasts: Uint8Array[] = [];
  const delivers = { count: 0 };
  const waiting = new Set<() => void>();
  const append = (block: Block): void => {
    blocks.push(block);
    for (const wake of [...waiting]) wake();
  };
  const server = new grpc.Server();
  server.register<Uint8Array, Uint8Array>(
    "/orderer.AtomicBroadcast/Broadcast",
    (call: grpc.ServerDuplexStream<Uint8Array, Uint8Array>) => {
      call.on("data", (envelope: Uint8Array) => {
        const answer = options.onBroadcast(envelope, broadcasts.length);
        broadcasts.push(envelope);
        call.write(codecs.BroadcastResponse.encode(answer.response));
        if (answer.block !== undefined) append(answer.block);
      });
      call.on("end", () => call.end());
    },
    passthrough,
    bytes,
    "bidi",
  );
  server.register<Uint8Array, Uint8Array>(
    "/orderer.AtomicBroadcast/Deliver",
    (call: grpc.ServerDuplexStream<Uint8Array, Uint8Array>) => {
      delivers.count++;
      const unavailable = delivers.count <= (options.unavailable ?? 0);
      call.once("data", (envelope: Uint8Array) => {
        void (async () => {
          if (unavailable) {
            call.write(codecs.DeliverResponse.encode({ status: 503 }));
            call.end();
            return;
          }
          const payload = codecs.Payload.decode(codecs.Envelope.decode(envelope).payload);
          const channel = codecs.ChannelHeader.decode(payload.header?.channelHeader ?? new Uint8Array(0)).channelId;
          if (channel !== options.channelId) {
            call.write(codecs.DeliverResponse.encode({ status: 404 }));
            call.end();
            return;
          }
          const seek = codecs.SeekInfo.decode(payload.data);
          const at = (p: typeof seek.start): bigint =>
            p?.specified !== undefined ? p.specified.number : p?.oldest !== undefined ? 0n : BigInt(blocks.length - 1);
          const start = at(seek.start);
          const stop = at(seek.stop);
          for (let n = start; n <= stop; n++) {
            while (BigInt(blocks.length) <= n) {
              if (call.cancelled) return;
              await new Promise<void>((resolve) => {
                const wake = (): void => {
                  waiting.delete(wake);
                  resolve();
                };
                waiting.add(wake);
                call.once("cancelled", wake);
              });
            }
            if (call.cancelled) return;
            call.write(codecs.DeliverResponse.encode({ block: blocks[Number(n)] }));
          }
          call.write(codecs.DeliverResponse.encode({ status: 200 }));
          call.end();
        })();
      });
    },
    passthrough,
    bytes,
    "bidi",
  );
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, bound) => {
      if (error === null) resolve(bound);
      else reject(error);
    });
  });
  return {
    address: `127.0.0.1:${String(port)}`,
    channelId: options.channelId,
    blocks,
    broadcasts,
    delivers,
    append,
    close: () =>
      new Promise<void>((resolve) => {
        for (const wake of [...waiting]) wake();
        server.tryShutdown(() => {
          resolve();
        });
      }),
  };
}

/** A configuration block of `config` at `number` whose metadata names itself as the last configuration block. */
export function configBlockOf(channelId: string, number: bigint, config: Config): Block {
  const channelHeader = codecs.ChannelHeader.encode({ type: 1, channelId });
  const payload = codecs.Payload.encode({
    header: { channelHeader, signatureHeader: new Uint8Array(0) },
    data: codecs.ConfigEnvelope.encode({ config }),
  });
  const signatures = codecs.Metadata.encode({
    value: codecs.OrdererBlockMetadata.encode({ lastConfig: { index: number } }),
  });
  return {
    header: { number, previousHash: new Uint8Array(0), dataHash: new Uint8Array(0) },
    data: { data: [codecs.Envelope.encode({ payload })] },
    metadata: { metadata: [signatures, new Uint8Array(0), new Uint8Array(0)] },
  };
}
