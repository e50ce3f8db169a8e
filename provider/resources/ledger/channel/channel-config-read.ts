/**
 * ledger.getChannelConfig, on both faces (the SDK's function in the program process, the plugin's invoke): a channel's
 * configuration read from an orderer or a peer (Deliver: its newest configuration block, as `peer channel fetch
 * config` finds it), signed by an identity of the channel's Readers, and decoded (channel-view.ts). Every bad input is
 * refused naming the field before the signer is opened or anything is sent.
 */
import { LedgerError, ValidationError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { newIdentity } from "../../../ledger";
import { connectDeliver, fetchConfigBlock } from "../../../ledger/channel/deliver-client";
import { describeConfigBlock } from "../../../ledger/channel/describe-config";
import { identityFailures, openLedgerSigner } from "../session/ledger-signers";
import { hasUnknown } from "../ledger-values";
import { nodeClientKey, nodeFailures, nodeTls, tlsCertHash } from "./channel-nodes";
import type { NodeField } from "./channel-nodes";
import { readFailure, settingsFailures } from "./channel-part-session";
import type { ChannelConfigView, ChannelReadShape } from "./channel-shapes";
import { channelConfigView } from "./channel-view";

/** How long the read may take. */
export const CHANNEL_READ_TIMEOUT_MS = 60_000;

const NODE_FIELD: NodeField = {
  field: "node",
  node: "node",
  example: "'127.0.0.1:7050' (an orderer) or '127.0.0.1:7051' (a peer)",
};

/** Every bad input of getChannelConfig, as failures naming the field. Never throws. */
export function channelReadFailures(inputs: Partial<ChannelReadShape>): FieldFailure[] {
  const n = inputs as Record<string, unknown>;
  const channel = settingsFailures({
    channel: n["channel"],
    orderer: { address: "127.0.0.1:1" },
    identity: n["identity"],
  });
  const kind = n["nodeKind"];
  const kindFailures =
    kind === undefined || hasUnknown(kind) || kind === "orderer" || kind === "peer"
      ? []
      : [{ property: "nodeKind", reason: "must be 'orderer' or 'peer'" }];
  return [
    ...channel.filter((f) => f.property === "channel"),
    ...nodeFailures(n["node"], NODE_FIELD),
    ...kindFailures,
    ...identityFailures(n["identity"]),
  ];
}

/** ledger.getChannelConfig: the channel's configuration, decoded. */
export async function readChannelConfig(inputs: ChannelReadShape): Promise<ChannelConfigView> {
  const failures = channelReadFailures(inputs);
  const key = failures.length === 0 ? nodeClientKey(inputs.node, NODE_FIELD) : { key: undefined };
  if ("failures" in key) failures.push(...key.failures);
  if (failures.length > 0 || "failures" in key)
    throw new ValidationError({ subject: "ledger.getChannelConfig", failures });
  const signer = await openLedgerSigner(inputs.identity);
  const tls = nodeTls(inputs.node, key.key);
  const node = connectDeliver({
    address: inputs.node.address,
    kind: inputs.nodeKind ?? "orderer",
    ...(tls === undefined ? {} : { tls }),
  });
  try {
    const hash = tlsCertHash(inputs.node);
    const block = await fetchConfigBlock(node, inputs.channel, {
      reader: { identity: newIdentity(inputs.identity.mspId, inputs.identity.certificatePem), signer: signer.signer },
      ...(hash === undefined ? {} : { tlsCertHash: hash }),
      callOptions: () => ({ deadline: Date.now() + CHANNEL_READ_TIMEOUT_MS }),
    });
    return channelConfigView(describeConfigBlock(block));
  } catch (error) {
    const failure = readFailure(error, { channel: inputs.channel, orderer: inputs.node }, inputs.nodeKind ?? "orderer");
    throw new LedgerError({
      message: `ledger.getChannelConfig: ${failure.property.replace(/^orderer/, "node")} ${failure.reason}`,
      cause: error,
    });
  } finally {
    node.close();
    signer.close();
  }
}
