/**
 * Chaincode install packages (Fabric core/chaincode/persistence/chaincode_package.go): a .tar.gz holding
 * `metadata.json` ({"type", "label", "path"}) and `code.tar.gz`. For chaincode as a service (the ccaas builder in a
 * release's builders/ccaas) the code is one `connection.json` telling the peer where the chaincode server listens
 * and how to reach it (`address`, `dial_timeout`, `tls_required`, `client_auth_required`, `root_cert`, `client_key`,
 * `client_cert`). A package's id is `<label>:<hex SHA-256 of the package bytes>`, exactly what `peer lifecycle
 * chaincode calculatepackageid` prints for the same file (persistence.PackageID), so the bytes must not vary:
 * buildCcaasPackage writes them deterministically (package-archive.ts).
 *
 * With client authentication, connection.json carries the TLS key the peer presents to the chaincode server (Fabric's
 * ccaas design): such a package's bytes are a secret, and `secret` says so.
 */
import { ValidationError } from "../../errors/validation-error";
import type { FieldFailure } from "../../errors/validation-error";
import { sha256, toHex } from "../hash";
import { gunzip, gzipStored, readTar, writeTar } from "./package-archive";

/** Fabric's label rule (persistence.LabelRegexp). */
export const LABEL_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.+-]*$/;
/** What the ccaas builder's connection.json uses when no dial timeout is given (fabric-samples' value). */
export const DEFAULT_CCAAS_DIAL_TIMEOUT = "10s";

const METADATA_FILE = "metadata.json";
const CODE_PACKAGE_FILE = "code.tar.gz";
const CONNECTION_FILE = "connection.json";
/** A Go time.Duration as the ccaas builder parses dial_timeout ("10s", "1m30s", "500ms"). */
const GO_DURATION = /^([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+$/;
const HOST_PORT = /^(\[[0-9a-fA-F:.]+\]|[^\s:[\]/]+):([0-9]{1,5})$/;

/** Where a chaincode server listens and how its peer reaches it: the ccaas builder's connection.json. */
export interface CcaasConnection {
  /** "host:port" of the chaincode server, as the peer dials it. */
  readonly address: string;
  /** @default DEFAULT_CCAAS_DIAL_TIMEOUT */
  readonly dialTimeout?: string;
  /** @default false */
  readonly tlsRequired?: boolean;
  /** Whether the server wants the peer's client certificate (needs tlsRequired). @default false */
  readonly clientAuthRequired?: boolean;
  /** PEM of the CA that issued the server's TLS certificate (needed with tlsRequired). */
  readonly rootCert?: string;
  /** PEM certificate the peer presents (needed with clientAuthRequired). */
  readonly clientCert?: string;
  /**
   * PEM private key of clientCert: only ever a Pulumi secret, and with it the whole package.
   * @secret
   */
  readonly clientKey?: string;
}

export interface CcaasPackageOptions {
  /** The package's label: letters, digits and '_.+-', starting with a letter or digit (often `<name>_<version>`). */
  readonly label: string;
  readonly connection: CcaasConnection;
}

/** A chaincode install package and what identifies it. */
export interface ChaincodePackage {
  /** The .tar.gz bytes: what InstallChaincode sends and what the package id hashes. */
  readonly bytes: Uint8Array;
  readonly label: string;
  /** `<label>:<hex SHA-256 of bytes>`, as `peer lifecycle chaincode calculatepackageid` prints it. */
  readonly packageId: string;
  /** metadata.json's `type` ("ccaas", "golang", "node", ...). */
  readonly type: string;
  /** metadata.json's `path` (empty for ccaas). */
  readonly path: string;
  /** For a ccaas package, its connection.json without the client key. */
  readonly connection?: Omit<CcaasConnection, "clientKey"> & { readonly hasClientKey: boolean };
  /** True when the bytes hold a private key (a ccaas client_key): keep them as a secret. */
  readonly secret: boolean;
}

/** `<label>:<hex SHA-256 of the package bytes>`. */
export function packageIdOf(label: string, bytes: Uint8Array): string {
  return `${label}:${toHex(sha256(bytes))}`;
}

const isPem = (text: string | undefined, kind: RegExp): boolean =>
  text !== undefined && new RegExp(`-----BEGIN ${kind.source}-----`).test(text);

function validateCcaas(options: CcaasPackageOptions): void {
  const failures: FieldFailure[] = [];
  const c = options.connection;
  if (!LABEL_PATTERN.test(options.label)) {
    failures.push({
      property: "label",
      reason: `'${options.label}' must start with a letter or digit and hold only letters, digits and '_', '.', '+', '-'`,
    });
  }
  const hostPort = HOST_PORT.exec(c.address);
  const port = Number(hostPort?.[2]);
  if (hostPort === null || port < 1 || port > 65535) {
    failures.push({
      property: "connection.address",
      reason: `'${c.address}' must be host:port, such as 127.0.0.1:9999`,
    });
  }
  if (c.dialTimeout !== undefined && !GO_DURATION.test(c.dialTimeout)) {
    failures.push({
      property: "connection.dialTimeout",
      reason: `'${c.dialTimeout}' must be a duration such as 10s or 1m30s`,
    });
  }
  const tls = c.tlsRequired ?? false;
  const clientAuth = c.clientAuthRequired ?? false;
  if (tls && !isPem(c.rootCert, /CERTIFICATE/)) {
    failures.push({
      property: "connection.rootCert",
      reason: "must be the PEM CA certificate of the server's TLS certificate (tlsRequired is set)",
    });
  }
  if (!tls && (clientAuth || c.rootCert !== undefined || c.clientCert !== undefined || c.clientKey !== undefined)) {
    failures.push({
      property: "connection.tlsRequired",
      reason: "must be true when clientAuthRequired, rootCert, clientCert or clientKey is set",
    });
  }
  if (clientAuth && !isPem(c.clientCert, /CERTIFICATE/)) {
    failures.push({
      property: "connection.clientCert",
      reason: "must be the PEM certificate the peer presents (clientAuthRequired is set)",
    });
  }
  if (clientAuth && !isPem(c.clientKey, /[A-Z ]*PRIVATE KEY/)) {
    failures.push({
      property: "connection.clientKey",
      reason: "must be the PEM private key of clientCert (clientAuthRequired is set)",
    });
  }
  if (!clientAuth && (c.clientCert !== undefined || c.clientKey !== undefined)) {
    failures.push({
      property: "connection.clientAuthRequired",
      reason: "must be true when clientCert or clientKey is set",
    });
  }
  if (failures.length > 0) throw new ValidationError({ subject: "ChaincodePackage", failures });
}

/** connection.json, its keys in the ccaas builder's order, written only when they apply. */
function connectionJson(c: CcaasConnection): string {
  const tls = c.tlsRequired ?? false;
  return JSON.stringify({
    address: c.address,
    dial_timeout: c.dialTimeout ?? DEFAULT_CCAAS_DIAL_TIMEOUT,
    tls_required: tls,
    ...(tls ? { client_auth_required: c.clientAuthRequired ?? false, root_cert: c.rootCert } : {}),
    ...(c.clientAuthRequired === true ? { client_key: c.clientKey, client_cert: c.clientCert } : {}),
  });
}

/**
 * Builds a chaincode-as-a-service package from its label and connection details, the same bytes every time for the
 * same input. Throws ValidationError naming every bad field before anything is built.
 */
export function buildCcaasPackage(options: CcaasPackageOptions): ChaincodePackage {
  validateCcaas(options);
  const utf8 = (s: string): Uint8Array => Buffer.from(s, "utf8");
  const code = gzipStored(writeTar([{ name: CONNECTION_FILE, data: utf8(connectionJson(options.connection)) }]));
  const metadata = utf8(JSON.stringify({ type: "ccaas", label: options.label }));
  const bytes = gzipStored(
    writeTar([
      { name: METADATA_FILE, data: metadata },
      { name: CODE_PACKAGE_FILE, data: code },
    ]),
  );
  return readChaincodePackage(bytes);
}

function packageError(field: string, reason: string): ValidationError {
  return new ValidationError({ subject: "ChaincodePackage", failures: [{ property: field, reason }] });
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function ccaasConnectionOf(code: Uint8Array, field: string): ChaincodePackage["connection"] {
  let entries;
  try {
    entries = readTar(gunzip(code));
  } catch (error) {
    throw packageError(field, `code.tar.gz of a ccaas package: ${messageOf(error)}`);
  }
  const file = entries.find((e) => e.name === CONNECTION_FILE || e.name === `./${CONNECTION_FILE}`);
  if (file === undefined) throw packageError(field, "a ccaas package's code.tar.gz must hold connection.json");
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(Buffer.from(file.data).toString("utf8")) as Record<string, unknown>;
  } catch (error) {
    throw packageError(field, `connection.json of the ccaas package is not JSON (${messageOf(error)})`);
  }
  const str = (k: string): string | undefined => (typeof json[k] === "string" ? json[k] : undefined);
  const rootCert = str("root_cert");
  const clientCert = str("client_cert");
  return {
    address: str("address") ?? "",
    dialTimeout: str("dial_timeout") ?? "",
    tlsRequired: json["tls_required"] === true,
    clientAuthRequired: json["client_auth_required"] === true,
    ...(rootCert === undefined ? {} : { rootCert }),
    ...(clientCert === undefined ? {} : { clientCert }),
    hasClientKey: (str("client_key") ?? "") !== "",
  };
}

/**
 * Reads a package built elsewhere (`peer lifecycle chaincode package`, another tool, buildCcaasPackage) as Fabric
 * parses it: its label, type and package id, and for a ccaas package its connection (the client key left out).
 * Throws ValidationError naming `field` with Fabric's reason when a peer would refuse to install it.
 */
export function readChaincodePackage(bytes: Uint8Array, field = "package"): ChaincodePackage {
  let entries;
  try {
    entries = readTar(gunzip(bytes));
  } catch (error) {
    throw packageError(field, `is not a chaincode install package (.tar.gz): ${messageOf(error)}`);
  }
  let metadata: { type?: unknown; label?: unknown; path?: unknown } | undefined;
  let code: Uint8Array | undefined;
  for (const entry of entries) {
    if (entry.type !== "0")
      throw packageError(field, `tar entry ${entry.name} is not a regular file, type ${entry.type}`);
    if (entry.name === METADATA_FILE) {
      try {
        metadata = JSON.parse(Buffer.from(entry.data).toString("utf8")) as typeof metadata;
      } catch (error) {
        throw packageError(field, `could not unmarshal ${METADATA_FILE} as json (${messageOf(error)})`);
      }
    } else if (entry.name === CODE_PACKAGE_FILE) {
      code = entry.data;
    }
  }
  if (code === undefined) throw packageError(field, "did not find a code package inside the package");
  if (metadata === undefined) throw packageError(field, `did not find any package metadata (missing ${METADATA_FILE})`);
  const label = typeof metadata.label === "string" ? metadata.label : "";
  if (!LABEL_PATTERN.test(label)) {
    throw packageError(
      field,
      `invalid label '${label}'. Label must be non-empty, can only consist of alphanumerics, symbols from '.+-_', and can only begin with alphanumerics`,
    );
  }
  const type = typeof metadata.type === "string" ? metadata.type : "";
  const connection = type.toLowerCase() === "ccaas" ? ccaasConnectionOf(code, field) : undefined;
  return {
    bytes,
    label,
    packageId: packageIdOf(label, bytes),
    type,
    path: typeof metadata.path === "string" ? metadata.path : "",
    ...(connection === undefined ? {} : { connection }),
    secret: connection?.hasClientKey ?? false,
  };
}
