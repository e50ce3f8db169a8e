import { LedgerError } from "./ledger-error";

/**
 * A part of a channel's configuration a resource owns was changed by someone else, and the resource refused to
 * overwrite it without the user having seen it: since the stack last recorded it (run `pulumi refresh` to see and
 * record the change, then `pulumi up`), or since this run's preview read it. `fields` are the owned fields that
 * changed; nothing was sent.
 */
export class ChannelDriftError extends LedgerError {
  static override readonly kind: string = "ChannelDriftError";
  readonly channelId: string;
  readonly fields: readonly string[];

  constructor(properties: Readonly<{ channelId: string; fields: readonly string[]; message: string }>) {
    super({ message: properties.message });
    this.channelId = properties.channelId;
    this.fields = properties.fields;
  }
}
