/**
 * ledger.ChannelPeer: one peer joined to a channel, as `peer channel join` does it — cscc JoinChain with the channel's
 * genesis block, signed by the peer's admin (cscc's ACL is its local MSP's Admins); the peer then pulls the channel's
 * blocks from the orderers. The block is a Channel's `genesisBlock`, or block 0 read from an orderer as the identity
 * (a member of the channel's Readers: an organization added to a running channel joins its peer this way). A peer
 * that has the channel already is adopted (GetChannels first; JoinChain's "already exists" too). Refresh finds the
 * channel among the peer's; destroying it sends nothing (a peer leaves a channel only offline, `peer node unjoin`).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { LedgerError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { codecs, newIdentity } from "../../../ledger";
import { readConfigBlock } from "../../../ledger/channel/config-block";
import { fetchBlock } from "../../../ledger/channel/deliver-client";
import { joinPeerChannel, listPeerChannels } from "../../../ledger/channel/peer-channels";
import { connectEndorser } from "../../../ledger/endorser-client";
import type { Endorser } from "../../../ledger/endorser-client";
import type { Block } from "../../../ledger/messages";
import { log } from "../../../runtime/context";
import { messageOf, nameFromUrn } from "../../common";
import { canonical, hasUnknown } from "../ledger-values";
import { identityFailures, openLedgerSigner } from "../session/ledger-signers";
import { sessionOfOutputs, sessionOutputs } from "../session/ledger-session";
import type { SessionOutputs } from "../session/ledger-session";
import {
  nodeClientKey,
  nodeFailures,
  nodeOutputs,
  nodeTls,
  openOrderer,
  ORDERER_FIELD,
  PEER_FIELD,
  tlsCertHash,
} from "./channel-nodes";
import { settingsFailures } from "./channel-part-session";
import type { ChannelNode, ChannelPeerCredentials, ChannelPeerShape } from "./channel-shapes";

/** How long reading block 0 and each cscc call may take. */
export const PEER_JOIN_TIMEOUT_MS = 60_000;

export interface ChannelPeerInputs extends ChannelPeerShape {
  __urn: string;
}

/** The outputs: the peer and identity by reference (keys only under `credentials`), and whether it was adopted. */
export interface ChannelPeerOutputs extends Omit<ChannelPeerInputs, "peer" | "identity" | "orderer"> {
  peer: SessionOutputs["gateway"];
  identity: SessionOutputs["identity"];
  orderer?: Omit<ChannelNode, "clientKeyPem">;
  credentials: ChannelPeerCredentials;
  /** Whether the peer had the channel already when this resource was created (adopted, not joined). */
  alreadyJoined: boolean;
}

function genesisFailures(n: Readonly<Record<string, unknown>>): FieldFailure[] {
  const block = n["genesisBlock"];
  const orderer = n["orderer"];
  if (block === undefined && orderer === undefined)
    return [
      {
        property: "genesisBlock",
        reason: "or orderer is required: the channel's genesis block (base64), or where to read it",
      },
    ];
  if (block === undefined || hasUnknown(block))
    return orderer === undefined ? [] : nodeFailures(orderer, ORDERER_FIELD);
  try {
    if (typeof block !== "string") throw new TypeError("not a string");
    const config = readConfigBlock(codecs.Block.decode(Buffer.from(block, "base64")));
    if (config.number !== 0n)
      return [
        {
          property: "genesisBlock",
          reason: `is block ${config.number.toString()}: give the channel's genesis block (block 0)`,
        },
      ];
    if (!hasUnknown(n["channel"]) && config.channelId !== n["channel"])
      return [
        {
          property: "genesisBlock",
          reason: `is channel '${config.channelId}''s genesis block, not channel '${String(n["channel"])}''s`,
        },
      ];
  } catch (error) {
    return [{ property: "genesisBlock", reason: `is not a channel's genesis block in base64 (${messageOf(error)})` }];
  }
  return [];
}

function failures(news: ChannelPeerInputs): FieldFailure[] {
  const n = news as unknown as Record<string, unknown>;
  const channel = settingsFailures({
    channel: n["channel"],
    orderer: { address: "127.0.0.1:1" },
    identity: n["identity"],
  });
  return [
    ...channel.filter((f) => f.property === "channel"),
    ...nodeFailures(n["peer"], PEER_FIELD),
    ...identityFailures(n["identity"]),
    ...genesisFailures(n),
  ];
}

/** Runs `work` with cscc on the peer as its admin (the signer checked against the certificate), all closed after. */
async function withPeer<T>(
  i: ChannelPeerInputs,
  work: (
    peer: Endorser,
    admin: ReturnType<typeof newIdentity>,
    signer: Awaited<ReturnType<typeof openLedgerSigner>>,
  ) => Promise<T>,
): Promise<T> {
  const key = nodeClientKey(i.peer, PEER_FIELD);
  if ("failures" in key)
    throw new LedgerError({ message: key.failures.map((f) => `${f.property} ${f.reason}`).join("; ") });
  const signer = await openLedgerSigner(i.identity);
  const admin = newIdentity(i.identity.mspId, i.identity.certificatePem);
  const tls = nodeTls(i.peer, key.key);
  const peer = connectEndorser({
    address: i.peer.address,
    ...(tls === undefined ? {} : { tls }),
    identity: admin,
    signer: signer.signer,
    processProposalOptions: () => ({ deadline: Date.now() + PEER_JOIN_TIMEOUT_MS }),
  });
  try {
    return await work(peer, admin, signer);
  } finally {
    peer.close();
    signer.close();
  }
}

async function genesisOf(
  i: ChannelPeerInputs,
  admin: ReturnType<typeof newIdentity>,
  signer: { signer: Parameters<typeof fetchBlock>[3]["reader"]["signer"] },
): Promise<Block> {
  if (i.genesisBlock !== undefined) return codecs.Block.decode(Buffer.from(i.genesisBlock, "base64"));
  const node = i.orderer as ChannelNode;
  const key = nodeClientKey(node, ORDERER_FIELD);
  if ("failures" in key)
    throw new LedgerError({ message: key.failures.map((f) => `${f.property} ${f.reason}`).join("; ") });
  const orderer = openOrderer(node, key.key, PEER_JOIN_TIMEOUT_MS);
  try {
    const hash = tlsCertHash(node);
    return await fetchBlock(orderer.deliver, i.channel, 0n, {
      reader: { identity: admin, signer: signer.signer },
      ...(hash === undefined ? {} : { tlsCertHash: hash }),
      callOptions: () => ({ deadline: Date.now() + PEER_JOIN_TIMEOUT_MS }),
    });
  } finally {
    orderer.close();
  }
}

function outputsOf(i: ChannelPeerInputs, alreadyJoined: boolean): ChannelPeerOutputs {
  const session = sessionOutputs({ gateway: i.peer, identity: i.identity });
  const { peer: _p, identity: _i, orderer, ...rest } = i;
  return {
    ...rest,
    peer: session.gateway,
    identity: session.identity,
    ...(orderer === undefined ? {} : { orderer: nodeOutputs(orderer) }),
    credentials: {
      ...session.credentials,
      ...(orderer?.clientKeyPem === undefined ? {} : { ordererClientKeyPem: orderer.clientKeyPem }),
    },
    alreadyJoined,
  };
}

function inputsOf(o: ChannelPeerOutputs): ChannelPeerInputs {
  const { credentials, alreadyJoined: _a, peer, identity, orderer, ...rest } = o;
  const session = sessionOfOutputs({ gateway: peer, identity, credentials, channel: o.channel });
  const key = credentials.ordererClientKeyPem;
  return {
    ...rest,
    peer: session.gateway,
    identity: session.identity,
    ...(orderer === undefined ? {} : { orderer: key === undefined ? orderer : { ...orderer, clientKeyPem: key } }),
  };
}

export const channelPeerProvider = {
  async check(_olds: Partial<ChannelPeerInputs>, news: ChannelPeerInputs): Promise<dynamic.CheckResult> {
    const found = failures(news);
    if (found.length > 0) return { failures: found };
    if (hasUnknown(news)) return { inputs: news };
    const key = nodeClientKey(news.peer, PEER_FIELD);
    if ("failures" in key) return { failures: key.failures };
    try {
      (await openLedgerSigner(news.identity)).close();
    } catch (error) {
      return { failures: [{ property: "identity", reason: messageOf(error) }] };
    }
    return { inputs: news };
  },
  diff(_id: string, olds: ChannelPeerOutputs, news: ChannelPeerInputs): Promise<dynamic.DiffResult> {
    const replaces = ["channel", "peer"].filter((k) =>
      k === "channel" ? olds.channel !== news.channel : olds.peer.address !== news.peer.address,
    );
    const changes = replaces.length > 0 || canonical(inputsOf(olds)) !== canonical({ ...news });
    return Promise.resolve({ changes, replaces, deleteBeforeReplace: false });
  },
  async create(inputs: ChannelPeerInputs): Promise<dynamic.CreateResult> {
    const subject = `ChannelPeer ${nameFromUrn(inputs.__urn)}`;
    const alreadyJoined = await withPeer(inputs, async (peer, admin, signer) => {
      if ((await listPeerChannels(peer)).includes(inputs.channel)) return true;
      const block = await genesisOf(inputs, admin, signer);
      return (await joinPeerChannel(peer, block)).alreadyJoined;
    });
    if (alreadyJoined)
      log(
        "info",
        `${subject}: peer ${inputs.peer.address} had channel '${inputs.channel}' already: adopted`,
        inputs.__urn,
      );
    return { id: `${inputs.peer.address}/${inputs.channel}`, outs: outputsOf(inputs, alreadyJoined) };
  },
  update(_id: string, olds: ChannelPeerOutputs, news: ChannelPeerInputs): Promise<dynamic.UpdateResult> {
    return Promise.resolve({ outs: outputsOf(news, olds.alreadyJoined) });
  },
  async read(id: string, props: ChannelPeerOutputs): Promise<dynamic.ReadResult> {
    const joined = await withPeer(inputsOf(props), async (peer) =>
      (await listPeerChannels(peer)).includes(props.channel),
    );
    return joined ? { id, props } : { id: "" };
  },
  delete(_id: string, props: ChannelPeerOutputs): Promise<void> {
    log(
      "info",
      `ChannelPeer ${nameFromUrn(props.__urn)}: peer ${props.peer.address} stays in channel '${props.channel}' (a peer leaves a channel only offline, \`peer node unjoin\`); nothing was sent`,
      props.__urn,
    );
    return Promise.resolve();
  },
};
