import * as pulumi from "@pulumi/pulumi";
import { FUNCTIONS } from "../../provider/registry";
import type * as ChannelRead from "../../provider/resources/ledger/channel/channel-config-read";
import type { ChannelConfigView, ChannelReadShape } from "../../provider/resources/ledger/channel/channel-shapes";
import { readOrInvokeMocks } from "../under-mocks";
import { gatewayOf, identityOf } from "./ledger-read-args";
import type { DeepInput } from "./ledger-read-args";

/** What getChannelConfig takes (channel-shapes.ts's ChannelReadShape). */
export type GetChannelConfigArgs = ChannelReadShape;

/**
 * A channel's configuration, decoded: organizations with their MSP ids, root and TLS root certificates and anchor
 * peers; the orderers' consensus, consenters, batch size and timeout; capabilities per level; policies and ACLs; the
 * configuration sequence (channel-shapes.ts's ChannelConfigView).
 */
export type GetChannelConfigResult = ChannelConfigView;

function channelRead(): typeof ChannelRead {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on first use, as the ledger reads are
  return require("../../provider/resources/ledger/channel/channel-config-read") as typeof ChannelRead;
}

/**
 * Reads a channel's configuration from an orderer or a peer (Deliver: its newest configuration block, as `peer channel
 * fetch config` finds it) as an identity of the channel's Readers, and decodes it. Bad input is refused naming the
 * field before anything is sent.
 */
export function getChannelConfig(
  args: GetChannelConfigArgs,
  _opts?: pulumi.InvokeOptions,
): Promise<GetChannelConfigResult> {
  return readOrInvokeMocks(FUNCTIONS.getChannelConfig, args, () =>
    channelRead().readChannelConfig({ ...args, node: gatewayOf(args.node), identity: identityOf(args.identity) }),
  );
}

/** getChannelConfig with inputs that may be Outputs. */
export function getChannelConfigOutput(
  args: DeepInput<GetChannelConfigArgs>,
  opts?: pulumi.InvokeOptions,
): pulumi.Output<GetChannelConfigResult> {
  return pulumi.output(args).apply((a) => getChannelConfig(a as GetChannelConfigArgs, opts));
}
