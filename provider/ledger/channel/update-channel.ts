/**
 * A declared change made to a running channel, the whole ritual in one place: read the newest configuration block
 * (Deliver), apply the change to get the desired configuration, compute the update (configtxlator's rule), check that
 * the signers satisfy the mod_policy of everything it modifies (before anything is sent, naming who is missing), sign
 * it with each signer (any Signer: key file, HSM, KMS) and any signatures collected elsewhere, submit the CONFIG_UPDATE
 * envelope (Broadcast), and wait for the configuration block that carries it. A desired configuration the channel
 * already has computes no update and sends nothing (a re-run after an interrupted one adopts what was done).
 */
import type { Config, ConfigSignature, ConfigUpdate } from "../config-messages";
import { concatBytes } from "../hash";
import { verifySignature } from "../signing";
import { BroadcastError } from "../../errors/ledger/broadcast-error";
import { ChannelConfigError } from "../../errors/ledger/channel-config-error";
import { checkConfigChange } from "./check-change";
import { applyConfigChange } from "./config-change";
import type { ApplyOptions, ChannelConfigChange } from "./change-declaration";
import type { ConfigBlock } from "./config-block";
import { ConfigUpdateAuthorizationError } from "../../errors/ledger/config-update-authorization-error";
import { configUpdateBytes, configUpdateEnvelope, signConfigUpdate, signerOf } from "./config-update-signing";
import type { SigningIdentity } from "./config-update-signing";
import { computeConfigUpdate } from "./compute-update";
import { fetchBlock, fetchConfigBlock, waitForConfigBlock } from "./deliver-client";
import type { DeliverOptions, DeliverTarget } from "./deliver-client";
import type { OrdererClient } from "./orderer-client";
import { authorizeConfigUpdate } from "./update-authorization";
import type { UpdateAuthorization } from "./update-authorization";

/** What a change would do to the channel: computed offline from its current configuration. */
export interface ChannelUpdatePlan {
  readonly channelId: string;
  readonly current: ConfigBlock;
  readonly desired: Config;
  /** Undefined when the channel already has the desired configuration. */
  readonly update: ConfigUpdate | undefined;
}

/** The plan of `change` against the channel's configuration block (no request; ChannelConfigError for bad input). */
export function planChannelUpdate(
  current: ConfigBlock,
  change: ChannelConfigChange,
  options: ApplyOptions = {},
): ChannelUpdatePlan {
  const desired = applyConfigChange(current.config, change, options);
  return {
    channelId: current.channelId,
    current,
    desired,
    update: computeConfigUpdate(current.channelId, current.config, desired),
  };
}

export interface SubmitOptions {
  readonly orderer: OrdererClient;
  /** Where configuration blocks are read from: an orderer, or a peer (which sends a block once it committed it). */
  readonly deliver: DeliverTarget;
  /** Reads blocks (a member of the channel's Readers). @default the submitter */
  readonly reader?: SigningIdentity;
  /** The identities that sign the update now (each through its own Signer). */
  readonly signers: readonly SigningIdentity[];
  /** Signatures collected elsewhere (another organization's admin signed the same update bytes). */
  readonly signatures?: readonly ConfigSignature[];
  /** Who signs the envelope (a Writer). @default the first signer */
  readonly submitter?: SigningIdentity;
  /** How often a Broadcast the orderer answers SERVICE_UNAVAILABLE (no leader yet) is tried. @default 3 */
  readonly broadcastAttempts?: number;
  /** Deadline supplier and signal of the block reads. */
  readonly deliverOptions?: Omit<DeliverOptions, "reader">;
}

/** What an applied update produced. */
export interface ChannelUpdateResult {
  /** False when the channel already had the desired configuration (nothing was sent). */
  readonly changed: boolean;
  /** The configuration block the channel now has. */
  readonly block: ConfigBlock;
  readonly authorization?: UpdateAuthorization;
}

function noSigner(): ChannelConfigError {
  return new ChannelConfigError({
    problem: "CONFIG",
    field: "signers",
    message: "no signer: give at least one identity that signs the update and its envelope (a submitter)",
  });
}

function checkSignatures(updateBytes: Uint8Array, signatures: readonly ConfigSignature[], channelId: string): void {
  for (const s of signatures) {
    const who = signerOf(s);
    const ok = verifySignature({
      publicKey: who.credentials,
      message: concatBytes(s.signatureHeader, updateBytes),
      signature: s.signature,
    });
    if (!ok)
      throw new ConfigUpdateAuthorizationError({
        authorization: {
          channelId,
          modified: [],
          stale: [],
          badVersions: [],
          checks: [],
          authorized: false,
          missingOrganizations: [who.mspId],
          rejectedSigners: [
            {
              mspId: who.mspId,
              reason: "its signature does not verify over this update's bytes (it signed another update)",
            },
          ],
        },
      });
  }
}

/**
 * Signs and submits a planned update, then waits for its configuration block. Throws ConfigUpdateAuthorizationError
 * (nothing sent) when the signatures do not satisfy the policies, BroadcastError when the orderer refuses (STALE_READ_SET:
 * re-read and plan again), DeliverError when the block does not come in time.
 */
export async function submitChannelUpdate(
  plan: ChannelUpdatePlan,
  options: SubmitOptions,
): Promise<ChannelUpdateResult> {
  const update = plan.update;
  if (update === undefined) return { changed: false, block: plan.current };
  const updateBytes = configUpdateBytes(update);
  const given = options.signatures ?? [];
  checkSignatures(updateBytes, given, plan.channelId);
  const identities = [...options.signers.map((s) => s.identity), ...given.map(signerOf)];
  const authorization = await authorizeConfigUpdate(plan.current.config, update, identities);
  if (!authorization.authorized) throw new ConfigUpdateAuthorizationError({ authorization });
  const signatures = [...given, ...(await Promise.all(options.signers.map((s) => signConfigUpdate(updateBytes, s))))];
  const submitter = options.submitter ?? options.signers[0];
  if (submitter === undefined) throw noSigner();
  const reader = options.reader ?? submitter;
  const deliverOptions: DeliverOptions = { ...options.deliverOptions, reader };
  const envelope = await configUpdateEnvelope({ channelId: plan.channelId, updateBytes, signatures, submitter });
  const newest = await fetchBlock(options.deliver, plan.channelId, "newest", deliverOptions);
  const attempts = Math.max(1, options.broadcastAttempts ?? 3);
  for (let attempt = 1; ; attempt++) {
    try {
      await options.orderer.broadcast(envelope, plan.channelId);
      break;
    } catch (error) {
      // The same envelope again is safe: once applied, a second copy fails on its versions and changes nothing.
      if (!(error instanceof BroadcastError) || !error.retryable || attempt >= attempts) throw error;
    }
  }
  const block = await waitForConfigBlock(
    options.deliver,
    plan.channelId,
    { fromBlock: (newest.header?.number ?? 0n) + 1n, minSequence: plan.current.config.sequence + 1n },
    deliverOptions,
  );
  return { changed: true, block, authorization };
}

/** The whole ritual: read, plan, check, sign, submit, wait (see the module comment). */
export async function updateChannelConfig(
  channelId: string,
  change: ChannelConfigChange,
  options: SubmitOptions & ApplyOptions,
): Promise<ChannelUpdateResult> {
  checkConfigChange(change, options);
  const reader = options.reader ?? options.submitter ?? options.signers[0];
  if (reader === undefined) throw noSigner();
  const current = await fetchConfigBlock(options.deliver, channelId, { ...options.deliverOptions, reader });
  const plan = planChannelUpdate(current, change, options);
  return submitChannelUpdate(plan, options);
}
