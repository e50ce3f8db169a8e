/**
 * The connection settings of a ledger transaction, shared by LedgerTransactionSubmission (ledger-transaction.ts) and
 * LedgerTransactions (ledger-transactions.ts): the identity split into its reference and its secrets (the `credentials`
 * output) and joined again, the Connection from inputs or from outputs, the signer opened around a step, and whether
 * the connection changed.
 */
import { LedgerError } from "../../../errors";
import type { Signer } from "../../../ledger";
import { messageOf, nameFromUrn } from "../../common";
import { clientTlsRefusal } from "./client-tls";
import type {
  LedgerIdentityInputs,
  LedgerIdentityOutputs,
  LedgerTransactionInputs,
  LedgerTransactionOutputs,
} from "../ledger-transaction-inputs";
import { openLedgerSigner } from "./ledger-signers";
import type { Connection } from "../ledger-transaction-submit";
import { canonical } from "../ledger-transaction-txid";

/** The identity's key material and PIN (what only the secret `credentials` output may hold) and the rest. */
export function splitIdentity(identity: LedgerIdentityInputs): {
  identity: LedgerIdentityOutputs;
  secrets: { privateKeyPem?: string; pin?: string };
} {
  const { privateKeyPem, pkcs11, ...reference } = identity;
  const { pin, ...token } = pkcs11 ?? { library: "", tokenLabel: "" };
  return {
    identity: { ...reference, ...(pkcs11 === undefined ? {} : { pkcs11: token }) },
    secrets: { ...(privateKeyPem === undefined ? {} : { privateKeyPem }), ...(pin === undefined ? {} : { pin }) },
  };
}

/** The identity inputs again, from outputs (state written by 0.1 has only credentials.privateKeyPem). */
export function identityOfOutputs(o: Pick<LedgerTransactionOutputs, "credentials" | "identity">): LedgerIdentityInputs {
  const { privateKeyPem, pin } = o.credentials;
  const { pkcs11, ...rest } = o.identity;
  return {
    ...rest,
    ...(privateKeyPem === undefined ? {} : { privateKeyPem }),
    ...(pkcs11 === undefined ? {} : { pkcs11: { ...pkcs11, ...(pin === undefined ? {} : { pin }) } }),
  };
}

/** The settings a connection is made of: what LedgerTransactions (ledger-transactions.ts) shares with this resource. */
type ConnectionInputs = Pick<LedgerTransactionInputs, "gateway" | "identity" | "trustedRootCertificates" | "timeouts">;
type ConnectionOutputs = Pick<
  LedgerTransactionOutputs,
  "gateway" | "identity" | "credentials" | "trustedRootCertificates" | "timeouts"
>;

export function connectionOf(i: ConnectionInputs, signer: Signer): Connection {
  return {
    gateway: i.gateway,
    identity: { mspId: i.identity.mspId, certificatePem: i.identity.certificatePem },
    signer,
    trustedRootCertificates: i.trustedRootCertificates,
    timeouts: i.timeouts,
  };
}

export function connectionOfOutputs(o: ConnectionOutputs, signer: Signer): Connection {
  const gateway = {
    ...o.gateway,
    ...(o.credentials.clientKeyPem === undefined ? {} : { clientKeyPem: o.credentials.clientKeyPem }),
  };
  return {
    gateway,
    identity: { mspId: o.identity.mspId, certificatePem: o.identity.certificatePem },
    signer,
    trustedRootCertificates: o.trustedRootCertificates,
    timeouts: o.timeouts,
  };
}

/**
 * Runs `step` with the identity's signer, opened and checked against the certificate, and closes it after. A TLS
 * handshake the gateway peer refused over the client certificate fails with what to set (nothing was sent: the
 * handshake precedes every call).
 */
export async function withSigner<T>(
  urn: string,
  identity: LedgerIdentityInputs,
  gateway: LedgerTransactionInputs["gateway"],
  step: (signer: Signer) => Promise<T>,
  /** The resource type the messages name (LedgerTransactions shares this path). */
  kind = "LedgerTransaction",
): Promise<T> {
  let opened;
  try {
    opened = await openLedgerSigner(identity);
  } catch (error) {
    throw new LedgerError({
      message: `${kind} ${nameFromUrn(urn)}: the signer cannot be used, nothing was sent: ${messageOf(error)}`,
    });
  }
  try {
    return await step(opened.signer);
  } catch (error) {
    const refusal = clientTlsRefusal(error, gateway);
    if (refusal === undefined) throw error;
    throw new LedgerError({
      message: `${kind} ${nameFromUrn(urn)}: ${refusal}; nothing was sent`,
      cause: error,
    });
  } finally {
    opened.close();
  }
}

/**
 * Whether the gateway, the identity or the secrets that reach them changed between the recorded outputs and the new
 * inputs: the client TLS key and the identity's secrets are compared as the `credentials` output holds them.
 */
export function connectionChanged(
  olds: { gateway?: unknown; identity?: unknown; credentials?: unknown },
  news: { gateway: LedgerTransactionInputs["gateway"]; identity: LedgerTransactionInputs["identity"] },
): boolean {
  const { clientKeyPem, ...gateway } = news.gateway;
  const split = splitIdentity(news.identity);
  return (
    canonical(olds.gateway) !== canonical(gateway) ||
    canonical(olds.identity) !== canonical(split.identity) ||
    canonical(olds.credentials) !==
      canonical({ ...split.secrets, ...(clientKeyPem === undefined ? {} : { clientKeyPem }) })
  );
}
