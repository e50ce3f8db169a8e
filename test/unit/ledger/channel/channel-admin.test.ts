/**
 * The administrative calls around a channel, against in-process fakes: the orderer's channel participation API over
 * mutual TLS (join with a block as multipart form data, an existing channel adopted, list, remove, the orderer's words
 * in errors), cscc JoinChain and GetChannels through a peer's Endorser (a peer that has the channel adopted), Deliver's
 * answers for an unknown channel and a block that never comes (bounded by the supplied deadline), and
 * `opsledger-ledger decode` of a configuration block and of a signed CONFIG_UPDATE envelope.
 */
import { strict as assert } from "node:assert";
import * as https from "node:https";
import type { AddressInfo } from "node:net";
import { main } from "../../../../provider/ledger/cli";
import { codecs } from "../../../../provider/ledger/codec";
import type { Endorser, EndorserProposalRequest } from "../../../../provider/ledger/endorser-client";
import { EndorserError } from "../../../../provider/errors/ledger/endorser-error";
import { ChannelParticipationError } from "../../../../provider/errors/ledger/channel-participation-error";
import {
  joinOrdererChannel,
  listOrdererChannels,
  ordererChannelInfo,
  removeOrdererChannel,
} from "../../../../provider/ledger/channel/channel-participation";
import { computeConfigUpdate } from "../../../../provider/ledger/channel/compute-update";
import { applyConfigChange } from "../../../../provider/ledger/channel/config-change";
import {
  configUpdateBytes,
  configUpdateEnvelope,
  signConfigUpdate,
} from "../../../../provider/ledger/channel/config-update-signing";
import { DeliverError } from "../../../../provider/errors/ledger/deliver-error";
import { fetchBlock } from "../../../../provider/ledger/channel/deliver-client";
import { genesisBlock } from "../../../../provider/ledger/channel/genesis-block";
import { connectOrderer } from "../../../../provider/ledger/channel/orderer-client";
import { joinPeerChannel, listPeerChannels } from "../../../../provider/ledger/channel/peer-channels";
import { newMember, newOrg, newTlsServerCertificate } from "../fixtures";
import { configBlockOf, startFakeOrderer } from "./fake-orderer";
import { testChannel } from "./test-channel";
import type { TestChannel } from "./test-channel";

let channel: TestChannel;

/** Follows a dotted path through parsed JSON. */
function at(value: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((v, key) => (v as Record<string, unknown> | undefined)?.[key], value);
}

interface Recorded {
  readonly method: string;
  readonly path: string;
  readonly body: string;
  readonly contentType: string;
}

describe("channel administration", () => {
  before(async function () {
    this.timeout(30_000);
    channel = await testChannel(2);
  });

  it("joins an orderer through the participation API with mutual TLS, adopts a channel it has, lists and removes", async function () {
    this.timeout(30_000);
    const ca = await newOrg("OrdererMSP");
    const server = await newTlsServerCertificate(ca);
    const admin = await newMember(ca, "Admin@example.com", { ou: "admin" });
    const joined = new Set<string>();
    const requests: Recorded[] = [];
    const api = https.createServer(
      { cert: server.certPem, key: server.keyPem, ca: ca.caPem, requestCert: true, rejectUnauthorized: true },
      (req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const body = Buffer.concat(chunks).toString("latin1");
          requests.push({
            method: req.method ?? "",
            path: req.url ?? "",
            body,
            contentType: req.headers["content-type"] ?? "",
          });
          const json = (status: number, value: unknown) => {
            res.writeHead(status, { "Content-Type": "application/json" });
            res.end(JSON.stringify(value));
          };
          const info = (name: string) => ({
            name,
            url: `/participation/v1/channels/${name}`,
            consensusRelation: "consenter",
            status: "active",
            height: 1,
          });
          if (req.method === "POST") {
            if (joined.has(channel.channelId)) {
              json(405, { error: "cannot join: channel already exists" });
              return;
            }
            joined.add(channel.channelId);
            json(201, info(channel.channelId));
            return;
          }
          if (req.method === "GET" && req.url === "/participation/v1/channels") {
            json(200, { systemChannel: null, channels: [...joined].map((name) => ({ name, url: "" })) });
            return;
          }
          const name = decodeURIComponent((req.url ?? "").split("/").pop() ?? "");
          if (req.method === "GET") {
            if (joined.has(name)) json(200, info(name));
            else json(404, { error: "channel does not exist" });
            return;
          }
          if (req.method === "DELETE") {
            if (joined.delete(name)) {
              res.writeHead(204);
              res.end();
            } else json(404, { error: "channel does not exist" });
            return;
          }
          json(400, { error: "unexpected" });
        });
      },
    );
    await new Promise<void>((resolve) => api.listen(0, "127.0.0.1", resolve));
    const options = {
      adminAddress: `127.0.0.1:${String((api.address() as AddressInfo).port)}`,
      tls: {
        rootCertificates: ca.caPem,
        clientCertificate: Buffer.from(admin.identity.credentials).toString(),
        clientPrivateKey: admin.privateKeyPem,
      },
    };
    try {
      const block = genesisBlock(channel.channelId, channel.config);
      assert.equal(await ordererChannelInfo(options, channel.channelId), undefined);
      const first = await joinOrdererChannel(options, block, channel.channelId);
      const again = await joinOrdererChannel(options, block, channel.channelId);
      assert.deepEqual(
        [first.alreadyJoined, first.info.status, again.alreadyJoined, again.info.consensusRelation],
        [false, "active", true, "consenter"],
      );
      const post = requests.find((r) => r.method === "POST") ?? assert.fail();
      assert.match(post.contentType, /^multipart\/form-data; boundary=/);
      assert.match(post.body, /Content-Disposition: form-data; name="config-block"; filename="config.block"/);
      assert.ok(
        post.body.includes(Buffer.from(codecs.Block.encode(block)).toString("latin1")),
        "the block's bytes are the part's body",
      );
      assert.deepEqual(await listOrdererChannels(options), [channel.channelId]);
      assert.deepEqual(
        [
          await removeOrdererChannel(options, channel.channelId),
          await removeOrdererChannel(options, channel.channelId),
        ],
        [true, false],
      );
      const stranger = await newMember(await newOrg("Other"), "someone");
      await assert.rejects(
        listOrdererChannels({
          ...options,
          tls: {
            ...options.tls,
            clientCertificate: Buffer.from(stranger.identity.credentials).toString(),
            clientPrivateKey: stranger.privateKeyPem,
          },
        }),
        (e: unknown) =>
          e instanceof ChannelParticipationError && e.status === 0 && /Admin.TLS.ClientRootCAs trust/.test(e.message),
      );
    } finally {
      api.close();
    }
  });

  it("joins a peer through cscc, adopting a channel it has, and lists its channels", async () => {
    const asked: EndorserProposalRequest[] = [];
    const channels = new Set<string>();
    const peer = {
      address: "peer0:7051",
      processProposal: (request: EndorserProposalRequest) => {
        asked.push(request);
        if (request.functionName === "GetChannels") {
          const payload = codecs.ChannelQueryResponse.encode({
            channels: [...channels].map((channelId) => ({ channelId })),
          });
          return Promise.resolve({ transactionId: "t", status: 200, message: "", payload, proposalResponse: {} });
        }
        if (channels.has(channel.channelId))
          return Promise.reject(
            new EndorserError({
              address: "peer0:7051",
              method: "/protos.Endorser/ProcessProposal",
              chaincodeName: "cscc",
              functionName: "JoinChain",
              status: 500,
              responseMessage: `cannot create ledger from genesis block: ledger [${channel.channelId}] already exists with state [ACTIVE]`,
            }),
          );
        channels.add(channel.channelId);
        return Promise.resolve({
          transactionId: "t",
          status: 200,
          message: "",
          payload: new Uint8Array(0),
          proposalResponse: {},
        });
      },
    } as unknown as Endorser;
    const block = genesisBlock(channel.channelId, channel.config);
    assert.deepEqual(await listPeerChannels(peer), []);
    assert.deepEqual(await joinPeerChannel(peer, block), { channelId: channel.channelId, alreadyJoined: false });
    assert.deepEqual(await joinPeerChannel(peer, block), { channelId: channel.channelId, alreadyJoined: true });
    assert.deepEqual(await listPeerChannels(peer), [channel.channelId]);
    const join = asked.find((r) => r.functionName === "JoinChain") ?? assert.fail();
    assert.deepEqual(
      [join.chaincodeName, join.channelId, join.args],
      ["cscc", undefined, [codecs.Block.encode(block)]],
    );
  });

  it("answers Deliver's refusals as DeliverError: an unknown channel, and a block that does not come by the deadline", async function () {
    this.timeout(30_000);
    const orderer = await startFakeOrderer({
      channelId: channel.channelId,
      blocks: [configBlockOf(channel.channelId, 0n, channel.config)],
      onBroadcast: () => ({ response: { status: 500, info: "" } }),
    });
    const client = connectOrderer({ address: orderer.address });
    const target = { client: client.client, address: orderer.address, kind: "orderer" as const };
    const reader = { reader: channel.peers[0]?.admin ?? assert.fail() };
    try {
      await assert.rejects(
        fetchBlock(target, "nochannel", "newest", reader),
        (e: unknown) =>
          e instanceof DeliverError &&
          e.status === 404 &&
          /NOT_FOUND \(the node does not have the channel\)/.test(e.message),
      );
      await assert.rejects(
        fetchBlock(target, channel.channelId, 5n, { ...reader, callOptions: () => ({ deadline: Date.now() + 300 }) }),
        (e: unknown) =>
          e instanceof DeliverError && e.status === 0 && /the deadline passed before the block came/.test(e.message),
      );
      assert.equal((await fetchBlock(target, channel.channelId, 0n, reader)).header?.number, 0n);
    } finally {
      client.close();
      await orderer.close();
    }
  });

  it("asks again, pausing longer each time, while a node answers SERVICE_UNAVAILABLE (a channel without a leader yet)", async function () {
    this.timeout(30_000);
    const orderer = await startFakeOrderer({
      channelId: channel.channelId,
      blocks: [configBlockOf(channel.channelId, 0n, channel.config)],
      onBroadcast: () => ({ response: { status: 500, info: "" } }),
      unavailable: 3,
    });
    const client = connectOrderer({ address: orderer.address });
    const target = { client: client.client, address: orderer.address, kind: "orderer" as const };
    const pauses: number[] = [];
    const sleep = (ms: number) => {
      pauses.push(ms);
      return Promise.resolve();
    };
    const reader = channel.peers[0]?.admin ?? assert.fail();
    try {
      const block = await fetchBlock(target, channel.channelId, 0n, { reader, sleep });
      assert.deepEqual([block.header?.number, orderer.delivers.count, pauses], [0n, 4, [250, 500, 1000]]);
    } finally {
      client.close();
      await orderer.close();
    }
  });

  it("decodes a configuration block and a signed CONFIG_UPDATE envelope with opsledger-ledger decode", async () => {
    const desired = applyConfigChange(channel.config, { orderer: { batchTimeout: "750ms" } });
    const bytes = configUpdateBytes(computeConfigUpdate(channel.channelId, channel.config, desired) ?? assert.fail());
    const org1 = channel.peers[0]?.admin ?? assert.fail();
    const envelope = await configUpdateEnvelope({
      channelId: channel.channelId,
      updateBytes: bytes,
      signatures: [await signConfigUpdate(bytes, channel.orderer.admin)],
      submitter: org1,
    });
    const files: Record<string, Uint8Array> = {
      "config.block": codecs.Block.encode(genesisBlock(channel.channelId, channel.config)),
      "update.tx": codecs.Envelope.encode(envelope),
      "update.pb": bytes,
    };
    const decode = async (file: string) => {
      let out = "";
      const code = await main(["decode", file], {
        stdout: (t) => (out += t),
        stderr: (t) => (out += t),
        readFile: (p) => Promise.resolve(files[p] ?? new Uint8Array(0)),
      });
      assert.equal(code, 0, out);
      return JSON.parse(out) as unknown;
    };
    const block = await decode("config.block");
    const ids = (value: unknown) => (value as { mspId: string }[]).map((o) => o.mspId);
    assert.deepEqual(
      [
        at(block, "type"),
        at(block, "channelConfig.channelId"),
        at(block, "channelConfig.orderer.batchTimeout"),
        ids(at(block, "channelConfig.application.organizations")),
      ],
      ["Block", "testchannel", "2s", ["Org1MSP", "Org2MSP"]],
    );
    const tx = await decode("update.tx");
    assert.deepEqual(
      [
        at(tx, "type"),
        at(tx, "configUpdate.envelopeChannelId"),
        at(tx, "configUpdate.modified"),
        ids(at(tx, "configUpdate.signatures")),
      ],
      ["Envelope", "testchannel", ["[Value]  /Channel/Orderer/BatchTimeout"], ["OrdererMSP"]],
    );
    const writeSet = at(tx, "configUpdate.writeSet") as { element: string; version: string; value?: unknown }[];
    const written = writeSet.find((e) => e.element === "[Value]  /Channel/Orderer/BatchTimeout");
    assert.deepEqual([written?.version, written?.value], ["1", "750ms"]);
    const bare = await decode("update.pb");
    assert.deepEqual(
      [at(bare, "type"), at(bare, "configUpdate.channelId"), at(bare, "configUpdate.signatures")],
      ["ConfigUpdate", "testchannel", undefined],
    );
  });
});
