/**
 * startFabricSandbox: organizations with their CAs and endorsing peers, the channel ledger and committer, the
 * gateway gRPC service and the front proxy that serves it on 127.0.0.1 (see README.md).
 */
import { createPublicKey } from "node:crypto";
import { assetChaincode } from "./chaincode";
import {
  certifyPublicKey,
  createRootCa,
  issueCertificate,
  privateKeyPem,
  SANDBOX_KEY_TYPES,
  type SandboxKeyType,
} from "./certificates";
import type { ChannelConfig } from "./channel-config";
import { Committer } from "./committer";
import { FabricSandboxError } from "./fabric-sandbox-error";
import { FrontProxy } from "./front-proxy";
import type { Faults, GatewayContext } from "./gateway-context";
import { startGatewayServer } from "./gateway-service";
import { configEnvelope } from "./config-block";
import { Ledger } from "./ledger";
import { createOrganization, enrol, MembershipServices, type NodeRole, type Organization } from "./msp";
import { LifecycleStore, seedBuiltinChaincode } from "./lifecycle-store";
import { EndorsingPeer, VISIBILITY_MODES } from "./peer";
import { checkSnapshot, replayBlocks, restoredKeyTypes, restoredOrganizations, takeSnapshot } from "./snapshot";
import { TAMPER_MODES } from "./prepared-transaction";
import {
  DEFAULT_COMMIT_DELAY_MS,
  DEFAULT_ENDORSEMENT_POLICY,
  DEFAULT_FABRIC_CHAINCODE,
  DEFAULT_FABRIC_CHANNEL,
  DEFAULT_FABRIC_ORGANIZATIONS,
  DEFAULT_SUPPORTED_VISIBILITY,
  type CommitRawResult,
  type FabricSandbox,
  type FabricSandboxFaults,
  type FabricSandboxOptions,
  type SandboxBlock,
  type SandboxIdentity,
  type SandboxStateEntry,
} from "./types";
import { validationCodeName } from "./validation-codes";
import { tryDecode } from "./wire";

interface ResolvedOptions {
  readonly port: number;
  readonly organizations: readonly string[];
  readonly channel: string;
  readonly chaincode: string;
  readonly endorsementPolicy: NonNullable<FabricSandboxOptions["endorsementPolicy"]>;
  readonly commitDelayMs: number;
  readonly supportsVisibility: NonNullable<FabricSandboxOptions["supportsVisibility"]>;
  readonly tls: boolean;
  readonly sleep: (ms: number) => Promise<void>;
  readonly organizationKeyTypes: Readonly<Record<string, SandboxKeyType>>;
  readonly channelCapability: "V2_0" | "V3_0";
}

function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The options a snapshot holds; with `restore` they come from it. */
const RESTORED_OPTIONS = [
  "port",
  "organizations",
  "channel",
  "chaincode",
  "endorsementPolicy",
  "tls",
  "organizationKeyTypes",
  "channelCapability",
] as const;

/** `options` with the settings of its `restore` snapshot (checked first). */
function withSnapshot(options: FabricSandboxOptions): FabricSandboxOptions {
  const snapshot = options.restore;
  if (snapshot === undefined) return options;
  const given = RESTORED_OPTIONS.filter((k) => options[k] !== undefined);
  if (given.length > 0) {
    throw new FabricSandboxError({
      operation: "startFabricSandbox",
      message: `restore: ${given.join(", ")} come from the snapshot; leave them out`,
    });
  }
  checkSnapshot(snapshot);
  const organizations = restoredOrganizations(snapshot);
  return {
    ...options,
    port: snapshot.port,
    organizations: organizations.map((o) => o.mspId),
    channel: snapshot.channel,
    chaincode: snapshot.chaincode,
    endorsementPolicy: snapshot.endorsementPolicy,
    tls: snapshot.tls !== undefined,
    organizationKeyTypes: restoredKeyTypes(organizations),
    channelCapability: snapshot.channelCapability,
  };
}

/** Applies the defaults (in this one place) and checks the options. */
function resolveOptions(options: FabricSandboxOptions): ResolvedOptions {
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    organizations: [...(options.organizations ?? DEFAULT_FABRIC_ORGANIZATIONS)],
    channel: options.channel ?? DEFAULT_FABRIC_CHANNEL,
    chaincode: options.chaincode ?? DEFAULT_FABRIC_CHAINCODE,
    endorsementPolicy: options.endorsementPolicy ?? DEFAULT_ENDORSEMENT_POLICY,
    commitDelayMs: options.commitDelayMs ?? DEFAULT_COMMIT_DELAY_MS,
    supportsVisibility: [...(options.supportsVisibility ?? DEFAULT_SUPPORTED_VISIBILITY)],
    tls: options.tls ?? false,
    sleep: options.sleep ?? defaultSleep,
    organizationKeyTypes: { ...(options.organizationKeyTypes ?? {}) },
    channelCapability: options.channelCapability ?? "V2_0",
  };
  const problems: string[] = [];
  if (resolved.organizations.length === 0) problems.push("organizations must name at least one MSP id");
  if (new Set(resolved.organizations).size !== resolved.organizations.length)
    problems.push("organizations must be distinct");
  if (resolved.channel === "" || resolved.chaincode === "") problems.push("channel and chaincode must be non-empty");
  if (resolved.chaincode === "qscc") problems.push("chaincode must not be named qscc (a system chaincode)");
  if (!Number.isInteger(resolved.port) || resolved.port < 0 || resolved.port > 65535)
    problems.push("port must be 0-65535");
  if (!(resolved.commitDelayMs >= 0)) problems.push("commitDelayMs must be >= 0");
  if (resolved.supportsVisibility.some((v) => !VISIBILITY_MODES.includes(v))) {
    problems.push(`supportsVisibility may contain only ${VISIBILITY_MODES.join(", ")}`);
  }
  for (const [mspId, keyType] of Object.entries(resolved.organizationKeyTypes)) {
    if (!resolved.organizations.includes(mspId)) problems.push(`organizationKeyTypes names an unknown MSP ${mspId}`);
    if (!SANDBOX_KEY_TYPES.includes(keyType)) {
      problems.push(`organizationKeyTypes.${mspId} must be one of ${SANDBOX_KEY_TYPES.join(", ")}`);
    }
  }
  if (!["V2_0", "V3_0"].includes(resolved.channelCapability)) problems.push("channelCapability must be V2_0 or V3_0");
  if (problems.length > 0)
    throw new FabricSandboxError({ operation: "startFabricSandbox", message: problems.join("; ") });
  return resolved;
}

export async function startFabricSandbox(options: FabricSandboxOptions = {}): Promise<FabricSandbox> {
  const opts = resolveOptions(withSnapshot(options));
  const restore = options.restore;
  const organizations =
    restore === undefined
      ? opts.organizations.map((mspId) => createOrganization(mspId, opts.organizationKeyTypes[mspId] ?? "ecdsa-p256"))
      : restoredOrganizations(restore);
  const msp = new MembershipServices(organizations, undefined, opts.channelCapability === "V3_0");
  const lifecycle = new LifecycleStore();
  const config: ChannelConfig = {
    channel: opts.channel,
    chaincode: assetChaincode(opts.chaincode),
    policy: { rule: opts.endorsementPolicy, organizations: opts.organizations },
    msp,
    lifecycle,
  };
  seedBuiltinChaincode(lifecycle, opts.organizations, opts.chaincode);
  const capabilities = { channel: [opts.channelCapability], application: ["V2_5"], orderer: ["V2_0"] };
  // A snapshot older than the policies in the genesis block replays onto the genesis block it was taken with.
  const endorsementPolicies = restore === undefined || restore.endorsementPolicies === true;
  const ledger = new Ledger(
    opts.channel,
    opts.chaincode,
    configEnvelope(
      opts.channel,
      opts.organizations,
      capabilities,
      endorsementPolicies ? opts.endorsementPolicy : undefined,
    ),
  );
  const committer = new Committer(config, ledger);
  if (restore !== undefined) await replayBlocks(restore, committer, ledger);
  const peers = organizations.map((o) => new EndorsingPeer(o, config, ledger));

  const initialFaults: Faults = {
    failEndorsementFor: new Set(),
    commitDelayMs: opts.commitDelayMs,
    tamperPreparedTransaction: "none",
  };
  let faults = initialFaults;
  let dropsPending = 0;

  const organization = (operation: string, mspId: string): Organization => {
    const org = msp.organization(mspId);
    if (org === undefined) {
      throw new FabricSandboxError({
        operation,
        message: `unknown organization ${mspId}; the sandbox has ${opts.organizations.join(", ")}`,
      });
    }
    return org;
  };
  const counters = new Map<string, number>();
  const newIdentity = (operation: string, role: NodeRole, mspId: string, name: string | undefined): SandboxIdentity => {
    const org = organization(operation, mspId);
    const n = (counters.get(`${role}/${mspId}`) ?? 0) + 1;
    counters.set(`${role}/${mspId}`, n);
    const domain = mspId.toLowerCase();
    const user = role === "admin" ? "Admin" : "User";
    const commonName =
      name ?? (role === "client" || role === "admin" ? `${user}${n}@${domain}` : `${role}${n}.${domain}`);
    const identity = enrol(org.ca, mspId, role, commonName);
    return {
      mspId,
      certificatePem: identity.certificate.certificatePem,
      privateKeyPem: privateKeyPem(identity.certificate.privateKey),
    };
  };
  const impostors = new Map<string, Buffer>();
  const otherCreator = (creator: Buffer): Buffer => {
    const mspId = tryDecode("msp.SerializedIdentity", creator)?.mspid ?? "";
    const org = msp.organization(mspId) ?? organizations[0];
    if (org === undefined) return creator;
    let impostor = impostors.get(org.mspId);
    if (impostor === undefined) {
      impostor = enrol(org.ca, org.mspId, "client", `impostor@${org.mspId.toLowerCase()}`).serialized;
      impostors.set(org.mspId, impostor);
    }
    return impostor;
  };

  const evaluations: { chaincode: string; fn: string }[] = [];
  const ctx: GatewayContext = {
    config,
    ledger,
    committer,
    peers,
    supportsVisibility: opts.supportsVisibility,
    faults: () => faults,
    sleep: opts.sleep,
    otherCreator,
    onEvaluate: (chaincode, fn) => {
      evaluations.push({ chaincode, fn });
    },
  };
  const { server, port: internalPort } = await startGatewayServer(ctx);
  let tlsRootCertPem: string | undefined;
  let tlsMaterial: { keyPem: string; certificatePem: string } | undefined;
  if (restore?.tls !== undefined) {
    tlsRootCertPem = restore.tls.rootCertPem;
    tlsMaterial = { keyPem: restore.tls.server.privateKeyPem, certificatePem: restore.tls.server.certificatePem };
  } else if (opts.tls) {
    const tlsCa = createRootCa({ commonName: "tlsca.sandbox", organization: "OpsLedger Fabric sandbox" });
    const serverCert = issueCertificate(tlsCa, {
      subject: { commonName: "localhost", organization: "OpsLedger Fabric sandbox" },
      dnsNames: ["localhost"],
      ipAddresses: ["127.0.0.1"],
    });
    tlsRootCertPem = tlsCa.certificatePem;
    tlsMaterial = { keyPem: privateKeyPem(serverCert.privateKey), certificatePem: serverCert.certificatePem };
  }
  let proxy: FrontProxy;
  try {
    proxy = await FrontProxy.listen({
      port: opts.port,
      upstreamPort: internalPort,
      ...(tlsMaterial === undefined ? {} : { tls: tlsMaterial }),
      shouldDrop: () => {
        if (dropsPending <= 0) return false;
        dropsPending--;
        return true;
      },
    });
  } catch (err) {
    server.forceShutdown();
    if (restore !== undefined && (err as { code?: unknown }).code === "EADDRINUSE") {
      throw new FabricSandboxError({
        operation: "startFabricSandbox",
        message: `restore: port ${String(opts.port)} of 127.0.0.1 is taken; the snapshot's gateway address is 127.0.0.1:${String(opts.port)}, free that port`,
      });
    }
    throw err;
  }

  const caCertificates = Object.fromEntries(organizations.map((o) => [o.mspId, o.ca.certificatePem]));
  let closed = false;
  return {
    address: `127.0.0.1:${proxy.port}`,
    channel: opts.channel,
    chaincode: opts.chaincode,
    tlsRootCertPem,
    caCertificates,
    newClientIdentity: (mspId, name) => newIdentity("newClientIdentity", "client", mspId, name),
    newPeerIdentity: (mspId, name) => newIdentity("newPeerIdentity", "peer", mspId, name),
    newAdminIdentity: (mspId, name) => newIdentity("newAdminIdentity", "admin", mspId, name),
    newOrdererIdentity: (mspId, name) => newIdentity("newOrdererIdentity", "orderer", mspId, name),
    enrollPublicKey: (mspId, publicKeyPem, name) => {
      const org = organization("enrollPublicKey", mspId);
      const commonName = name ?? `User@${mspId.toLowerCase()}`;
      const subject = { commonName, organization: mspId, organizationalUnit: "client" };
      const { certificatePem } = certifyPublicKey(org.ca, createPublicKey(publicKeyPem), { subject });
      return { mspId, certificatePem };
    },
    blocks: (): SandboxBlock[] =>
      ledger.blocks.map((b) => ({
        number: b.number,
        bytes: b.bytes,
        transactions: b.transactions.map((t) => ({
          txId: t.txId,
          code: t.code,
          codeName: validationCodeName(t.code),
          reason: t.reason,
          envelope: t.envelope,
        })),
      })),
    worldState: (): Map<string, SandboxStateEntry> => ledger.state.snapshot(opts.chaincode),
    snapshot: () =>
      takeSnapshot({
        port: proxy.port,
        channel: opts.channel,
        chaincode: opts.chaincode,
        endorsementPolicy: opts.endorsementPolicy,
        channelCapability: opts.channelCapability,
        endorsementPolicies,
        organizations,
        ...(tlsRootCertPem === undefined || tlsMaterial === undefined
          ? {}
          : {
              tls: {
                rootCertPem: tlsRootCertPem,
                server: { certificatePem: tlsMaterial.certificatePem, privateKeyPem: tlsMaterial.keyPem },
              },
            }),
        ledger,
      }),
    evaluations: () => [...evaluations],
    transactionCount: () => ledger.blocks.reduce((n, b) => n + b.transactions.length, 0),
    setFaults: (f: FabricSandboxFaults) => {
      for (const org of f.failEndorsementFor ?? []) organization("setFaults", org);
      if (f.tamperPreparedTransaction !== undefined && !TAMPER_MODES.includes(f.tamperPreparedTransaction)) {
        throw new FabricSandboxError({
          operation: "setFaults",
          message: `unknown tamper mode ${f.tamperPreparedTransaction}`,
        });
      }
      if (f.commitDelayMs !== undefined && !(f.commitDelayMs >= 0)) {
        throw new FabricSandboxError({ operation: "setFaults", message: "commitDelayMs must be >= 0" });
      }
      if (f.dropConnections !== undefined && !(Number.isInteger(f.dropConnections) && f.dropConnections >= 0)) {
        throw new FabricSandboxError({ operation: "setFaults", message: "dropConnections must be an integer >= 0" });
      }
      faults = {
        failEndorsementFor:
          f.failEndorsementFor === undefined ? faults.failEndorsementFor : new Set(f.failEndorsementFor),
        commitDelayMs: f.commitDelayMs ?? faults.commitDelayMs,
        tamperPreparedTransaction: f.tamperPreparedTransaction ?? faults.tamperPreparedTransaction,
      };
      if (f.dropConnections !== undefined) dropsPending = f.dropConnections;
    },
    commitRaw: async (envelope: Uint8Array): Promise<CommitRawResult> => {
      const [outcome] = await committer.commitBlock([envelope]);
      if (outcome === undefined) throw new FabricSandboxError({ operation: "commitRaw", message: "no outcome" });
      return { ...outcome, codeName: validationCodeName(outcome.code) };
    },
    reset: () => {
      ledger.reset();
      lifecycle.clear();
      seedBuiltinChaincode(lifecycle, opts.organizations, opts.chaincode);
      faults = initialFaults;
      dropsPending = 0;
    },
    close: async () => {
      if (closed) return;
      closed = true;
      await proxy.close();
      server.forceShutdown();
    },
  };
}
