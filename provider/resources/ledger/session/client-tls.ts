/**
 * The client side of mutual TLS to a gateway peer that requires client certificates (`peer.tls.clientAuthRequired`):
 * the client's TLS certificate as a plain input (`gateway.clientCertPem`) and its key in exactly one way, as the
 * signing key is — by reference, `clientKeyFile` (a PEM file's path) or `clientKeyEnv` (an environment variable holding
 * the PEM), read in the provider process at call time and never stored; or `clientKeyPem`, the key itself, kept only
 * as a Pulumi secret. The inputs are checked first (`clientTlsFailures`), then the key is read through its reference and
 * checked against the certificate before anything is sent (check does it too, so preview fails on a mismatch), and a
 * refused handshake names the field to fix.
 *
 * Fabric binds a client's TLS certificate into the channel header (`tls_cert_hash`) only for Deliver (block events);
 * this package never calls Deliver (Endorse, Submit, CommitStatus, Evaluate and ChaincodeEvents go through the gateway,
 * which does not check it), so it sets no hash.
 */
import * as fs from "node:fs";
import type * as crypto from "node:crypto";
import { ConfigError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { certificateOf, privateKeyOf, samePublicKey } from "../../../ledger";
import { ENV_NAME, hasUnknown, isRecord } from "../ledger-values";

/** The ways to give the client TLS key, in the order messages list them. */
export const CLIENT_TLS_KEY_KINDS = ["clientKeyPem", "clientKeyFile", "clientKeyEnv"] as const;
export type ClientTlsKeyKind = (typeof CLIENT_TLS_KEY_KINDS)[number];

/** The input a node's mutual TLS settings are under, and what the node is called in messages. */
export interface ClientTlsField {
  /** The input's name: "gateway" (a ledger resource's gateway peer), "orderer", "peer". */
  readonly field: string;
  /** The node, for messages: "gateway", "orderer", "peer". */
  readonly node: string;
}

const GATEWAY_FIELD: ClientTlsField = { field: "gateway", node: "gateway" };

const oneClientKey = (f: string): string =>
  `${f}.clientKeyFile (a PEM file's path), ${f}.clientKeyEnv (an environment variable holding the PEM) or ` +
  `${f}.clientKeyPem (the key itself, as a Pulumi secret)`;

/** The gateway's mutual TLS inputs. */
export interface ClientTlsInputs {
  clientCertPem?: string;
  clientKeyPem?: string;
  clientKeyFile?: string;
  clientKeyEnv?: string;
}

/** The client TLS key kinds set on a gateway input. */
function clientTlsKeyKindsOf(gateway: Readonly<Record<string, unknown>>): ClientTlsKeyKind[] {
  return CLIENT_TLS_KEY_KINDS.filter((k) => gateway[k] !== undefined && gateway[k] !== null);
}

/** A failure unless `key` is the private key of the client TLS certificate (`certificatePem`). */
function clientKeyMismatch(
  property: string,
  key: crypto.KeyObject,
  certificatePem: unknown,
  f: ClientTlsField,
): FieldFailure[] {
  const certificate = certificateOf(certificatePem);
  if (certificate === undefined || samePublicKey(key, certificate.publicKey)) return [];
  return [
    {
      property,
      reason: `is not the key of ${f.field}.clientCertPem ('${certificate.subject.replace(/\n/g, ", ")}'): use the private key of that TLS certificate`,
    },
  ];
}

/**
 * Failures of the gateway's mutual TLS inputs that need nothing but the inputs: the certificate, exactly one key
 * reference, its form, and a key given as a value matched against the certificate.
 */
export function clientTlsFailures(gateway: unknown, f: ClientTlsField = GATEWAY_FIELD): FieldFailure[] {
  if (!isRecord(gateway)) return [];
  const n = f.field;
  const ONE_CLIENT_KEY = oneClientKey(n);
  const cert = gateway["clientCertPem"];
  const kinds = clientTlsKeyKindsOf(gateway);
  const failures: FieldFailure[] = [];
  if (cert !== undefined && cert !== null && !hasUnknown(cert) && certificateOf(cert) === undefined) {
    failures.push({
      property: `${n}.clientCertPem`,
      reason: "is not a PEM X.509 certificate; pass the client TLS certificate's PEM text",
    });
  }
  if (cert === undefined || cert === null) {
    return kinds.map((k) => ({
      property: `${n}.${k}`,
      reason: `needs ${n}.clientCertPem: set the PEM client TLS certificate of this key (mutual TLS), or remove it`,
    }));
  }
  if (gateway["tlsRootCertPem"] === undefined || gateway["tlsRootCertPem"] === null) {
    failures.push({
      property: `${n}.clientCertPem`,
      reason: `needs TLS: set ${n}.tlsRootCertPem (the CA of the ${f.node}'s TLS certificate) for mutual TLS`,
    });
  }
  const kind = kinds[0];
  if (kind === undefined || kinds.length > 1) {
    const reason =
      kind === undefined
        ? `needs the client TLS key (mutual TLS): set one of ${ONE_CLIENT_KEY}`
        : `set only one client TLS key: ${n}.${kinds.join(` and ${n}.`)} are both set; keep one of ${ONE_CLIENT_KEY}`;
    return [...failures, { property: kind === undefined ? `${n}.clientCertPem` : `${n}.${kinds[1] ?? ""}`, reason }];
  }
  const value = gateway[kind];
  if (hasUnknown(value)) return failures;
  if (kind === "clientKeyFile" && (typeof value !== "string" || value.trim() === "")) {
    failures.push({ property: `${n}.clientKeyFile`, reason: "must be the path of the client TLS key's PEM file" });
  } else if (kind === "clientKeyEnv" && (typeof value !== "string" || !ENV_NAME.test(value))) {
    failures.push({
      property: `${n}.clientKeyEnv`,
      reason: "must be the name of an environment variable holding the client TLS key's PEM, e.g. 'FABRIC_TLS_KEY_PEM'",
    });
  } else if (kind === "clientKeyPem") {
    const key = privateKeyOf(value);
    if (key === undefined) {
      failures.push({ property: `${n}.clientKeyPem`, reason: "is not a parsable PEM private key (PKCS#8 or SEC1)" });
    } else if (!hasUnknown(cert)) failures.push(...clientKeyMismatch(`${n}.clientKeyPem`, key, cert, f));
  }
  return failures;
}

/** A human reference of the client TLS key (no secrets), for messages. */
function referenceOf(gateway: ClientTlsInputs, f: ClientTlsField): string {
  if (gateway.clientKeyFile !== undefined) return `the client TLS key file ${gateway.clientKeyFile}`;
  if (gateway.clientKeyEnv !== undefined) return `the environment variable ${gateway.clientKeyEnv}`;
  return `${f.field}.clientKeyPem`;
}

/**
 * The client TLS key's PEM, read where the provider runs, checked to parse and to be the key of `clientCertPem`; or
 * undefined without mutual TLS. Throws ConfigError naming the field (`setting`) and the fix; its message never holds
 * key material.
 */
export function readClientTlsKey(gateway: ClientTlsInputs, f: ClientTlsField = GATEWAY_FIELD): string | undefined {
  if (gateway.clientCertPem === undefined) return undefined;
  const kind = clientTlsKeyKindsOf(gateway as Record<string, unknown>)[0];
  if (kind === undefined) return undefined; // clientTlsFailures refuses a certificate without a key
  const setting = `${f.field}.${kind}`;
  const reference = referenceOf(gateway, f);
  let pem: string | undefined;
  if (kind === "clientKeyFile") {
    try {
      pem = fs.readFileSync(gateway.clientKeyFile ?? "", "utf8");
    } catch (error) {
      const code = (error as { code?: string }).code ?? "EIO";
      throw new ConfigError({
        setting,
        message: `${setting}: cannot read ${reference} (${code}) on the machine that runs pulumi: check the path (a relative one is resolved against the program's directory)`,
      });
    }
  } else if (kind === "clientKeyEnv") {
    pem = process.env[gateway.clientKeyEnv ?? ""];
    if (pem === undefined || pem === "") {
      throw new ConfigError({
        setting,
        message: `${setting}: ${reference} is not set where pulumi runs: export the client TLS key's PEM in it before pulumi runs`,
      });
    }
  } else pem = gateway.clientKeyPem ?? "";
  const key = privateKeyOf(pem);
  if (key === undefined) {
    throw new ConfigError({
      setting,
      message: `${setting}: ${reference} does not hold a parsable PEM private key (PKCS#8 or SEC1)`,
    });
  }
  const failure = clientKeyMismatch(setting, key, gateway.clientCertPem, f)[0];
  if (failure !== undefined) throw new ConfigError({ setting, message: `${setting}: ${reference} ${failure.reason}` });
  return pem;
}

/** The client TLS key read for a check: the key (undefined without mutual TLS), or the failure naming the field. */
export function checkedClientTlsKey(
  gateway: ClientTlsInputs,
  f: ClientTlsField = GATEWAY_FIELD,
): { readonly key: string | undefined } | { readonly failures: FieldFailure[] } {
  try {
    return { key: readClientTlsKey(gateway, f) };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    return { failures: [{ property: error.setting, reason: error.message.slice(error.setting.length + 2) }] };
  }
}

/** An OpenSSL TLS alert in a gRPC error's text, e.g. "tlsv13 alert certificate required". */
const TLS_ALERT = /(?:tlsv1[0-3]?|sslv3) alert ([a-z ]+?)(?::|\s*$)/m;

/**
 * What to tell the user when the gateway peer refused the TLS handshake over the client certificate (an OpenSSL alert
 * in the error: `certificate required` when none was presented to a peer with clientAuthRequired, `bad certificate` or
 * `unknown ca` when the peer does not trust it), naming the setting and the fix; undefined for any other failure.
 */
export function clientTlsRefusal(error: unknown, gateway: ClientTlsInputs & { address: string }): string | undefined {
  const text = error instanceof Error ? error.message : String(error);
  const alert = TLS_ALERT.exec(text)?.[1];
  if (alert === undefined) return undefined;
  const what = `the gateway peer ${gateway.address} refused the TLS handshake (alert: ${alert})`;
  if (gateway.clientCertPem === undefined) {
    if (alert !== "certificate required" && alert !== "handshake failure") return undefined;
    return (
      `${what}: it requires a client TLS certificate (the peer's peer.tls.clientAuthRequired is true): set ` +
      "gateway.clientCertPem to your client TLS certificate and gateway.clientKeyFile or gateway.clientKeyEnv to its key"
    );
  }
  return (
    `${what}: it did not accept gateway.clientCertPem; use a client TLS certificate issued by a CA the peer trusts ` +
    "for clients (its peer.tls.clientRootCAs, usually your organization's TLS CA)"
  );
}
