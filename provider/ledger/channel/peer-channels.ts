/**
 * A peer's channels through its configuration system chaincode, cscc, as `peer channel join` and `peer channel list`
 * call it: proposals to the peer itself (no channel), signed by the peer's admin (cscc's JoinChain and GetChannels
 * ACLs are its local MSP's Admins), sent to its Endorser service (endorser-client.ts). Joining with a channel's
 * genesis block (or a later configuration block) makes the peer pull the channel's blocks from the orderers; a peer
 * that has the channel already is adopted, never an error.
 */
import { codecs } from "../codec";
import type { Endorser } from "../endorser-client";
import { EndorserError } from "../../errors/ledger/endorser-error";
import type { Block } from "../messages";
import { readConfigBlock } from "./config-block";

const CSCC = "cscc";
/** The peer's answer to JoinChain for a channel whose ledger it has (kvledger's "ledger [c] already exists"). */
const ALREADY_JOINED = /ledger \[[^\]]*\] already exists/;

/** The channels a peer has joined, sorted. Throws EndorserError (an identity not the peer's admin: access denied). */
export async function listPeerChannels(peer: Endorser): Promise<readonly string[]> {
  const { payload } = await peer.processProposal({ chaincodeName: CSCC, functionName: "GetChannels" });
  return codecs.ChannelQueryResponse.decode(payload, { path: "cscc GetChannels" })
    .channels.map((c) => c.channelId)
    .sort();
}

/**
 * Joins the peer to the channel of `block` (its genesis block: the peer replays the chain from the orderers).
 * Resolves `alreadyJoined: true` when the peer has the channel already. Throws EndorserError for other refusals (an
 * identity that is not the peer's admin, a block that is no configuration block, a channel its capabilities do not
 * support).
 */
export async function joinPeerChannel(
  peer: Endorser,
  block: Block,
): Promise<{ readonly channelId: string; readonly alreadyJoined: boolean }> {
  const { channelId } = readConfigBlock(block);
  try {
    await peer.processProposal({ chaincodeName: CSCC, functionName: "JoinChain", args: [codecs.Block.encode(block)] });
    return { channelId, alreadyJoined: false };
  } catch (error) {
    if (error instanceof EndorserError && ALREADY_JOINED.test(error.responseMessage)) {
      return { channelId, alreadyJoined: true };
    }
    throw error;
  }
}
