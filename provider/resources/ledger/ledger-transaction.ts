/**
 * ledger.LedgerTransactionSubmission: one Fabric transaction, submitted exactly once (the child of the
 * ledger.LedgerTransaction component in sdk/ledger).
 *
 * Exactly-once: the nonce is the first 24 bytes of SHA-256(domain ‖ creator ‖ URN ‖ uint64-BE generation) (no key
 * involved: ledger-transaction-txid.ts), so txId = hex(SHA-256(nonce ‖ creator)) is the same for every retry of the
 * same generation. `check` keeps the generation (and the txId in state) while the transaction is unchanged — the same
 * transaction fields and the same transient data, compared with the previous inputs Pulumi keeps in state — and bumps
 * it when it changes (a new transaction, shown as a replace). Before submitting, the provider asks qscc for that txId:
 * a committed VALID transaction with our payload is adopted instead of submitted again. An invalid one changed nothing
 * on the ledger, and its txId is burnt (a resubmission would be a DUPLICATE_TXID), so the next generation is used —
 * unless allowInvalid adopts it.
 *
 * Signers: the identity names its key (a file, an environment variable, a PKCS#11 token key, a Cloud KMS key
 * version) or, for compatibility, carries it (`privateKeyPem`). Each step opens the signer in the provider process and
 * checks its public key against the certificate before anything is signed (check does it too, so preview fails on a
 * mismatch): the session does both (session/ledger-session.ts). Outputs keep the reference; only a `privateKeyPem` and a PIN given as a value are kept, in the
 * `credentials` output the SDK marks secret, because `read` and `delete` receive nothing but the outputs. The gateway's
 * client TLS key for mutual TLS is referenced the same way (`clientKeyFile`, `clientKeyEnv`; session/client-tls.ts).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { log } from "../../runtime/context";
import { messageOf, nameFromUrn } from "../common";
import type { LedgerOutcome, LedgerPayload } from "./ledger-shapes";
import { fromLegacyLedgerState, ledgerTransactionInputFailures } from "./ledger-transaction-inputs";
import type { LedgerTransactionInputs, LedgerTransactionOutputs } from "./ledger-transaction-inputs";
import { lookup, outcomeOf, payloadOf, proposalRequestOf, submitOnce } from "./ledger-transaction-submit";
import type { SubmitOnceRequest } from "./ledger-transaction-submit";
import {
  creatorOf,
  deriveNonce,
  deriveTxId,
  onDestroyUrn,
  sameTransaction,
  transactionFields,
} from "./ledger-transaction-txid";
import { canonical, hasUnknown } from "./ledger-values";
import { clientTlsRefusal } from "./session/client-tls";
import { openGateway } from "./session/gateway-connection";
import type { Connection } from "./session/gateway-connection";
import {
  checkSession,
  resourceFrame,
  sessionChanged,
  sessionOfOutputs,
  sessionOutputs,
  withSession,
} from "./session/ledger-session";

function requestOf(i: LedgerTransactionInputs, generation: number): SubmitOnceRequest {
  return {
    urn: i.__urn,
    channel: i.channel,
    chaincode: i.chaincode,
    function: i.function,
    args: i.args ?? [],
    transientData: i.transientData ?? {},
    endorsingOrganizations: i.endorsingOrganizations ?? [],
    visibility: i.visibility ?? "full",
    allowInvalid: i.allowInvalid ?? false,
    generation,
  };
}

/** The outcome as outputs keep it: its generation under the plumbing key `__generation`. */
function outcomeOutputs(outcome: LedgerOutcome): Omit<LedgerOutcome, "generation"> & { __generation: number } {
  const { generation, ...rest } = outcome;
  return { ...rest, __generation: generation };
}

/** The outputs: the inputs without transient data, keys and PIN, those under `credentials`, and the outcome. */
function outputsOf(i: LedgerTransactionInputs, outcome: LedgerOutcome): LedgerTransactionOutputs {
  const { transientData: _t, identity: _i, gateway: _g, previewResult: _p, transactionDigest: _d, ...rest } = i;
  return { ...rest, ...sessionOutputs(i), ...outcomeOutputs(outcome) };
}

/**
 * With previewEndorse, check endorses (no submit, no commit) and returns the simulated result as the input-derived
 * `previewResult`. Preview runs only check and diff, and a dynamic resource's preview state is its checked inputs, so
 * this is the one place a simulated result can reach the program during `pulumi preview`. A txId already on the
 * ledger (a crashed run committed it, or the transaction is unchanged) is not endorsed again: its committed result is
 * shown.
 */
async function previewEndorse(i: LedgerTransactionInputs, txId: string, c: Connection): Promise<LedgerPayload> {
  const gateway = openGateway(c, "create");
  try {
    const generation = i.__generation ?? 1;
    const committed = await lookup(gateway, i.channel, txId);
    if (committed !== undefined) return (await outcomeOf(gateway, i.channel, generation, txId, committed)).result;
    const nonce = deriveNonce(creatorOf(i.identity), i.__urn, generation);
    const proposal = gateway.newProposal(proposalRequestOf(requestOf(i, generation), nonce));
    return payloadOf((await proposal.endorse()).getResult());
  } finally {
    gateway.close();
  }
}

async function check(
  rawOlds: Partial<LedgerTransactionInputs>,
  news: LedgerTransactionInputs,
): Promise<dynamic.CheckResult> {
  const olds = fromLegacyLedgerState(rawOlds);
  const failures = ledgerTransactionInputFailures(news);
  return checkSession(news, news.__urn, failures, async (connection) => {
    const fields = { ...transactionFields(news), transientData: news.transientData, urn: news.__urn };
    if (hasUnknown(fields)) return { inputs: news }; // the txId is shown once every transaction input is known
    // An unchanged transaction keeps its generation and txId: a stack whose txId came from 0.1's key-derived nonce
    // keeps it when its identity switches to a reference to the same key (the certificate is unchanged).
    const same = olds.__generation !== undefined && olds.txId !== undefined && sameTransaction(olds, news);
    const generation = same && olds.__generation !== undefined ? olds.__generation : (olds.__generation ?? 0) + 1;
    const txId = same && olds.txId !== undefined ? olds.txId : deriveTxId(news.identity, news.__urn, generation);
    const { previewResult: _stale, transactionDigest: _legacy, ...rest } = news;
    const inputs: LedgerTransactionInputs = { ...rest, __generation: generation, txId };
    if (news.previewEndorse === true) {
      if (same && olds.previewResult !== undefined) inputs.previewResult = olds.previewResult;
      else if (connection !== undefined) {
        try {
          inputs.previewResult = await previewEndorse(inputs, txId, connection);
        } catch (e) {
          const refusal = clientTlsRefusal(e, news.gateway);
          if (refusal !== undefined) return { failures: [{ property: "gateway.clientCertPem", reason: refusal }] };
          return {
            failures: [
              {
                property: "previewEndorse",
                reason: `endorsing the transaction for the preview failed: ${messageOf(e)}; fix the transaction or set previewEndorse to false`,
              },
            ],
          };
        }
      }
    }
    return { inputs };
  });
}

const TRANSACTION_PROPERTIES = [
  "channel",
  "chaincode",
  "function",
  "args",
  "endorsingOrganizations",
  "visibility",
  "identity",
] as const;

async function diff(
  _id: string,
  rawOlds: LedgerTransactionOutputs,
  news: LedgerTransactionInputs,
): Promise<dynamic.DiffResult> {
  const olds = fromLegacyLedgerState(rawOlds);
  const was = transactionFields({ ...olds, identity: { ...olds.identity } });
  const now = transactionFields(news);
  const replaces: string[] = TRANSACTION_PROPERTIES.filter((p) => canonical(was[p]) !== canonical(now[p]));
  // check decided whether the transient data changed: a new transaction has a new generation.
  const transientChanged =
    news.__generation === undefined ? hasUnknown(news.transientData) : news.__generation !== olds.__generation;
  if (replaces.length === 0 && transientChanged) replaces.push("transientData");
  const changed =
    sessionChanged(olds, news) ||
    (
      [
        "trustedRootCertificates",
        "onDestroy",
        "allowInvalid",
        "previewEndorse",
        "timeouts",
        "channelCapability",
      ] as const
    ).some((k) => canonical(olds[k]) !== canonical(news[k]));
  return Promise.resolve({ changes: replaces.length > 0 || changed, replaces, deleteBeforeReplace: false });
}

export const ledgerTransactionProvider = {
  check,
  diff,
  async create(inputs: LedgerTransactionInputs): Promise<dynamic.CreateResult> {
    const frame = resourceFrame(`LedgerTransaction ${nameFromUrn(inputs.__urn)}`, { urn: inputs.__urn });
    return withSession(inputs, "create", frame, async ({ gateway, connection }) => {
      const outcome = await submitOnce(gateway, connection, requestOf(inputs, inputs.__generation ?? 1));
      return { id: outcome.txId, outs: outputsOf(inputs, outcome) };
    });
  },
  /**
   * Only settings change in place (a transaction input change is a replace): the outcome is carried forward. This is
   * also where a stack moves from `privateKeyPem` to a key reference: the outputs are rewritten without the key.
   */
  update(_id: string, rawOlds: LedgerTransactionOutputs, news: LedgerTransactionInputs): Promise<dynamic.UpdateResult> {
    const olds = fromLegacyLedgerState(rawOlds);
    const outcome: LedgerOutcome = {
      generation: olds.__generation,
      txId: olds.txId,
      validationCode: olds.validationCode,
      validationCodeNumber: olds.validationCodeNumber,
      blockNumber: olds.blockNumber,
      result: olds.result,
      endorsers: olds.endorsers,
      processedTransaction: olds.processedTransaction,
    };
    return Promise.resolve({ outs: outputsOf(news, outcome) });
  },
  async read(id: string, rawProps: LedgerTransactionOutputs): Promise<dynamic.ReadResult> {
    const props = fromLegacyLedgerState(rawProps);
    const frame = resourceFrame(`LedgerTransaction ${nameFromUrn(props.__urn)}`);
    return withSession(sessionOfOutputs(props), "create", frame, async ({ gateway }) => {
      const committed = await lookup(gateway, props.channel, props.txId);
      if (committed === undefined) return { id: "" };
      const outcome = await outcomeOf(gateway, props.channel, props.__generation, props.txId, committed);
      const { transactionDigest: _legacy, ...rest } = props;
      return { id, props: { ...rest, ...outcomeOutputs(outcome) } };
    });
  },
  async delete(_id: string, rawProps: LedgerTransactionOutputs): Promise<void> {
    const props = fromLegacyLedgerState(rawProps);
    const name = nameFromUrn(props.__urn);
    const onDestroy = props.onDestroy;
    if (onDestroy === undefined) {
      log(
        "info",
        `LedgerTransaction ${name}: transaction ${props.txId} stays on the ledger (set onDestroy to submit a compensating transaction)`,
        props.__urn,
      );
      return;
    }
    const session = sessionOfOutputs(props);
    await withSession(
      session,
      "delete",
      resourceFrame(`LedgerTransaction ${name}`),
      async ({ gateway, connection }) => {
        const request = requestOf(
          { ...props, gateway: session.gateway, identity: session.identity },
          props.__generation,
        );
        await submitOnce(
          gateway,
          connection,
          {
            ...request,
            urn: onDestroyUrn(props.__urn),
            function: onDestroy.function,
            args: onDestroy.args ?? [],
            transientData: {},
          },
          "delete",
          props.__urn,
        );
      },
    );
  },
};
