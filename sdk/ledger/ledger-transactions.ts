import * as pulumi from "@pulumi/pulumi";
import { RESOURCES } from "../../provider/registry";
import { OpsLedgerDynamicResource } from "../provider-stubs";
import { gatewayInputs, identityInputs } from "./ledger-transaction";
import type { LedgerGatewayArgs, LedgerIdentityArgs } from "./ledger-transaction";
import type {
  LedgerCredentials,
  LedgerTransactionsCommitted,
  LedgerTransactionsItem,
  LedgerTransactionsPlanned,
  LedgerTransactionsShape,
  LedgerTransactionsTimeouts as LedgerTransactionsTimeoutsShape,
} from "../../provider/resources/ledger/ledger-shapes";
import type { Inputs } from "./inputs";
import { hasFaceType, resourceFaceTypes, type FaceTypes } from "../face-types";

/** What the resource reports of each item (declared once, with the provider's outputs, in ledger-shapes.ts). */
export type { LedgerTransactionsCommitted, LedgerTransactionsPlanned };

/** The type token of the dynamic resource (module "ledger", type "LedgerTransactions"). Frozen: state names it. */
export const LEDGER_TRANSACTIONS_TYPE: string = RESOURCES.ledgerTransactions.dynamicType;

/** One transaction of the list (ledger-shapes.ts's LedgerTransactionsItem, each field an Input). */
export type LedgerTransactionsItemArgs = Inputs<LedgerTransactionsItem>;

/** Deadlines of one item's commit wait (ledger-shapes.ts's LedgerTransactionsTimeouts, each field an Input). */
export type LedgerTransactionsTimeouts = Inputs<LedgerTransactionsTimeoutsShape>;

/** The LedgerTransactions' inputs (ledger-shapes.ts's LedgerTransactionsShape): `gateway`, `identity` plain objects. */
export type LedgerTransactionsArgs = Inputs<
  LedgerTransactionsShape,
  "gateway" | "identity",
  { gateway: LedgerGatewayArgs; identity: LedgerIdentityArgs }
>;

/**
 * Many Hyperledger Fabric transactions in one resource, sharing a gateway, channel, identity and trusted roots: each
 * item is submitted exactly once, as a LedgerTransaction is (verify-before-sign, the same signers and key types), and
 * adopted rather than submitted again when a killed run committed it. Items go concurrently (`maxInFlight` at once)
 * unless `ordered`. A failed item fails the resource naming its key and code; the committed items stay recorded and
 * the next `pulumi up` submits the rest. One resource instead of one per transaction keeps `pulumi up` near the speed
 * of a script (docs/ledger-transactions.md).
 */
export class LedgerTransactions extends OpsLedgerDynamicResource {
  /** This class's type strings on each face (sdk/face-types.ts): what a policy sees for its resources. */
  static readonly faceTypes: FaceTypes = resourceFaceTypes(RESOURCES.ledgerTransactions);
  /**
   * Whether `obj` is one of this class's resources on any face: what @pulumi/policy's `validateResourceOfType` and
   * `remediateResourceOfType` ask, so that one policy guards every language (docs/policy.md).
   */
  static override isInstance(obj: unknown): obj is LedgerTransactions {
    return hasFaceType(LedgerTransactions.faceTypes, obj);
  }
  /** The list with each item's generation and txId (known in preview). */
  declare readonly transactions: pulumi.Output<LedgerTransactionsPlanned[]>;
  /** The committed items, in list order. */
  declare readonly committed: pulumi.Output<LedgerTransactionsCommitted[]>;
  /**
   * The key material refresh signs with that no reference holds (a privateKeyPem or PIN given as a value, the mutual
   * TLS client key given as clientKeyPem). Only ever a Pulumi secret.
   * @secret
   */
  declare readonly credentials: pulumi.Output<LedgerCredentials>;

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
      // credentials is stored only as a Pulumi secret: its @secret tag (OpsLedgerDynamicResource reads the schema).
      opts,
    );
  }
}
