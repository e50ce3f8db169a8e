import { LedgerError } from "./ledger-error";

/** What is wrong with a declared channel configuration. */
export type ChannelConfigProblem =
  | "MSP_CERTIFICATE"
  | "UNKNOWN_ORGANIZATION"
  | "DUPLICATE_ORGANIZATION"
  | "UNSUPPORTED_CAPABILITY"
  | "BATCH_SIZE"
  | "BATCH_TIMEOUT"
  | "POLICY"
  | "ANCHOR_PEER"
  | "CONSENTER"
  | "ORDERER_ENDPOINT"
  | "CHANNEL_ID"
  | "NO_CHANGE"
  | "CONFIG";

/**
 * A declared channel configuration (or change) that Fabric would refuse, found before any request was sent. `field`
 * is the declaration's path at fault (`application.organizations[Org3MSP].rootCertificates[0]`), `organization` the
 * MSP id it concerns when there is one; the message names both and the fix.
 */
export class ChannelConfigError extends LedgerError {
  static override readonly kind: string = "ChannelConfigError";
  readonly problem: ChannelConfigProblem;
  readonly field: string;
  readonly organization: string | undefined;

  constructor(
    properties: Readonly<{
      problem: ChannelConfigProblem;
      field: string;
      organization?: string | undefined;
      message: string;
      cause?: unknown;
    }>,
  ) {
    super({ message: `${properties.field}: ${properties.message}`, cause: properties.cause });
    this.problem = properties.problem;
    this.field = properties.field;
    this.organization = properties.organization;
  }
}
