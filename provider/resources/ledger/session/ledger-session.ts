/**
 * A ledger session: how every ledger resource and read talks to a channel as an identity, on both faces. Its parts,
 * each in a file of its own under session/: the plain checks (session-checks.ts), the client TLS key (client-tls.ts),
 * the identity and its signer (ledger-signers.ts), the connection (gateway-connection.ts) and the channel's
 * capabilities (channel-capability-check.ts). This module puts them together:
 *
 * - check, preview included (`checkSession`): after the plain failures the caller found (`sessionFailures` and the
 *   resource's own), what needs more than the inputs, each as soon as its inputs are known: the client TLS key read and
 *   matched against its certificate, the signer opened and matched against the certificate, and the channel's
 *   capabilities read from the channel against the identity's key type. Nothing is signed for ordering.
 * - a step (`withSession`): the client TLS key read, the signer opened and checked, the gateway connected, the
 *   capability check again before a step that submits (a cached answer), the step, and all closed; the frame says what
 *   each refusal fails with (nothing was sent).
 * - the state (`sessionOutputs`, `sessionOfOutputs`, `sessionChanged`): the identity and gateway as outputs keep them,
 *   their keys and PIN only under the secret `credentials`, and the session again from outputs (refresh, destroy).
 */
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { LedgerError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import type { Gateway } from "../../../ledger";
import { messageOf } from "../../common";
import type { Timeouts } from "../../common";
import type {
  LedgerChannelCapability,
  LedgerCredentials,
  LedgerGateway,
  LedgerIdentity,
  LedgerKms,
  LedgerPkcs11,
} from "../ledger-shapes";
import { canonical, hasUnknown } from "../ledger-values";
import { capabilityFailure } from "./channel-capability-check";
import { checkedClientTlsKey, clientTlsRefusal, readClientTlsKey } from "./client-tls";
import { connectionOf, openGateway } from "./gateway-connection";
import type { Connection } from "./gateway-connection";
import { openLedgerSigner, signerCheckFailure } from "./ledger-signers";

/** What a session is opened from: the gateway, the channel, who signs, and whom endorsements are verified against. */
export interface SessionInputs {
  gateway: LedgerGateway;
  channel: string;
  channelCapability?: LedgerChannelCapability | undefined;
  identity: LedgerIdentity;
  trustedRootCertificates?: Record<string, string> | undefined;
  timeouts?: Timeouts | undefined;
}

/** An open session: the gateway and what it was opened with. */
export interface Session {
  readonly gateway: Gateway;
  readonly connection: Connection;
}

/**
 * A check's session part. With `failures` (the plain ones the caller found), those; else the client TLS key, the
 * signer and the channel's capabilities, each once its inputs are known (a failure names the field to fix); else
 * `then`, given the connection of the opened signer (undefined while the identity is not known), closed after it.
 */
export async function checkSession(
  inputs: SessionInputs,
  urn: string,
  failures: readonly FieldFailure[],
  then: (connection: Connection | undefined) => Promise<dynamic.CheckResult>,
): Promise<dynamic.CheckResult> {
  if (failures.length > 0) return { failures: [...failures] };
  const gatewayKnown = !hasUnknown(inputs.gateway);
  const tls = gatewayKnown ? checkedClientTlsKey(inputs.gateway) : { key: undefined };
  if ("failures" in tls) return { failures: tls.failures };
  if (hasUnknown(inputs.identity)) return then(undefined);
  let opened: Awaited<ReturnType<typeof openLedgerSigner>>;
  try {
    opened = await openLedgerSigner(inputs.identity);
  } catch (error) {
    return { failures: [signerCheckFailure(inputs.identity, error)] };
  }
  try {
    const connection = connectionOf(inputs, opened.signer, tls.key);
    if (gatewayKnown && !hasUnknown([inputs.channel, inputs.channelCapability])) {
      const gateway = openGateway(connection, "create");
      try {
        const failure = await capabilityFailure(gateway, inputs, urn);
        if (failure !== undefined) return { failures: [failure] };
      } finally {
        gateway.close();
      }
    }
    return await then(connection);
  } finally {
    opened.close();
  }
}

/** What a step's refusals fail with, and whether it checks the channel's capabilities first. */
export interface SessionFrame {
  /** Set for a step that submits: the channel's capabilities are checked first; a fallback warns on `urn`'s row. */
  readonly capability?: { readonly urn?: string | undefined } | undefined;
  /** The signer could not be opened or is not the certificate's. */
  signer(error: unknown): unknown;
  /** The channel cannot take the identity (or disagrees with the assertion). */
  refused(failure: FieldFailure): unknown;
  /** The gateway peer refused the TLS handshake over the client certificate (`refusal` says what to set). */
  tls(refusal: string, error: unknown): unknown;
}

/** A resource's frame: every refusal a LedgerError naming `subject` (e.g. "LedgerTransaction asset"), nothing sent. */
export function resourceFrame(subject: string, capability?: { urn: string }): SessionFrame {
  return {
    capability,
    signer: (error) =>
      new LedgerError({ message: `${subject}: the signer cannot be used, nothing was sent: ${messageOf(error)}` }),
    refused: (failure) => new LedgerError({ message: `${subject}: ${failure.property} ${failure.reason}` }),
    tls: (refusal, error) => new LedgerError({ message: `${subject}: ${refusal}; nothing was sent`, cause: error }),
  };
}

/**
 * Runs `work` in a session: the identity's signer opened and checked against its certificate, the client TLS key read,
 * the gateway connected, the channel's capabilities checked when the frame asks; all closed after. Refusals fail as the
 * frame says; the client TLS key's ConfigError as it is.
 */
export async function withSession<T>(
  inputs: SessionInputs,
  step: keyof Timeouts,
  frame: SessionFrame,
  work: (session: Session) => Promise<T>,
): Promise<T> {
  let opened: Awaited<ReturnType<typeof openLedgerSigner>>;
  try {
    opened = await openLedgerSigner(inputs.identity);
  } catch (error) {
    throw frame.signer(error);
  }
  try {
    const connection = connectionOf(inputs, opened.signer, readClientTlsKey(inputs.gateway));
    const gateway = openGateway(connection, step);
    try {
      if (frame.capability !== undefined) {
        const refused = await capabilityFailure(gateway, inputs, frame.capability.urn);
        if (refused !== undefined) throw frame.refused(refused);
      }
      return await work({ gateway, connection });
    } finally {
      gateway.close();
    }
  } catch (error) {
    // The handshake precedes every call: a refused one sent nothing.
    const refusal = clientTlsRefusal(error, inputs.gateway);
    if (refusal === undefined) throw error;
    throw frame.tls(refusal, error);
  } finally {
    opened.close();
  }
}

/** The identity as outputs keep it: the certificate and the signer reference, never a key or a PIN. */
export interface LedgerIdentityOutputs {
  mspId: string;
  certificatePem: string;
  keyFile?: string;
  keyEnv?: string;
  pkcs11?: Omit<LedgerPkcs11, "pin">;
  kms?: LedgerKms;
}

/** What the state keeps of a session's gateway and identity: their keys and PIN only under `credentials`. */
export interface SessionOutputs {
  gateway: Omit<LedgerGateway, "clientKeyPem">;
  identity: LedgerIdentityOutputs;
  /**
   * Only ever stored as a Pulumi secret; refresh and destroy sign with what they find here and in `identity`. Holds the
   * private key only for an identity given as `privateKeyPem`, the PIN only when given as a value, the client TLS key
   * only when given as `clientKeyPem`.
   */
  credentials: LedgerCredentials;
}

/** The gateway and identity of `inputs` as outputs keep them. */
export function sessionOutputs(inputs: Pick<SessionInputs, "gateway" | "identity">): SessionOutputs {
  const { clientKeyPem, ...gateway } = inputs.gateway;
  const { privateKeyPem, pkcs11, ...reference } = inputs.identity;
  const { pin, ...token } = pkcs11 ?? { library: "", tokenLabel: "" };
  return {
    gateway,
    identity: { ...reference, ...(pkcs11 === undefined ? {} : { pkcs11: token }) },
    credentials: {
      ...(privateKeyPem === undefined ? {} : { privateKeyPem }),
      ...(pin === undefined ? {} : { pin }),
      ...(clientKeyPem === undefined ? {} : { clientKeyPem }),
    },
  };
}

/** The session again from outputs (state written by 0.1 has only credentials.privateKeyPem). */
export function sessionOfOutputs(o: SessionOutputs & Omit<SessionInputs, "gateway" | "identity">): SessionInputs {
  const { privateKeyPem, pin, clientKeyPem } = o.credentials;
  const { pkcs11, ...identity } = o.identity;
  return {
    gateway: { ...o.gateway, ...(clientKeyPem === undefined ? {} : { clientKeyPem }) },
    channel: o.channel,
    channelCapability: o.channelCapability,
    identity: {
      ...identity,
      ...(privateKeyPem === undefined ? {} : { privateKeyPem }),
      ...(pkcs11 === undefined ? {} : { pkcs11: { ...pkcs11, ...(pin === undefined ? {} : { pin }) } }),
    },
    trustedRootCertificates: o.trustedRootCertificates,
    timeouts: o.timeouts,
  };
}

/**
 * Whether the gateway, the identity or the secrets that reach them changed between the recorded outputs and the new
 * inputs: the client TLS key and the identity's secrets are compared as the `credentials` output holds them.
 */
export function sessionChanged(
  olds: { gateway?: unknown; identity?: unknown; credentials?: unknown },
  news: Pick<SessionInputs, "gateway" | "identity">,
): boolean {
  const now = sessionOutputs(news);
  return (
    canonical(olds.gateway) !== canonical(now.gateway) ||
    canonical(olds.identity) !== canonical(now.identity) ||
    canonical(olds.credentials) !== canonical(now.credentials)
  );
}
