/**
 * ledger.LedgerTransactionSubmission: one Fabric transaction, submitted exactly once (the child of the
 * ledger.LedgerTransaction component in sdk/ledger).
 *
 * Exactly-once: the nonce is the first 24 bytes of HMAC-SHA256(key = SHA-256(private key PKCS#8 DER),
 * data = URN ‖ uint64-BE generation), so txId = hex(SHA-256(nonce ‖ creator)) is the same for every retry of the same
 * generation. `check` keeps the generation while the transaction inputs are unchanged (compared through an HMAC digest
 * keyed like the nonce, so transient data never appears in clear) and bumps it when they change (a new transaction,
 * shown as a replace). Before submitting, the provider asks qscc for that txId: a committed VALID transaction with our
 * payload is adopted instead of submitted again. An invalid one changed nothing on the ledger, and its txId is burnt
 * (a resubmission would be a DUPLICATE_TXID), so the next generation is used — unless allowInvalid adopts it.
 *
 * Secrets: inputs arrive with secrets unwrapped. Outputs never hold transient data; the private keys are kept only in
 * the `credentials` output, which the SDK marks secret (additionalSecretOutputs), because `read` and `delete` receive
 * nothing but the outputs and must sign (qscc queries, the onDestroy compensating transaction). Nothing here logs them.
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { messageOf, nameFromUrn } from "./common";
import { log } from "./context";
import { hasUnknown, ledgerTransactionInputFailures } from "./ledger-transaction-inputs";
import type { LedgerPayload, LedgerTransactionInputs, LedgerTransactionOutputs } from "./ledger-transaction-inputs";
import { lookup, openGateway, outcomeOf, payloadOf, proposalRequestOf, submitOnce } from "./ledger-transaction-submit";
import type { Connection, Outcome, SubmitOnceRequest } from "./ledger-transaction-submit";
import {
  canonical,
  deriveNonce,
  deriveTxId,
  onDestroyUrn,
  transactionDigest,
  transactionFields,
} from "./ledger-transaction-txid";

export * from "./ledger-transaction-inputs";
export { deriveNonce, deriveTxId, transactionDigest } from "./ledger-transaction-txid";
export { MAX_GENERATION_SKIPS, submitOnce } from "./ledger-transaction-submit";
export type { SubmitOnceRequest } from "./ledger-transaction-submit";

function connectionOf(i: LedgerTransactionInputs): Connection {
  return {
    gateway: i.gateway,
    identity: { mspId: i.identity.mspId, certificatePem: i.identity.certificatePem },
    privateKeyPem: i.identity.privateKeyPem,
    trustedRootCertificates: i.trustedRootCertificates,
    timeouts: i.timeouts,
  };
}

function connectionOfOutputs(o: LedgerTransactionOutputs): Connection {
  const gateway = {
    ...o.gateway,
    ...(o.credentials.clientKeyPem === undefined ? {} : { clientKeyPem: o.credentials.clientKeyPem }),
  };
  return {
    gateway,
    identity: o.identity,
    privateKeyPem: o.credentials.privateKeyPem,
    trustedRootCertificates: o.trustedRootCertificates,
    timeouts: o.timeouts,
  };
}

function requestOf(i: LedgerTransactionInputs, generation: number): SubmitOnceRequest {
  return {
    urn: i.resourceUrn,
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

/** The outputs: the inputs without transient data and keys, the keys under `credentials`, and the outcome. */
function outputsOf(i: LedgerTransactionInputs, outcome: Outcome): LedgerTransactionOutputs {
  const { transientData: _t, identity, gateway, previewResult: _p, ...rest } = i;
  const { clientKeyPem, ...publicGateway } = gateway;
  return {
    ...rest,
    gateway: publicGateway,
    identity: { mspId: identity.mspId, certificatePem: identity.certificatePem },
    credentials: { privateKeyPem: identity.privateKeyPem, ...(clientKeyPem === undefined ? {} : { clientKeyPem }) },
    transactionDigest: i.transactionDigest ?? transactionDigest(i),
    ...outcome,
  };
}

/**
 * With previewEndorse, check endorses (no submit, no commit) and returns the simulated result as the input-derived
 * `previewResult`. Preview runs only check and diff, and a dynamic resource's preview state is its checked inputs, so
 * this is the one place a simulated result can reach the program during `pulumi preview`. A txId already on the
 * ledger (a crashed run committed it) is not endorsed again: its committed result is shown.
 */
async function previewEndorse(i: LedgerTransactionInputs, generation: number): Promise<LedgerPayload> {
  const gateway = openGateway(connectionOf(i), "create");
  try {
    const r = requestOf(i, generation);
    const nonce = deriveNonce(i.identity.privateKeyPem, i.resourceUrn, generation);
    const txId = deriveTxId(i.identity, i.resourceUrn, generation);
    const committed = await lookup(gateway, i.channel, txId);
    if (committed !== undefined) return (await outcomeOf(gateway, i.channel, generation, txId, committed)).result;
    const proposal = gateway.newProposal(proposalRequestOf(r, nonce));
    return payloadOf((await proposal.endorse()).getResult());
  } finally {
    gateway.close();
  }
}

async function check(
  olds: Partial<LedgerTransactionInputs>,
  news: LedgerTransactionInputs,
): Promise<dynamic.CheckResult> {
  const failures = ledgerTransactionInputFailures(news);
  if (failures.length > 0) return { failures };
  const fields = {
    ...transactionFields(news),
    transientData: news.transientData,
    key: news.identity.privateKeyPem,
    urn: news.resourceUrn,
  };
  if (hasUnknown(fields)) return { inputs: news }; // the txId is shown once every transaction input is known
  const digest = transactionDigest(news);
  const same = olds.generation !== undefined && olds.transactionDigest === digest;
  const generation = same && olds.generation !== undefined ? olds.generation : (olds.generation ?? 0) + 1;
  const { previewResult: _stale, ...rest } = news;
  const inputs: LedgerTransactionInputs = {
    ...rest,
    generation,
    transactionDigest: digest,
    txId: deriveTxId(news.identity, news.resourceUrn, generation),
  };
  if (news.previewEndorse === true) {
    if (same && olds.previewResult !== undefined) inputs.previewResult = olds.previewResult;
    else {
      try {
        inputs.previewResult = await previewEndorse(inputs, generation);
      } catch (e) {
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
  olds: LedgerTransactionOutputs,
  news: LedgerTransactionInputs,
): Promise<dynamic.DiffResult> {
  const was = transactionFields({ ...olds, identity: { ...olds.identity, privateKeyPem: "" } });
  const now = transactionFields(news);
  const replaces: string[] = TRANSACTION_PROPERTIES.filter((p) => canonical(was[p]) !== canonical(now[p]));
  if (replaces.length === 0 && olds.transactionDigest !== news.transactionDigest) replaces.push("transientData");
  const { clientKeyPem, ...gateway } = news.gateway;
  const changed =
    canonical(olds.gateway) !== canonical(gateway) ||
    canonical(olds.credentials) !==
      canonical({
        privateKeyPem: news.identity.privateKeyPem,
        ...(clientKeyPem === undefined ? {} : { clientKeyPem }),
      }) ||
    (["trustedRootCertificates", "onDestroy", "allowInvalid", "previewEndorse", "timeouts"] as const).some(
      (k) => canonical(olds[k]) !== canonical(news[k]),
    );
  return Promise.resolve({ changes: replaces.length > 0 || changed, replaces, deleteBeforeReplace: false });
}

export const ledgerTransactionProvider = {
  check,
  diff,
  async create(inputs: LedgerTransactionInputs): Promise<dynamic.CreateResult> {
    const gateway = openGateway(connectionOf(inputs), "create");
    try {
      const outcome = await submitOnce(gateway, connectionOf(inputs), requestOf(inputs, inputs.generation ?? 1));
      return { id: outcome.txId, outs: outputsOf(inputs, outcome) };
    } finally {
      gateway.close();
    }
  },
  /** Only settings change in place (a transaction input change is a replace): the outcome is carried forward. */
  update(_id: string, olds: LedgerTransactionOutputs, news: LedgerTransactionInputs): Promise<dynamic.UpdateResult> {
    const outcome: Outcome = {
      generation: olds.generation,
      txId: olds.txId,
      validationCode: olds.validationCode,
      validationCodeNumber: olds.validationCodeNumber,
      blockNumber: olds.blockNumber,
      result: olds.result,
      endorsers: olds.endorsers,
      processedTransaction: olds.processedTransaction,
    };
    return Promise.resolve({ outs: outputsOf({ ...news, transactionDigest: olds.transactionDigest }, outcome) });
  },
  async read(id: string, props: LedgerTransactionOutputs): Promise<dynamic.ReadResult> {
    const gateway = openGateway(connectionOfOutputs(props), "create");
    try {
      const committed = await lookup(gateway, props.channel, props.txId);
      if (committed === undefined) return { id: "" };
      return {
        id,
        props: { ...props, ...(await outcomeOf(gateway, props.channel, props.generation, props.txId, committed)) },
      };
    } finally {
      gateway.close();
    }
  },
  async delete(_id: string, props: LedgerTransactionOutputs): Promise<void> {
    const name = nameFromUrn(props.resourceUrn);
    if (props.onDestroy === undefined) {
      log(
        "info",
        `LedgerTransaction ${name}: transaction ${props.txId} stays on the ledger (set onDestroy to submit a compensating transaction)`,
      );
      return;
    }
    const connection = connectionOfOutputs(props);
    const gateway = openGateway(connection, "delete");
    try {
      const request = {
        ...requestOf(
          { ...props, gateway: connection.gateway, identity: { ...props.identity, privateKeyPem: "" } },
          props.generation,
        ),
      };
      await submitOnce(gateway, connection, {
        ...request,
        urn: onDestroyUrn(props.resourceUrn),
        function: props.onDestroy.function,
        args: props.onDestroy.args ?? [],
        transientData: {},
      });
    } finally {
      gateway.close();
    }
  },
};
