import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { gatewayInputs, identityInputs } from "./ledger-transaction";
import type { LedgerGatewayArgs, LedgerIdentityArgs } from "./ledger-transaction";
import type { LedgerBytesInput } from "./ledger-transaction-submission";

/** The type token of the dynamic resource (module "ledger", type "LedgerTransactions"). Frozen: state names it. */
export const LEDGER_TRANSACTIONS_TYPE: string = RESOURCES.ledgerTransactions.dynamicType;

/** One transaction of the list. */
export interface LedgerTransactionsItemArgs {
  /**
   * A key of your choosing, unique in the list: the transaction's txId derives from it (with the resource's URN), so
   * reordering the list or inserting items changes no txId.
   */
  key: pulumi.Input<string>;
  /** The chaincode name. @default the resource's `chaincode` */
  chaincode?: pulumi.Input<string>;
  /** The chaincode function, e.g. "CreateAsset". */
  function: pulumi.Input<string>;
  /** Arguments: strings are sent as UTF-8; bytes as `{ base64: "..." }`. @default [] */
  args?: pulumi.Input<pulumi.Input<LedgerBytesInput>[]>;
  /** MSP ids that must endorse. @default the gateway's choice */
  endorsingOrganizations?: pulumi.Input<pulumi.Input<string>[]>;
}

/** Deadlines of one item's commit wait, as durations ("2m", "90s"). */
export interface LedgerTransactionsTimeouts {
  /** Each item of the first `pulumi up`. @default "20m" */
  create?: pulumi.Input<string>;
  /** Each item a later `pulumi up` submits. @default "20m" */
  update?: pulumi.Input<string>;
}

export interface LedgerTransactionsArgs {
  /** The gateway to endorse, submit and query through, for every item. */
  gateway: LedgerGatewayArgs;
  /** The channel of every item. A change submits every item again (new transactions). */
  channel: pulumi.Input<string>;
  /**
   * The channel's highest Channel-group capability: "V3_0" on a Fabric 3 channel that has it, which Ed25519
   * identities need. @default "V2_0"
   */
  channelCapability?: pulumi.Input<"V2_0" | "V3_0">;
  /** The chaincode of every item that names none. */
  chaincode?: pulumi.Input<string>;
  /** Who submits (and signs) every item. A change submits every item again. */
  identity: LedgerIdentityArgs;
  /** MSP id → root CA certificate PEM: every endorsement is verified against these before we sign. */
  trustedRootCertificates: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * The transactions. Adding an item submits it; changing an item's transaction submits a new one for it; removing
   * an item sends nothing (the ledger is append-only) and drops it from the outputs.
   */
  transactions: pulumi.Input<pulumi.Input<LedgerTransactionsItemArgs>[]>;
  /**
   * Submit one item at a time, in list order, each once the one before is committed (and stop at the first that
   * fails): for items that read what an earlier item writes. Otherwise items go concurrently, and two that touch the
   * same key in one block fail as MVCC_READ_CONFLICT. @default false
   */
  ordered?: pulumi.Input<boolean>;
  /** Items in flight at once when not ordered (1 to 256). @default 16 */
  maxInFlight?: pulumi.Input<number>;
  /** Our own deadlines, per item. */
  timeouts?: pulumi.Input<LedgerTransactionsTimeouts>;
}

/** A transaction of the list as the resource planned it: its generation and the txId it submits (shown in preview). */
export interface LedgerTransactionsPlanned {
  key: string;
  chaincode?: string;
  function: string;
  args?: LedgerBytesInput[];
  endorsingOrganizations?: string[];
  /** The generation of the item's transaction (bumped when it changes). */
  generation?: number;
  /** The txId the item is (or was) submitted with. */
  txId?: string;
}

/** A committed item. */
export interface LedgerTransactionsCommitted {
  key: string;
  txId: string;
  /** The validation code's name: "VALID" (a failed item is not recorded). */
  validationCode: string;
  validationCodeNumber: number;
  /** The block holding the transaction (a decimal string: uint64). */
  blockNumber: string;
}

/**
 * Many Hyperledger Fabric transactions in one resource, sharing a gateway, channel, identity and trusted roots: each
 * item is submitted exactly once, as a LedgerTransaction is (verify-before-sign, the same signers and key types), and
 * adopted rather than submitted again when a killed run committed it. Items go concurrently (`maxInFlight` at once)
 * unless `ordered`. A failed item fails the resource naming its key and code; the committed items stay recorded and
 * the next `pulumi up` submits the rest. One resource instead of one per transaction keeps `pulumi up` near the speed
 * of a script (docs/ledger-transactions.md).
 */
export class LedgerTransactions extends OpsLedgerDynamicResource {
  /** The type string of this class's resources (what `validateResourceOfType` of @pulumi/policy matches). */
  static readonly __pulumiType: string = LEDGER_TRANSACTIONS_TYPE;
  /** The list with each item's generation and txId (known in preview). */
  declare readonly transactions: pulumi.Output<LedgerTransactionsPlanned[]>;
  /** The committed items, in list order. */
  declare readonly committed: pulumi.Output<LedgerTransactionsCommitted[]>;

  constructor(name: string, args: LedgerTransactionsArgs, opts?: pulumi.CustomResourceOptions) {
    super(
      RESOURCES.ledgerTransactions,
      name,
      {
        gateway: gatewayInputs(args.gateway),
        channel: args.channel,
        ...(args.channelCapability === undefined ? {} : { channelCapability: args.channelCapability }),
        ...(args.chaincode === undefined ? {} : { chaincode: args.chaincode }),
        identity: identityInputs(args.identity),
        trustedRootCertificates: args.trustedRootCertificates,
        transactions: args.transactions,
        ...(args.ordered === undefined ? {} : { ordered: args.ordered }),
        ...(args.maxInFlight === undefined ? {} : { maxInFlight: args.maxInFlight }),
        ...(args.timeouts === undefined ? {} : { timeouts: args.timeouts }),
        committed: undefined,
        credentials: undefined,
      },
      // credentials is stored only as a Pulumi secret: the registry's secretOutputs (provider/registry/resources.ts).
      opts,
    );
  }
}
