/**
 * The ledger of a ledger target (test/helpers/ledger-targets.ts) as any client can read it, the same way on the
 * Fabric sandbox and on a real network: qscc (GetChainInfo, GetBlockByNumber, GetBlockByTxID, GetTransactionByID)
 * through the official @hyperledger/fabric-gateway client, decoded with @hyperledger/fabric-protos — nothing of the
 * sandbox's internals and nothing of our own client or codec, which are what the tests check.
 */
import { common, peer } from "@hyperledger/fabric-protos";
import { waitForBlock } from "./fabric-network-client";
import type { LedgerTarget } from "./ledger-targets";

/** A transaction as a block holds it. */
export interface LedgerEntry {
  readonly block: number;
  readonly txId: string;
  readonly code: number;
  /** The TxValidationCode's name in fabric-protos, e.g. "VALID", "MVCC_READ_CONFLICT". */
  readonly codeName: string;
  /** The chaincode invocation's arguments as UTF-8, the function first ([] for other transaction types). */
  readonly args: readonly string[];
}

const CODE_NAMES = new Map<number, string>(Object.entries(peer.TxValidationCode).map(([name, code]) => [code, name]));
const TRANSACTIONS_FILTER = common.BlockMetadataIndex.TRANSACTIONS_FILTER;

export function validationCodeName(code: number): string {
  return CODE_NAMES.get(code) ?? `code ${String(code)}`;
}

/** The chaincode arguments of an endorser transaction's envelope ([] for any other kind). */
export function invocationArgs(envelope: Uint8Array): { txId: string; args: string[] } {
  const payload = common.Payload.deserializeBinary(common.Envelope.deserializeBinary(envelope).getPayload_asU8());
  const channelHeader = common.ChannelHeader.deserializeBinary(
    payload.getHeader()?.getChannelHeader_asU8() ?? new Uint8Array(0),
  );
  const txId = channelHeader.getTxId();
  if (channelHeader.getType() !== common.HeaderType.ENDORSER_TRANSACTION) return { txId, args: [] };
  const action = peer.Transaction.deserializeBinary(payload.getData_asU8()).getActionsList()[0];
  const actionPayload = peer.ChaincodeActionPayload.deserializeBinary(action?.getPayload_asU8() ?? new Uint8Array(0));
  const proposalPayload = peer.ChaincodeProposalPayload.deserializeBinary(
    actionPayload.getChaincodeProposalPayload_asU8(),
  );
  const spec = peer.ChaincodeInvocationSpec.deserializeBinary(proposalPayload.getInput_asU8()).getChaincodeSpec();
  const args = spec?.getInput()?.getArgsList_asU8() ?? [];
  return { txId, args: args.map((a) => Buffer.from(a).toString("utf8")) };
}

export interface LedgerReader {
  /** The number of blocks (the next block's number). */
  height(): Promise<number>;
  /** Every transaction in blocks `from` up to the current height, in ledger order. */
  entries(from: number): Promise<LedgerEntry[]>;
  /** The transactions from block `from` on whose arguments (after the function) include `key`. */
  naming(key: string, from: number): Promise<LedgerEntry[]>;
  /** The number of the block holding `txId`. */
  blockOf(txId: string): Promise<number>;
  /** qscc GetTransactionByID, or undefined when the peer does not know the txId. */
  processed(txId: string): Promise<peer.ProcessedTransaction | undefined>;
  /** The chaincode's answer to an evaluation (e.g. ReadAsset), through the official client. */
  evaluate(fn: string, ...args: string[]): Promise<string>;
  /**
   * Resolves once every organization's peer has committed block `block` (a commit status is one peer's word; a
   * transaction endorsed right after on another peer must not read older state). The sandbox has one ledger.
   */
  settled(block: number): Promise<void>;
}

type Qscc = (fn: string, ...args: string[]) => Promise<Uint8Array>;

export function ledgerReader(target: LedgerTarget): LedgerReader {
  /** Runs `use` with qscc over one connection to the first organization's gateway. */
  const withQscc = async <T>(use: (qscc: Qscc) => Promise<T>): Promise<T> => {
    const connection = target.connectOfficial();
    try {
      const contract = connection.gateway.getNetwork(target.channel).getContract("qscc");
      return await use((fn, ...args) => contract.evaluateTransaction(fn, target.channel, ...args));
    } finally {
      connection.close();
    }
  };
  const qscc: Qscc = (fn, ...args) => withQscc((q) => q(fn, ...args));
  const block = async (q: Qscc, number: number): Promise<LedgerEntry[]> => {
    const b = common.Block.deserializeBinary(await q("GetBlockByNumber", String(number)));
    const filter = b.getMetadata()?.getMetadataList_asU8()[TRANSACTIONS_FILTER] ?? new Uint8Array(0);
    return (b.getData()?.getDataList_asU8() ?? []).map((envelope, i) => {
      const code = filter[i] ?? -1;
      return { block: number, ...invocationArgs(envelope), code, codeName: validationCodeName(code) };
    });
  };
  const reader: LedgerReader = {
    height: async () => common.BlockchainInfo.deserializeBinary(await qscc("GetChainInfo")).getHeight(),
    entries(from) {
      return withQscc(async (q) => {
        const height = common.BlockchainInfo.deserializeBinary(await q("GetChainInfo")).getHeight();
        const found: LedgerEntry[] = [];
        for (let n = from; n < height; n++) found.push(...(await block(q, n)));
        return found;
      });
    },
    async naming(key, from) {
      return (await reader.entries(from)).filter((e) => e.args.slice(1).includes(key));
    },
    async blockOf(txId) {
      return common.Block.deserializeBinary(await qscc("GetBlockByTxID", txId))
        .getHeader()
        ?.getNumber() as number;
    },
    async processed(txId) {
      try {
        return peer.ProcessedTransaction.deserializeBinary(await qscc("GetTransactionByID", txId));
      } catch (error) {
        if (String(error).includes(`no such transaction ID [${txId}]`)) return undefined;
        throw error;
      }
    },
    async evaluate(fn, ...args) {
      const connection = target.connectOfficial();
      try {
        const contract = connection.gateway.getNetwork(target.channel).getContract(target.chaincode);
        return Buffer.from(await contract.evaluateTransaction(fn, ...args)).toString("utf8");
      } finally {
        connection.close();
      }
    },
    async settled(number) {
      const network = target.network;
      if (network === undefined) return;
      for (const mspId of target.organizations) await waitForBlock(network, mspId, BigInt(number));
    },
  };
  return reader;
}
