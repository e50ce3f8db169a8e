/**
 * An endorsing peer of one organization: validates the proposal, simulates the chaincode against the world state,
 * and signs a ProposalResponse (Fabric core/endorser/endorser.go ProcessProposal). The proposal hash covers
 * channel header ‖ signature header ‖ f(payload without TransientMap), f being the visibility function; a peer
 * that does not support the requested visibility ignores it like a real Fabric peer (which only does "full").
 */
import { CHAINCODE_ERROR, type ChaincodeResponse } from "./chaincode";
import { sha256, type ChannelConfig } from "./channel-config";
import type { Ledger } from "./ledger";
import type { Endorsement } from "./messages";
import { policyDenied, READER_ROLES, type Organization } from "./msp";
import { ProposalError, validateProposal, type UnpackedProposal } from "./proposal";
import { notRunnableBecause, runnableChaincode } from "./chaincode-definitions";
import { invokeLifecycle, SYSTEM_CHAINCODE_VERSION } from "./lifecycle-scc";
import { LIFECYCLE_SCC } from "./lifecycle-store";
import { invokeQscc, QSCC_NAME } from "./qscc";
import { signLowS } from "./signatures";
import { TxSimulator } from "./simulator";
import { encode } from "./wire";

export type Visibility = "full" | "hash" | "nothing";
export const VISIBILITY_MODES: readonly Visibility[] = ["full", "hash", "nothing"];

/** The mode a peer applies: the requested one when supported, otherwise Fabric's only mode, "full". */
export function effectiveVisibility(requested: string, supported: readonly Visibility[]): Visibility {
  const mode = requested === "" ? "full" : requested;
  return supported.find((m) => m === mode) ?? "full";
}

/** f(payload): what goes into ChaincodeActionPayload.chaincode_proposal_payload and the proposal hash. */
export function applyVisibility(mode: Visibility, payloadWithoutTransient: Buffer): Buffer {
  switch (mode) {
    case "full":
      return payloadWithoutTransient;
    case "hash":
      return sha256(payloadWithoutTransient);
    case "nothing":
      return Buffer.alloc(0);
  }
}

export type PeerOutcome =
  | {
      readonly kind: "endorsed";
      readonly response: ChaincodeResponse;
      /** The serialized ProposalResponsePayload this peer signed. */
      readonly proposalResponsePayload: Buffer;
      readonly endorsement: Endorsement;
    }
  /** The peer could not be reached (fault injection): the gateway may try another. */
  | { readonly kind: "unavailable"; readonly message: string }
  /**
   * The proposal was refused: by the endorser's checks before it ran (`preProcess`: Fabric's Endorser service answers
   * those with a gRPC error), or when it could not run (an undefined or uninstalled chaincode: a 500 response).
   */
  | { readonly kind: "refused"; readonly message: string; readonly preProcess?: boolean }
  /** The chaincode returned an error status. */
  | { readonly kind: "chaincode-error"; readonly response: ChaincodeResponse };

export class EndorsingPeer {
  constructor(
    readonly organization: Organization,
    private readonly config: ChannelConfig,
    private readonly ledger: Ledger,
  ) {}

  get mspId(): string {
    return this.organization.mspId;
  }

  get address(): string {
    return this.organization.peerAddress;
  }

  async process(up: UnpackedProposal, supported: readonly Visibility[], unavailable: boolean): Promise<PeerOutcome> {
    if (unavailable) {
      return {
        kind: "unavailable",
        message: `failed to connect to endorsing peer ${this.address}: connection refused`,
      };
    }
    const channelless = up.channelHeader.channelId === "";
    if (!channelless && up.channelHeader.channelId !== this.config.channel) {
      return { kind: "refused", message: `channel '${up.channelHeader.channelId}' not found` };
    }
    try {
      await validateProposal(
        up,
        this.config.msp,
        (txId) => !channelless && this.ledger.transaction(txId) !== undefined,
      );
    } catch (err) {
      if (err instanceof ProposalError) return { kind: "refused", message: err.message, preProcess: true };
      throw err;
    }
    const creator = await this.config.msp.deserialize(up.signatureHeader.creator);
    // A channelless proposal is checked against the peer's own MSP, which knows its organization only.
    if (channelless && (!creator.ok || creator.identity.mspId !== this.mspId)) {
      return {
        kind: "refused",
        message: "error validating proposal: access denied: channel [] creator org unknown, creator is malformed",
        preProcess: true,
      };
    }
    if (channelless && up.chaincodeName !== LIFECYCLE_SCC) {
      return { kind: "refused", message: `channel '' not found` };
    }
    const [fnBytes, ...args] = up.input.args;
    const fn = fnBytes?.toString("utf8");
    const simulator = new TxSimulator(this.ledger.state, up.chaincodeName, up.channelHeader.txId, this.config.channel);
    let response: ChaincodeResponse;
    let version: string;
    let results: Buffer | undefined;
    const chaincode = runnableChaincode(this.config, this.ledger.state, this.mspId, up.chaincodeName);
    if (chaincode !== undefined) {
      response = chaincode.invoke(simulator, fn, args);
      version = chaincode.version;
    } else if (up.chaincodeName === LIFECYCLE_SCC && creator.ok) {
      const invoked = invokeLifecycle(
        {
          peerMsp: this.mspId,
          creator: creator.identity,
          channelId: up.channelHeader.channelId,
          organizations: this.config.policy.organizations,
          state: this.ledger.state,
          store: this.config.lifecycle,
          txId: up.channelHeader.txId,
        },
        up.input.args,
        this.config.channel,
      );
      response = invoked.response;
      results = invoked.results;
      version = SYSTEM_CHAINCODE_VERSION;
    } else if (up.chaincodeName === QSCC_NAME) {
      // qscc's own ACL check (core/scc/qscc/query.go): every function needs the channel's Readers.
      response =
        creator.ok && !READER_ROLES.includes(creator.identity.role)
          ? {
              status: CHAINCODE_ERROR,
              message: `access denied for [${fn ?? ""}][${this.config.channel}]: [${policyDenied(this.config.channel, "Readers")}]`,
              payload: Buffer.alloc(0),
            }
          : invokeQscc(this.ledger, fn ?? "", args);
      version = "";
    } else {
      const why =
        notRunnableBecause(this.config, this.ledger.state, this.mspId, up.chaincodeName) ??
        `chaincode definition for '${up.chaincodeName}' not found`;
      return {
        kind: "refused",
        message: `make sure the chaincode ${up.chaincodeName} has been successfully defined on channel ${this.config.channel} and try again: ${why}`,
      };
    }
    if (response.status >= 400) return { kind: "chaincode-error", response };

    const visibility = effectiveVisibility(up.payloadVisibility, supported);
    const proposalHash = sha256(
      up.header.channelHeader,
      up.header.signatureHeader,
      applyVisibility(visibility, up.payloadWithoutTransient),
    );
    const event = simulator.event;
    const action = encode("protos.ChaincodeAction", {
      results: results ?? simulator.results(),
      events:
        event === undefined
          ? Buffer.alloc(0)
          : encode("protos.ChaincodeEvent", {
              chaincodeId: up.chaincodeName,
              txId: up.channelHeader.txId,
              eventName: event.name,
              payload: event.payload,
            }),
      response,
      chaincodeId: { name: up.chaincodeName, version },
    });
    const proposalResponsePayload = encode("protos.ProposalResponsePayload", { proposalHash, extension: action });
    return { kind: "endorsed", response, proposalResponsePayload, endorsement: this.endorse(proposalResponsePayload) };
  }

  /** This peer's endorsement of `proposalResponsePayload`: a signature over payload ‖ endorser identity. */
  endorse(proposalResponsePayload: Buffer): Endorsement {
    const endorser = this.organization.peer.serialized;
    const signature = signLowS(
      this.organization.peer.certificate.privateKey,
      Buffer.concat([proposalResponsePayload, endorser]),
    );
    return { endorser, signature };
  }
}

/** A chaincode error response for the gateway's error detail ("chaincode response 500, ..."). */
export function chaincodeErrorMessage(response: ChaincodeResponse): string {
  return `chaincode response ${response.status}, ${response.message}`;
}
