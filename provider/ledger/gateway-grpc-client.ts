/**
 * The gRPC connection to a gateway peer: the TLS settings and the grpc-js Client connect() opens (insecure only to a
 * loopback address), also used by the channel pool to share one connection between Gateways.
 */
import * as grpc from "@grpc/grpc-js";
import { ConfigError } from "../errors/config-error";

export interface GatewayTlsOptions {
  /** PEM CA certificate(s) that sign the gateway's TLS certificate. */
  readonly rootCertificates: string | Uint8Array;
  /** PEM client certificate for mutual TLS. */
  readonly clientCertificate?: string | Uint8Array;
  /** PEM private key of the client certificate (a secret: never logged). */
  readonly clientPrivateKey?: string | Uint8Array;
  /** The TLS server name to expect instead of the address's host. */
  readonly serverNameOverride?: string;
}

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

function hostOf(address: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(address);
  if (bracketed?.[1] !== undefined) return bracketed[1];
  const colon = address.lastIndexOf(":");
  return colon === -1 ? address : address.slice(0, colon);
}

function toBuffer(value: string | Uint8Array): Buffer {
  return typeof value === "string" ? Buffer.from(value) : Buffer.from(value);
}

/**
 * A grpc-js Client to the gateway peer at `address` with `tls` (insecure only to a loopback address), as connect()
 * opens one: for a caller that keeps one connection for several Gateways (pass it as ConnectOptions.client). Throws
 * ConfigError naming the setting for a missing address, an insecure remote address or half a client TLS pair.
 * `settings` names those settings in errors (`gateway`, `peer` for a peer's Endorser service, `orderer`).
 */
export function newGatewayGrpcClient(options: {
  readonly address?: string;
  readonly tls?: GatewayTlsOptions;
  readonly settings?: "gateway" | "peer" | "orderer";
}): grpc.Client {
  const address = options.address;
  const settings = options.settings ?? "gateway";
  if (address === undefined || address === "") {
    throw new ConfigError({
      setting: `${settings}.address`,
      message: `${settings}.address is required: 'host:port' of the ${settings === "gateway" ? "gateway peer" : settings}`,
    });
  }
  const tls = options.tls;
  if (tls === undefined) {
    if (!LOOPBACK_HOSTS.has(hostOf(address))) {
      throw new ConfigError({
        setting: `${settings}.tls`,
        message: `${settings} ${address}: an insecure connection is allowed only to a loopback address; set ${settings}.tls.rootCertificates`,
      });
    }
    return new grpc.Client(address, grpc.credentials.createInsecure());
  }
  if ((tls.clientCertificate === undefined) !== (tls.clientPrivateKey === undefined)) {
    throw new ConfigError({
      setting: `${settings}.tls`,
      message: `${settings}.tls: clientCertificate and clientPrivateKey must be set together`,
    });
  }
  const credentials = grpc.credentials.createSsl(
    toBuffer(tls.rootCertificates),
    tls.clientPrivateKey === undefined ? null : toBuffer(tls.clientPrivateKey),
    tls.clientCertificate === undefined ? null : toBuffer(tls.clientCertificate),
  );
  const channelOptions =
    tls.serverNameOverride === undefined ? {} : { "grpc.ssl_target_name_override": tls.serverNameOverride };
  return new grpc.Client(address, credentials, channelOptions);
}
