import type * as pulumi from "@pulumi/pulumi";
import type {
  ChannelCredentials,
  ChannelNode,
  ChannelUpdateSettings,
} from "../../provider/resources/ledger/channel/channel-shapes";
import type { Inputs } from "./inputs";
import { gatewayInputs, identityInputs } from "./ledger-transaction";
import type { LedgerIdentityArgs } from "./ledger-transaction";

/** An orderer or a peer and how to reach it (channel-shapes.ts's ChannelNode, each field an Input). */
export type ChannelNodeArgs = Inputs<ChannelNode>;

/**
 * What every resource owning a part of a channel takes (channel-shapes.ts's ChannelUpdateSettings): `orderer`,
 * `identity` and each of `signers` plain objects of Inputs, which the SDK reads to wrap keys as secrets and make file
 * paths absolute.
 */
export type ChannelUpdateArgs<S extends ChannelUpdateSettings> = Inputs<
  S,
  "orderer" | "identity" | "signers",
  { orderer: ChannelNodeArgs; identity: LedgerIdentityArgs; signers?: LedgerIdentityArgs[] }
>;

/** A node as the provider takes it: a client TLS key as a secret, a key file's path made absolute. */
export function nodeInputs(node: ChannelNodeArgs): Record<string, pulumi.Input<unknown>> {
  return gatewayInputs(node);
}

/** The settings of a channel part as the provider takes them, and its outputs-only properties (undefined). */
export function updateInputs(args: ChannelUpdateArgs<ChannelUpdateSettings>): Record<string, unknown> {
  return {
    channel: args.channel,
    orderer: nodeInputs(args.orderer),
    identity: identityInputs(args.identity),
    ...(args.signers === undefined ? {} : { signers: args.signers.map(identityInputs) }),
    ...(args.timeouts === undefined ? {} : { timeouts: args.timeouts }),
    configSequence: undefined,
    configBlock: undefined,
    credentials: undefined,
  };
}

/** The key material refresh reads the channel with that no reference holds (channel-shapes.ts's ChannelCredentials). */
export type ChannelPartCredentials = ChannelCredentials;
