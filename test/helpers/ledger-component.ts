/**
 * The LedgerTransaction component (examples/ledger through the plain `pulumi` CLI) against a ledger target
 * (test/helpers/ledger-targets.ts), the same way on the Fabric sandbox and on a real network: the program reaches the
 * first organization's gateway through a gateway proxy (test/helpers/gateway-proxy.ts), which shows every call the
 * provider makes and holds an answer where a test needs a point in time (after endorsement, after commit); the ledger
 * is read through qscc (test/helpers/ledger-reader.ts).
 *
 * On a real network the proxy presents the gateway peer's own TLS certificate and key, so the program is configured
 * exactly as for the peer itself: the organization's TLS root and the peer's host name as the server name override.
 * The sandbox's TLS key is its own business; its proxy presents a certificate from a CA made here, for a host name
 * that again needs the override.
 */
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as path from "node:path";
import { gateway as gatewayProtos } from "@hyperledger/fabric-protos";
import { createRootCa, issueCertificate, privateKeyPem } from "../../sandbox/fabric/certificates";
import type { FabricOrganization } from "../../sandbox/fabric-network";
import { GATEWAY, startGatewayProxy } from "./gateway-proxy";
import type { GatewayProxy, HeldCall, ProxiedCall } from "./gateway-proxy";
import { ledgerProgramConfig } from "../../scripts/lib/ledger-program-config";
import { TYPESCRIPT, faceEnv, projectOf } from "./faces";
import type { Face } from "./faces";
import { ledgerReader } from "./ledger-reader";
import type { LedgerReader } from "./ledger-reader";
import type { LedgerTarget, LedgerTargetFactory, TargetIdentity, TargetStartOptions } from "./ledger-targets";
import { initProjectStack } from "./project-stack";
import type { CommandResult, ConfigValues, ProjectStack } from "./project-stack";

export const LEDGER_PROJECT = TYPESCRIPT.projects.ledger;
/** The host name the sandbox's proxy certificate carries (and nothing else, so the override is needed). */
const SANDBOX_PROXY_HOST = "gateway.fabric-sandbox.test";

export interface ComponentTarget {
  readonly label: string;
  readonly ledger: LedgerTarget;
  /** In front of the first organization's gateway: the program's `ledgerGateway`. */
  readonly proxy: GatewayProxy;
  readonly reader: LedgerReader;
  /** How a client reaches the proxy: the TLS root to trust and the server name to expect. */
  readonly proxyTls: { readonly rootCertPem: string; readonly serverName: string };
  /** The identity the program submits with (the first organization's client). */
  readonly identity: TargetIdentity;
  close(): Promise<void>;
}

/** The TLS identity a proxy in front of `ledger`'s first gateway presents, and what a client must trust for it. */
function proxyIdentity(ledger: LedgerTarget): {
  serverTls: { certificatePem: string; privateKeyPem: string };
  clientTls: { rootCertPem: string; serverName: string };
} {
  const network = ledger.network;
  if (network !== undefined) {
    const org = network.organization(ledger.organizations[0] ?? "");
    const tlsDir = path.join(path.dirname(org.peerMspDir), "tls");
    return {
      serverTls: {
        certificatePem: fs.readFileSync(path.join(tlsDir, "server.crt"), "utf8"),
        privateKeyPem: fs.readFileSync(path.join(tlsDir, "server.key"), "utf8"),
      },
      clientTls: { rootCertPem: org.tlsRootCertPem, serverName: org.tlsServerName },
    };
  }
  const ca = createRootCa({ commonName: "tlsca.proxy.test", organization: "OpsLedger tests" });
  const server = issueCertificate(ca, {
    subject: { commonName: SANDBOX_PROXY_HOST, organization: "OpsLedger tests" },
    dnsNames: [SANDBOX_PROXY_HOST],
  });
  return {
    serverTls: { certificatePem: server.certificatePem, privateKeyPem: privateKeyPem(server.privateKey) },
    clientTls: { rootCertPem: ca.certificatePem, serverName: SANDBOX_PROXY_HOST },
  };
}

/**
 * Starts the target (the run's shared network when there is one, unless `own`) and a proxy in front of its first
 * gateway.
 */
export async function startComponentTarget(
  factory: LedgerTargetFactory,
  options: TargetStartOptions = {},
): Promise<ComponentTarget> {
  const ledger = await factory.start(options);
  try {
    const gateway = ledger.gateway();
    const { serverTls, clientTls } = proxyIdentity(ledger);
    const proxy = await startGatewayProxy({
      upstream: {
        address: gateway.address,
        tlsRootCertPem: gateway.tlsRootCertPem,
        serverName: gateway.serverNameOverride ?? "localhost",
        clientTls: gateway.clientTls,
      },
      serverTls,
    });
    return {
      label: factory.label,
      ledger,
      proxy,
      reader: ledgerReader(ledger),
      proxyTls: clientTls,
      identity: ledger.client(),
      async close() {
        await proxy.close();
        await ledger.close();
      },
    };
  } catch (error) {
    await ledger.close();
    throw error;
  }
}

/** examples/ledger's gateway keys for `org`'s gateway peer itself, not the proxy (TransactionSettings.gateway). */
export function directGatewayConfig(org: FabricOrganization): ConfigValues {
  return {
    ledgerGateway: { value: org.gatewayAddress },
    ledgerTlsRootCertPem: { value: org.tlsRootCertPem },
    ledgerTlsServerNameOverride: { value: org.tlsServerName },
  };
}

export { uniqueKey } from "../../scripts/lib/ledger-program-config";

/** What examples/ledger is asked to submit, beyond the target's settings. */
export interface TransactionSettings {
  readonly fn: string;
  readonly args: readonly string[];
  readonly transientNote?: string;
  readonly previewEndorse?: boolean;
  readonly allowInvalid?: boolean;
  readonly onDestroy?: { readonly function: string; readonly args: readonly string[] };
  /** The component's channelCapability (ledgerChannelCapability). */
  readonly channelCapability?: "V2_0" | "V3_0";
  /** The identity to submit with (default the target's: the first organization's client). */
  readonly identity?: TargetIdentity | ReferencedIdentity;
  /** examples/ledger's gateway keys instead of the proxy's (a peer reached directly, with mutual TLS say). */
  readonly gateway?: ConfigValues;
}

/**
 * An identity whose key is signed with through a reference (examples/ledger's `ledgerSigner` and its keys: a PKCS#11
 * token, a Cloud KMS key version) instead of `ledgerPrivateKeyPem`, and the environment the provider then needs.
 */
export interface ReferencedIdentity {
  readonly mspId: string;
  readonly certificatePem: string;
  readonly signerConfig: ConfigValues;
  readonly env?: Readonly<Record<string, string>>;
}

/** examples/ledger's keys for the identity's signer. */
function signerConfigOf(identity: TargetIdentity | ReferencedIdentity): ConfigValues {
  return "signerConfig" in identity
    ? identity.signerConfig
    : { ledgerPrivateKeyPem: { value: identity.privateKeyPem, secret: true } };
}

/** examples/ledger's settings for `t` through the proxy, as `pulumi config set` takes them. */
export function ledgerConfig(t: ComponentTarget, s: TransactionSettings): ConfigValues {
  return {
    ledgerGateway: { value: t.proxy.address },
    ledgerTlsRootCertPem: { value: t.proxyTls.rootCertPem },
    ledgerTlsServerNameOverride: { value: t.proxyTls.serverName },
    ledgerChannel: { value: t.ledger.channel },
    ledgerChaincode: { value: t.ledger.chaincode },
    ledgerFunction: { value: s.fn },
    ledgerArgs: { value: JSON.stringify(s.args) },
    ledgerMspId: { value: (s.identity ?? t.identity).mspId },
    ledgerCertificatePem: { value: (s.identity ?? t.identity).certificatePem },
    ...signerConfigOf(s.identity ?? t.identity),
    ledgerTrustedRootCertificates: { value: JSON.stringify(t.ledger.caCertificates) },
    ...(s.transientNote === undefined
      ? {}
      : { ledgerTransientData: { value: JSON.stringify({ note: s.transientNote }), secret: true } }),
    ...(s.previewEndorse === undefined ? {} : { ledgerPreviewEndorse: { value: String(s.previewEndorse) } }),
    ...(s.allowInvalid === undefined ? {} : { ledgerAllowInvalid: { value: String(s.allowInvalid) } }),
    ...(s.onDestroy === undefined ? {} : { ledgerOnDestroy: { value: JSON.stringify(s.onDestroy) } }),
    ...(s.channelCapability === undefined ? {} : { ledgerChannelCapability: { value: s.channelCapability } }),
    ...s.gateway,
  };
}

/**
 * A new stack of examples/ledger for `t`, or of its YAML twin through the plugin (`face`, test/helpers/
 * faces.ts). Its name is random: the txId derives from the URN, so a stack name used before on a long-lived
 * network would find that run's transactions.
 */
export async function componentStack(
  t: ComponentTarget,
  s: TransactionSettings,
  face: Face = TYPESCRIPT,
): Promise<ProjectStack> {
  return initProjectStack({
    projectDir: await projectOf(face, "ledger"),
    stackName: `c${crypto.randomBytes(5).toString("hex")}`,
    config: ledgerProgramConfig(face.key, ledgerConfig(t, s)),
    env: {
      ...faceEnv(face),
      ...(s.identity !== undefined && "signerConfig" in s.identity ? s.identity.env : undefined),
    },
  });
}

/** The txId of a proxied Submit call (gateway.SubmitRequest.transaction_id). */
export function submittedTxId(call: ProxiedCall): string {
  const request = call.requests[0];
  if (request === undefined) throw new Error(`${call.path} carried no request message`);
  return gatewayProtos.SubmitRequest.deserializeBinary(request).getTransactionId();
}

/** The answer of a proxied CommitStatus call: the validation code and block. */
export function commitStatusOf(call: ProxiedCall): { code: number; block: number } {
  const response = call.responses[0];
  if (response === undefined) throw new Error(`${call.path} has no answer (grpc-status ${String(call.status)})`);
  const status = gatewayProtos.CommitStatusResponse.deserializeBinary(response);
  return { code: status.getResult(), block: status.getBlockNumber() };
}

/** The Submit calls among the proxy's calls from index `from` on. */
export function submits(proxy: GatewayProxy, from = 0): ProxiedCall[] {
  return proxy.calls.slice(from).filter((c) => c.path === GATEWAY.submit);
}

/**
 * Runs `command` and waits until `held` is reached; fails with the command's output if it ends first. Resolves with
 * the held call and the command's promise (still running: its provider waits for the held answer).
 */
export async function runUntilHeld<R extends CommandResult>(
  command: Promise<R>,
  held: HeldCall,
  what: string,
): Promise<{ call: ProxiedCall; command: Promise<R> }> {
  const ended = command.then((result) => {
    held.release(); // a hold left behind would catch a later test's call
    throw new Error(`the command ended (${String(result.code ?? result.signal)}) before ${what}:\n${result.output}`);
  });
  ended.catch(() => undefined); // once the call is reached, the command's end is the caller's business
  const call = await Promise.race([held.reached, ended]);
  return { call, command };
}

/** What runWithConcurrentWriter saw: the writer's two transactions and the component's submissions. */
export interface ConcurrentWrite<R extends CommandResult = CommandResult> {
  /** The command's result (it ran to its end): an up's carries its outputs. */
  readonly result: R;
  /** The writer's CreateAsset(key, "white"), before the command. */
  readonly created: string;
  /** The writer's UpdateAsset(key, "yellow"), committed while the component's endorsement waited at the proxy. */
  readonly concurrent: string;
  /** The txIds the component submitted during the command. */
  readonly submitted: string[];
}

/**
 * Makes a real read conflict: another organization's client (through its own gateway) creates `key` as "white";
 * `command` starts; once the component's endorsement (which read the key) has been answered, the proxy holds that
 * answer until the writer's UpdateAsset(key, "yellow") is committed; then the component goes on to sign and submit a
 * transaction whose read is out of date. No sleep: each step waits for the event before it.
 */
export async function runWithConcurrentWriter<R extends CommandResult>(
  t: ComponentTarget,
  key: string,
  command: () => Promise<R>,
): Promise<ConcurrentWrite<R>> {
  const writer = t.ledger.connectOurs({ mspId: t.ledger.organizations[1] ?? "" });
  const write = (fn: string, value: string) =>
    writer.submitTransaction({
      channelId: t.ledger.channel,
      chaincodeName: t.ledger.chaincode,
      functionName: fn,
      args: [key, value],
    });
  try {
    const created = await write("CreateAsset", "white");
    await t.reader.settled(Number(created.status.blockNumber)); // both peers endorse against the created key
    const held = t.proxy.hold(GATEWAY.endorse);
    const mark = t.proxy.calls.length;
    const running = await runUntilHeld(command(), held, "the component's endorsement");
    if (running.call.status !== 0)
      throw new Error(`the component's endorsement failed: ${String(running.call.message)}`);
    let concurrent;
    try {
      concurrent = await write("UpdateAsset", "yellow");
    } finally {
      held.release();
    }
    const result = await running.command;
    const submitted = submits(t.proxy, mark).map(submittedTxId);
    return { result, created: created.transactionId, concurrent: concurrent.transactionId, submitted };
  } finally {
    writer.close();
  }
}
