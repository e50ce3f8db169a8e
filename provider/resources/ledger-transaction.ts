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
import * as crypto from "node:crypto";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import type { FieldFailure } from "../errors";
import { bytesEqual, codecs, computeTxId, connect, deserializeIdentity, isTransactionNotFound } from "../ledger";
import { LedgerError, newIdentity, newPrivateKeySigner, serializeIdentity, unwrap, VISIBILITY_MODES } from "../ledger";
import { buildProposal, validationCodeMeaning, validationCodeName } from "../ledger";
import type { Gateway, ProcessedTransaction, ProposalRequest, Visibility } from "../ledger";
import { checkTimeouts, messageOf, nameFromUrn, timeoutMs } from "./common";
import type { Timeouts } from "./common";
import { log } from "./context";

/** Generations skipped (each an invalid transaction already on the ledger) before a submission gives up. */
export const MAX_GENERATION_SKIPS = 20;
/** The value Pulumi puts in place of an input that is not known yet (preview). */
const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A chaincode argument or transient value: a UTF-8 string, or bytes as `{ base64 }`. */
export type LedgerBytes = string | { base64: string };

export interface LedgerGatewayInputs {
  address: string;
  tlsRootCertPem?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  serverNameOverride?: string;
  supportsVisibility?: Visibility[];
}

export interface LedgerIdentityInputs {
  mspId: string;
  certificatePem: string;
  privateKeyPem: string;
}

export interface LedgerPayload {
  utf8: string;
  base64: string;
}

export interface LedgerTransactionInputs {
  resourceUrn: string;
  gateway: LedgerGatewayInputs;
  channel: string;
  chaincode: string;
  function: string;
  args?: LedgerBytes[];
  transientData?: Record<string, LedgerBytes>;
  identity: LedgerIdentityInputs;
  endorsingOrganizations?: string[];
  visibility?: Visibility;
  trustedRootCertificates: Record<string, string>;
  onDestroy?: { function: string; args?: LedgerBytes[] };
  allowInvalid?: boolean;
  previewEndorse?: boolean;
  timeouts?: Timeouts;
  /** Set by check: the generation of the transaction (bumped when a transaction input changes). */
  generation?: number;
  /** Set by check: the keyed digest of the transaction inputs. */
  transactionDigest?: string;
  /** Set by check: the txId the next submission uses. */
  txId?: string;
  /** Set by check when previewEndorse: the simulated chaincode response. */
  previewResult?: LedgerPayload;
}

export interface LedgerTransactionOutputs extends Omit<
  LedgerTransactionInputs,
  "gateway" | "identity" | "transientData"
> {
  gateway: Omit<LedgerGatewayInputs, "clientKeyPem">;
  identity: { mspId: string; certificatePem: string };
  /** Marked secret by the SDK; needed by read (qscc) and delete (onDestroy). */
  credentials: { privateKeyPem: string; clientKeyPem?: string };
  generation: number;
  transactionDigest: string;
  txId: string;
  validationCode: string;
  validationCodeNumber: number;
  blockNumber: string;
  result: LedgerPayload;
  endorsers: string[];
  processedTransaction: string;
}

// ---- input checks ----

const hasUnknown = (value: unknown): boolean => value !== undefined && JSON.stringify(value).includes(UNKNOWN);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

function parsesAsCertificate(pem: unknown): boolean {
  if (typeof pem !== "string" || !pem.includes("-----BEGIN CERTIFICATE-----")) return false;
  try {
    new crypto.X509Certificate(pem);
    return true;
  } catch {
    return false;
  }
}

function privateKeyOf(pem: unknown): crypto.KeyObject | undefined {
  if (typeof pem !== "string") return undefined;
  try {
    return crypto.createPrivateKey(pem);
  } catch {
    return undefined; // the cause could echo key material
  }
}

function bytesFailures(property: string, value: unknown): FieldFailure[] {
  if (typeof value === "string") return [];
  if (isRecord(value) && typeof value["base64"] === "string") {
    const b64 = value["base64"];
    if (/^[A-Za-z0-9+/]*={0,2}$/.test(b64) && b64.length % 4 === 0) return [];
    return [{ property, reason: "{ base64 } must hold standard base64 text (A-Z, a-z, 0-9, +, /, = padding)" }];
  }
  return [{ property, reason: "must be a string (sent as UTF-8) or { base64: string } (bytes)" }];
}

function argsFailures(property: string, args: unknown): FieldFailure[] {
  if (args === undefined || hasUnknown(args)) return [];
  if (!Array.isArray(args)) return [{ property, reason: "must be a list of strings or { base64: string } objects" }];
  return args.flatMap((a, i) => bytesFailures(`${property}[${String(i)}]`, a));
}

function nonEmpty(property: string, value: unknown, what: string): FieldFailure[] {
  if (hasUnknown(value)) return [];
  return typeof value === "string" && value.trim() !== "" ? [] : [{ property, reason: `is required: ${what}` }];
}

function booleanFailures(news: Record<string, unknown>, keys: readonly string[]): FieldFailure[] {
  return keys
    .filter((k) => news[k] !== undefined && typeof news[k] !== "boolean" && !hasUnknown(news[k]))
    .map((k) => ({ property: k, reason: "must be true or false" }));
}

function gatewayFailures(gateway: unknown): FieldFailure[] {
  if (!isRecord(gateway)) {
    return [{ property: "gateway", reason: "is required: { address: 'host:port', tlsRootCertPem?: PEM, ... }" }];
  }
  const failures: FieldFailure[] = [];
  const address = gateway["address"];
  const match = typeof address === "string" ? /^(\[[^\]]+\]|[^:\s[\]]+):(\d{1,5})$/.exec(address) : null;
  if (!hasUnknown(address) && match === null) {
    failures.push({
      property: "gateway.address",
      reason: "must be 'host:port' of the gateway peer, e.g. '127.0.0.1:7051'",
    });
  }
  const tls = gateway["tlsRootCertPem"];
  if (tls === undefined) {
    if (match?.[1] !== undefined && !LOOPBACK.test(match[1])) {
      failures.push({
        property: "gateway.tlsRootCertPem",
        reason: `is required for the non-loopback address '${String(address)}': the PEM of the CA that signed the gateway's TLS certificate`,
      });
    }
  } else if (!hasUnknown(tls) && !parsesAsCertificate(tls)) {
    failures.push({
      property: "gateway.tlsRootCertPem",
      reason: "is not a PEM X.509 certificate; pass the CA certificate's PEM text",
    });
  }
  const cert = gateway["clientCertPem"];
  const key = gateway["clientKeyPem"];
  if ((cert === undefined) !== (key === undefined)) {
    failures.push({
      property: "gateway.clientKeyPem",
      reason: "must be set together with gateway.clientCertPem (mutual TLS)",
    });
  }
  if (cert !== undefined && !hasUnknown(cert) && !parsesAsCertificate(cert)) {
    failures.push({ property: "gateway.clientCertPem", reason: "is not a PEM X.509 certificate" });
  }
  if (key !== undefined && !hasUnknown(key) && privateKeyOf(key) === undefined) {
    failures.push({ property: "gateway.clientKeyPem", reason: "is not a parsable PEM private key (PKCS#8 or SEC1)" });
  }
  const modes = gateway["supportsVisibility"];
  if (modes !== undefined && !hasUnknown(modes)) {
    if (!Array.isArray(modes) || modes.some((m) => !VISIBILITY_MODES.includes(m as Visibility))) {
      failures.push({
        property: "gateway.supportsVisibility",
        reason: "must be a list of 'full', 'hash' or 'nothing'",
      });
    }
  }
  return failures;
}

function identityFailures(identity: unknown): FieldFailure[] {
  if (!isRecord(identity)) {
    return [{ property: "identity", reason: "is required: { mspId, certificatePem, privateKeyPem }" }];
  }
  const failures: FieldFailure[] = [];
  const mspId = identity["mspId"];
  if (!hasUnknown(mspId) && (typeof mspId !== "string" || mspId.trim() === "")) {
    failures.push({
      property: "identity.mspId",
      reason: "must not be empty: the MSP id of the identity's organization, e.g. 'Org1MSP'",
    });
  }
  const certPem = identity["certificatePem"];
  let certificate: crypto.X509Certificate | undefined;
  if (!hasUnknown(certPem)) {
    try {
      newIdentity("msp", typeof certPem === "string" ? certPem : "");
      certificate = new crypto.X509Certificate(certPem as string);
    } catch {
      failures.push({
        property: "identity.certificatePem",
        reason: "is not a PEM X.509 certificate with an ECDSA P-256 key; pass the enrolment certificate's PEM text",
      });
    }
  }
  const keyPem = identity["privateKeyPem"];
  if (!hasUnknown(keyPem)) {
    const key = privateKeyOf(keyPem);
    if (key?.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
      failures.push({
        property: "identity.privateKeyPem",
        reason: "is not a parsable ECDSA P-256 private key (PEM, PKCS#8 or SEC1)",
      });
    } else if (certificate !== undefined) {
      const spki = (k: crypto.KeyObject): Buffer => k.export({ type: "spki", format: "der" });
      if (!spki(crypto.createPublicKey(key)).equals(spki(certificate.publicKey))) {
        failures.push({
          property: "identity.privateKeyPem",
          reason: "does not match identity.certificatePem: use the private key of that certificate",
        });
      }
    }
  }
  return failures;
}

/** Every problem with the inputs, as check failures (property + reason naming the fix). Never throws. */
export function ledgerTransactionInputFailures(news: Partial<LedgerTransactionInputs>): FieldFailure[] {
  const n = news as Record<string, unknown>;
  const failures: FieldFailure[] = [
    ...gatewayFailures(n["gateway"]),
    ...nonEmpty("channel", n["channel"], "the channel name, e.g. 'mychannel'"),
    ...nonEmpty("chaincode", n["chaincode"], "the chaincode name, e.g. 'basic'"),
    ...nonEmpty("function", n["function"], "the chaincode function to invoke, e.g. 'CreateAsset'"),
    ...argsFailures("args", n["args"]),
  ];
  const transient = n["transientData"];
  if (transient !== undefined && !hasUnknown(transient)) {
    if (!isRecord(transient))
      failures.push({ property: "transientData", reason: "must be a map of key to string or { base64 }" });
    else for (const [k, v] of Object.entries(transient)) failures.push(...bytesFailures(`transientData.${k}`, v));
  }
  failures.push(...identityFailures(n["identity"]));
  const orgs = n["endorsingOrganizations"];
  if (orgs !== undefined && !hasUnknown(orgs)) {
    if (!Array.isArray(orgs) || orgs.some((o) => typeof o !== "string" || o.trim() === "")) {
      failures.push({
        property: "endorsingOrganizations",
        reason: "must be a list of non-empty MSP ids, e.g. ['Org1MSP', 'Org2MSP']",
      });
    }
  }
  const visibility = n["visibility"];
  if (visibility !== undefined && !hasUnknown(visibility)) {
    const shown = typeof visibility === "string" ? visibility : JSON.stringify(visibility);
    const supported = (news.gateway?.supportsVisibility ?? ["full"]) as readonly unknown[];
    if (!VISIBILITY_MODES.includes(visibility as Visibility)) {
      failures.push({
        property: "visibility",
        reason: `'${shown}' is not a visibility mode; use 'full', 'hash' or 'nothing'`,
      });
    } else if (!supported.includes(visibility)) {
      failures.push({
        property: "visibility",
        reason: `'${shown}' requires a gateway that supports it: add it to gateway.supportsVisibility (real Fabric peers support only 'full')`,
      });
    }
  }
  const roots = n["trustedRootCertificates"];
  if (!hasUnknown(roots)) {
    if (!isRecord(roots) || Object.keys(roots).length === 0) {
      failures.push({
        property: "trustedRootCertificates",
        reason:
          "is required: a map of MSP id to root CA certificate PEM, used to verify every endorsement before signing",
      });
    } else {
      for (const [msp, pem] of Object.entries(roots)) {
        if (!parsesAsCertificate(pem))
          failures.push({ property: `trustedRootCertificates.${msp}`, reason: "is not a PEM X.509 certificate" });
      }
    }
  }
  const onDestroy = n["onDestroy"];
  if (onDestroy !== undefined && !hasUnknown(onDestroy)) {
    if (!isRecord(onDestroy)) failures.push({ property: "onDestroy", reason: "must be { function, args? }" });
    else {
      failures.push(...nonEmpty("onDestroy.function", onDestroy["function"], "the compensating chaincode function"));
      failures.push(...argsFailures("onDestroy.args", onDestroy["args"]));
    }
  }
  failures.push(...booleanFailures(n, ["allowInvalid", "previewEndorse"]), ...checkTimeouts(n["timeouts"]));
  return failures;
}

// ---- txId derivation ----

function hmacKey(privateKeyPem: string): Buffer {
  const der = crypto.createPrivateKey(privateKeyPem).export({ type: "pkcs8", format: "der" });
  return crypto.createHash("sha256").update(der).digest();
}

/** The first 24 bytes of HMAC-SHA256(SHA-256(private key DER), URN ‖ uint64-BE generation). */
export function deriveNonce(privateKeyPem: string, urn: string, generation: number): Uint8Array {
  const gen = Buffer.alloc(8);
  gen.writeBigUInt64BE(BigInt(generation));
  const mac = crypto.createHmac("sha256", hmacKey(privateKeyPem)).update(Buffer.from(urn, "utf8")).update(gen);
  return new Uint8Array(mac.digest().subarray(0, 24));
}

/** The txId a submission of `generation` uses: hex(SHA-256(nonce ‖ serialized creator)). */
export function deriveTxId(identity: LedgerIdentityInputs, urn: string, generation: number): string {
  const creator = serializeIdentity(newIdentity(identity.mspId, identity.certificatePem));
  return computeTxId(deriveNonce(identity.privateKeyPem, urn, generation), creator);
}

/** The URN a compensating (onDestroy) transaction is keyed by, so it never shares a txId with the submission. */
const onDestroyUrn = (urn: string): string => `${urn}#onDestroy`;

function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`).join(",")}}`;
  }
  return JSON.stringify(value ?? null);
}

/** What makes the transaction: a change of any of these is a new transaction (replace). */
function transactionFields(i: Partial<LedgerTransactionInputs>) {
  return {
    channel: i.channel,
    chaincode: i.chaincode,
    function: i.function,
    args: i.args ?? [],
    endorsingOrganizations: i.endorsingOrganizations ?? [],
    visibility: i.visibility ?? "full",
    identity: { mspId: i.identity?.mspId, certificatePem: i.identity?.certificatePem },
  };
}

/** HMAC of every transaction input, transient data included, keyed by the identity's key: it reveals nothing. */
export function transactionDigest(i: LedgerTransactionInputs): string {
  const data = canonical({ ...transactionFields(i), transientData: i.transientData ?? {} });
  return crypto.createHmac("sha256", hmacKey(i.identity.privateKeyPem)).update(`digest\0${data}`).digest("hex");
}

// ---- the gateway ----

const toBytes = (v: LedgerBytes): string | Uint8Array => (typeof v === "string" ? v : Buffer.from(v.base64, "base64"));
const payloadOf = (bytes: Uint8Array): LedgerPayload => ({
  utf8: Buffer.from(bytes).toString("utf8"),
  base64: Buffer.from(bytes).toString("base64"),
});

interface Connection {
  gateway: LedgerGatewayInputs;
  identity: { mspId: string; certificatePem: string };
  privateKeyPem: string;
  trustedRootCertificates: Record<string, string>;
  timeouts?: Timeouts | undefined;
}

function openGateway(c: Connection, step: keyof Timeouts): Gateway {
  const g = c.gateway;
  const deadlineMs = timeoutMs(c.timeouts, step);
  return connect({
    address: g.address,
    ...(g.tlsRootCertPem === undefined
      ? {}
      : {
          tls: {
            rootCertificates: g.tlsRootCertPem,
            ...(g.clientCertPem === undefined ? {} : { clientCertificate: g.clientCertPem }),
            ...(g.clientKeyPem === undefined ? {} : { clientPrivateKey: g.clientKeyPem }),
            ...(g.serverNameOverride === undefined ? {} : { serverNameOverride: g.serverNameOverride }),
          },
        }),
    identity: newIdentity(c.identity.mspId, c.identity.certificatePem),
    signer: newPrivateKeySigner(c.privateKeyPem),
    trustedMsps: Object.entries(c.trustedRootCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
    supportedVisibility: g.supportsVisibility ?? ["full"],
    commitStatusOptions: () => ({ deadline: Date.now() + deadlineMs }),
  });
}

/** qscc GetTransactionByID, or undefined when the txId is not on the ledger. */
async function lookup(gateway: Gateway, channel: string, txId: string): Promise<ProcessedTransaction | undefined> {
  try {
    return await gateway.getTransactionById(channel, txId);
  } catch (e) {
    if (isTransactionNotFound(e)) return undefined;
    throw e;
  }
}

interface Outcome {
  generation: number;
  txId: string;
  validationCode: string;
  validationCodeNumber: number;
  blockNumber: string;
  result: LedgerPayload;
  endorsers: string[];
  processedTransaction: string;
}

async function outcomeOf(
  gateway: Gateway,
  channel: string,
  generation: number,
  txId: string,
  processed: ProcessedTransaction,
): Promise<Outcome> {
  const status = await gateway.getCommitStatus(channel, txId); // committed: answers at once, with the block number
  let result: Uint8Array = new Uint8Array(0);
  let endorsers: string[] = [];
  try {
    const tx = unwrap(
      codecs.Envelope.encode(
        processed.transactionEnvelope ?? { payload: new Uint8Array(0), signature: new Uint8Array(0) },
      ),
    );
    result = tx.chaincodeAction.response?.payload ?? result;
    endorsers = tx.endorsedAction.endorsements.map((e) => deserializeIdentity(e.endorser).mspId);
  } catch {
    // A malformed (invalid) transaction has no result to report.
  }
  return {
    generation,
    txId,
    validationCode: validationCodeName(processed.validationCode),
    validationCodeNumber: processed.validationCode,
    blockNumber: status.blockNumber.toString(),
    result: payloadOf(result),
    endorsers,
    processedTransaction: Buffer.from(codecs.ProcessedTransaction.encode(processed)).toString("base64"),
  };
}

/** Whether a committed transaction carries our channel and chaincode proposal payload (not another run's inputs). */
function carries(processed: ProcessedTransaction, request: ProposalRequest, identity: Connection["identity"]): boolean {
  try {
    const built = buildProposal({ identity: newIdentity(identity.mspId, identity.certificatePem), ...request });
    const tx = unwrap(
      codecs.Envelope.encode(
        processed.transactionEnvelope ?? { payload: new Uint8Array(0), signature: new Uint8Array(0) },
      ),
    );
    return (
      tx.channelHeader.channelId === request.channelId &&
      bytesEqual(tx.actionPayload.chaincodeProposalPayload, built.transactionPayload)
    );
  } catch {
    return false;
  }
}

export interface SubmitOnceRequest {
  urn: string;
  channel: string;
  chaincode: string;
  function: string;
  args: LedgerBytes[];
  transientData: Record<string, LedgerBytes>;
  endorsingOrganizations: string[];
  visibility: Visibility;
  allowInvalid: boolean;
  generation: number;
}

function invalidMessage(name: string, txId: string, block: string, code: number): string {
  return (
    `LedgerTransaction ${name}: transaction ${txId} was committed in block ${block} with validation code ` +
    `${validationCodeName(code)} (${String(code)}): ${validationCodeMeaning(code)}. An invalid transaction changes nothing on ` +
    `the ledger; run the update again to submit a new transaction, or set allowInvalid: true to record it`
  );
}

/** Submits the transaction of `generation` (or adopts it when committed), skipping generations burnt by invalid ones. */
export async function submitOnce(gateway: Gateway, c: Connection, r: SubmitOnceRequest): Promise<Outcome> {
  const name = nameFromUrn(r.urn);
  for (let generation = r.generation; generation < r.generation + MAX_GENERATION_SKIPS; generation++) {
    const nonce = deriveNonce(c.privateKeyPem, r.urn, generation);
    const request: ProposalRequest = {
      channelId: r.channel,
      chaincodeName: r.chaincode,
      functionName: r.function,
      args: r.args.map(toBytes),
      transientData: Object.fromEntries(Object.entries(r.transientData).map(([k, v]) => [k, toBytes(v)])),
      endorsingOrganizations: r.endorsingOrganizations,
      visibility: r.visibility,
      nonce,
    };
    const txId = computeTxId(nonce, serializeIdentity(newIdentity(c.identity.mspId, c.identity.certificatePem)));
    const committed = await lookup(gateway, r.channel, txId);
    if (committed !== undefined) {
      const ours = carries(committed, request, c.identity);
      if (ours && (committed.validationCode === 0 || r.allowInvalid)) {
        const outcome = await outcomeOf(gateway, r.channel, generation, txId, committed);
        log(
          "info",
          `LedgerTransaction ${name}: adopted transaction ${txId}, already committed in block ${outcome.blockNumber} (${outcome.validationCode})`,
        );
        return outcome;
      }
      const why = ours
        ? `as ${validationCodeName(committed.validationCode)}`
        : "with other inputs by an interrupted run";
      log(
        "info",
        `LedgerTransaction ${name}: transaction ${txId} was committed earlier ${why}; submitting a new transaction`,
      );
      continue;
    }
    log(
      "info",
      `LedgerTransaction ${name}: submitting transaction ${txId} (${r.chaincode}.${r.function} on channel ${r.channel})`,
    );
    const transaction = await gateway.newProposal(request).endorse(); // verify-before-sign happens in endorse()
    const status = await (await transaction.submit()).getStatus();
    const processed = await gateway.getTransactionById(r.channel, txId);
    const outcome = await outcomeOf(gateway, r.channel, generation, txId, processed);
    if (status.code !== 0 && !r.allowInvalid) {
      throw new LedgerError({
        message: invalidMessage(name, txId, status.blockNumber.toString(), status.code),
        transactionId: txId,
      });
    }
    log(
      "info",
      `LedgerTransaction ${name}: transaction ${txId} committed in block ${outcome.blockNumber}: ${outcome.validationCode}`,
    );
    return { ...outcome, result: status.code === 0 ? payloadOf(transaction.getResult()) : outcome.result };
  }
  throw new LedgerError({
    message: `LedgerTransaction ${name}: ${String(MAX_GENERATION_SKIPS)} transactions of this resource are already on the ledger as invalid; see the earlier errors`,
  });
}

// ---- the provider ----

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
    const proposal = gateway.newProposal({
      channelId: r.channel,
      chaincodeName: r.chaincode,
      functionName: r.function,
      args: r.args.map(toBytes),
      transientData: Object.fromEntries(Object.entries(r.transientData).map(([k, v]) => [k, toBytes(v)])),
      endorsingOrganizations: r.endorsingOrganizations,
      visibility: r.visibility,
      nonce,
    });
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
