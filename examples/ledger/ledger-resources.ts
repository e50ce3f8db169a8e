/**
 * One asset transaction through ledger.LedgerTransaction, configured from the stack config (every key is optional when
 * `sandbox` is given, which examples/demo does with the Fabric sandbox it started):
 *
 *   pulumi config set ledgerGateway 127.0.0.1:7051              # "host:port" of the gateway peer
 *   pulumi config set ledgerTlsRootCertPem -- "$(cat tls-ca.pem)"  # optional: TLS (required off loopback)
 *   pulumi config set ledgerTlsServerNameOverride peer0.org1.example.com   # optional: the name in the peer's TLS certificate
 *   pulumi config set ledgerClientCertPem -- "$(cat client.crt)"   # optional: mutual TLS (a peer with clientAuthRequired),
 *   pulumi config set ledgerClientKeyFile ./client.key         #   its key's file (never stored in state), or
 *   pulumi config set ledgerClientKeyEnv FABRIC_TLS_KEY_PEM    #   an environment variable holding the key's PEM
 *   pulumi config set ledgerChannel opsledger                   # default "opsledger"
 *   pulumi config set ledgerChaincode assets                    # default "assets"
 *   pulumi config set ledgerFunction CreateAsset                # default "CreateAsset"
 *   pulumi config set ledgerArgs '["asset-1","blue"]'           # JSON list of strings; default ["asset-1","blue"]
 *   pulumi config set ledgerMspId Org1MSP
 *   pulumi config set ledgerCertificatePem -- "$(cat cert.pem)"
 *   pulumi config set ledgerSigner keyFile                      # how to sign; default privateKeyPem (see below)
 *   pulumi config set ledgerKeyFile ./key.pem                   # keyFile: a PEM file (never stored in state)
 *   pulumi config set ledgerKeyEnv FABRIC_KEY_PEM               # keyEnv: an environment variable holding the PEM
 *   pulumi config set ledgerPkcs11Library /usr/lib/softhsm/libsofthsm2.so   # pkcs11: the token's module,
 *   pulumi config set ledgerPkcs11TokenLabel fabric             #   its label,
 *   pulumi config set ledgerPkcs11PinEnv HSM_PIN                #   the PIN's environment variable (or:
 *   pulumi config set --secret ledgerPkcs11Pin 1234             #   the PIN itself, a secret),
 *   pulumi config set ledgerPkcs11KeyId 5c1f...                 #   optional CKA_ID (default: the certificate's SKI)
 *   pulumi config set ledgerKmsCryptoKeyVersion projects/p/locations/global/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1
 *   pulumi config set --secret ledgerPrivateKeyPem -- "$(cat key.pem)"   # privateKeyPem: the key itself (0.1 style)
 *   pulumi config set ledgerTrustedRootCertificates '{"Org1MSP":"-----BEGIN CERTIFICATE-----\n..."}'
 *   pulumi config set --secret ledgerTransientData '{"note":"private"}'   # optional
 *   pulumi config set ledgerPreviewEndorse true                 # optional: simulate during preview
 *   pulumi config set ledgerAllowInvalid true                   # optional: record an invalid transaction, do not fail
 *   pulumi config set ledgerChannelCapability V3_0              # optional assertion (the channel's are read from it)
 *   pulumi config set ledgerOnDestroy '{"function":"DeleteAsset","args":["asset-1"]}'   # optional compensation
 */
import * as pulumi from "@pulumi/pulumi";
import * as opsledger from "pulumi-opsledger";

/** What a program that started the Fabric sandbox knows about it: the defaults for every setting. */
export interface LedgerSandboxInfo {
  readonly address: string;
  readonly channel: string;
  readonly chaincode: string;
  readonly tlsRootCertPem?: string | undefined;
  /** Root CA certificate (PEM) by MSP id. */
  readonly caCertificates: Readonly<Record<string, string>>;
  /** A client identity enrolled with one of the sandbox's CAs. */
  readonly identity: { readonly mspId: string; readonly certificatePem: string; readonly privateKeyPem: string };
}

function jsonConfig(config: pulumi.Config, key: string): unknown {
  const text = config.get(key);
  return text === undefined ? undefined : JSON.parse(text);
}

/** The signer the `ledgerSigner` key selects (default privateKeyPem), from its own keys. */
function signerOf(
  config: pulumi.Config,
  sandbox: LedgerSandboxInfo | undefined,
): Omit<opsledger.ledger.LedgerIdentityArgs, "mspId" | "certificatePem"> {
  const kind = config.get("ledgerSigner") ?? "privateKeyPem";
  switch (kind) {
    case "keyFile":
      return { keyFile: config.require("ledgerKeyFile") };
    case "keyEnv":
      return { keyEnv: config.require("ledgerKeyEnv") };
    case "pkcs11": {
      const pin = config.getSecret("ledgerPkcs11Pin");
      const pinEnv = config.get("ledgerPkcs11PinEnv");
      const keyId = config.get("ledgerPkcs11KeyId");
      return {
        pkcs11: {
          library: config.require("ledgerPkcs11Library"),
          tokenLabel: config.require("ledgerPkcs11TokenLabel"),
          ...(pin === undefined ? {} : { pin }),
          ...(pinEnv === undefined ? {} : { pinEnv }),
          ...(keyId === undefined ? {} : { keyId }),
        },
      };
    }
    case "kms":
      return { kms: { cryptoKeyVersion: config.require("ledgerKmsCryptoKeyVersion") } };
    case "privateKeyPem":
      return {
        privateKeyPem:
          sandbox === undefined
            ? config.requireSecret("ledgerPrivateKeyPem")
            : (config.getSecret("ledgerPrivateKeyPem") ?? pulumi.secret(sandbox.identity.privateKeyPem)),
      };
    default:
      throw new Error(`ledgerSigner '${kind}' must be privateKeyPem, keyFile, keyEnv, pkcs11 or kms`);
  }
}

/** Declares the transaction and returns the outputs worth exporting. */
export function ledgerResources(
  config: pulumi.Config = new pulumi.Config(),
  sandbox?: LedgerSandboxInfo,
): Record<string, pulumi.Output<unknown>> {
  const onDestroy = jsonConfig(config, "ledgerOnDestroy") as { function: string; args?: string[] } | undefined;
  const transient = config.getSecret("ledgerTransientData");
  const tlsRootCertPem = config.get("ledgerTlsRootCertPem") ?? sandbox?.tlsRootCertPem;
  const serverNameOverride = config.get("ledgerTlsServerNameOverride");
  const allowInvalid = config.getBoolean("ledgerAllowInvalid");
  const channelCapability = config.get("ledgerChannelCapability");
  const clientCertPem = config.get("ledgerClientCertPem");
  const clientKeyFile = config.get("ledgerClientKeyFile");
  const clientKeyEnv = config.get("ledgerClientKeyEnv");
  const tx = new opsledger.ledger.LedgerTransaction("asset-transaction", {
    gateway: {
      address: config.get("ledgerGateway") ?? sandbox?.address ?? config.require("ledgerGateway"),
      ...(tlsRootCertPem === undefined ? {} : { tlsRootCertPem }),
      ...(serverNameOverride === undefined ? {} : { serverNameOverride }),
      ...(clientCertPem === undefined ? {} : { clientCertPem }),
      ...(clientKeyFile === undefined ? {} : { clientKeyFile }),
      ...(clientKeyEnv === undefined ? {} : { clientKeyEnv }),
    },
    channel: config.get("ledgerChannel") ?? sandbox?.channel ?? "opsledger",
    ...(channelCapability === undefined ? {} : { channelCapability: channelCapability as "V2_0" | "V3_0" }),
    chaincode: config.get("ledgerChaincode") ?? sandbox?.chaincode ?? "assets",
    function: config.get("ledgerFunction") ?? "CreateAsset",
    args: (jsonConfig(config, "ledgerArgs") as string[] | undefined) ?? ["asset-1", "blue"],
    ...(transient === undefined
      ? {}
      : { transientData: transient.apply((t) => JSON.parse(t) as Record<string, string>) }),
    identity: {
      mspId: config.get("ledgerMspId") ?? sandbox?.identity.mspId ?? config.require("ledgerMspId"),
      certificatePem:
        config.get("ledgerCertificatePem") ??
        sandbox?.identity.certificatePem ??
        config.require("ledgerCertificatePem"),
      ...signerOf(config, sandbox),
    },
    trustedRootCertificates: (jsonConfig(config, "ledgerTrustedRootCertificates") as
      Record<string, string> | undefined) ?? { ...(sandbox?.caCertificates ?? {}) },
    previewEndorse: config.getBoolean("ledgerPreviewEndorse") ?? false,
    ...(allowInvalid === undefined ? {} : { allowInvalid }),
    ...(onDestroy === undefined ? {} : { onDestroy }),
    timeouts: { create: "2m", delete: "2m" },
  });
  return {
    ledgerTxId: tx.txId,
    ledgerValidationCode: tx.validationCode,
    ledgerValidationCodeNumber: tx.validationCodeNumber,
    ledgerBlockNumber: tx.blockNumber,
    ledgerResult: tx.result.apply((r) => r.utf8),
    ledgerEndorsers: tx.endorsers,
    ledgerProcessedTransaction: tx.processedTransaction,
    ledgerPreviewResult: tx.previewResult.apply((r) => r?.utf8),
  };
}
