/**
 * A Fabric sandbox as plain JSON (FabricSandbox.snapshot) and back (the `restore` option of startFabricSandbox):
 * its settings and port, its organizations' CA and peer keys, its TLS server certificate and key, and every
 * transaction of its ledger. A restored sandbox commits the recorded envelopes again, block by block, through its
 * own committer (which validates them against the restored CAs as it did the first time) and checks that it reaches
 * the recorded validation codes and the recorded last block hash: the same ledger, or an error.
 */
import { createPrivateKey, createPublicKey, X509Certificate } from "node:crypto";
import { keyIdOf, privateKeyPem, sandboxKeyTypeOf, type KeyedCertificate, type SandboxKeyType } from "./certificates";
import type { Committer } from "./committer";
import { FabricSandboxError } from "./fabric-sandbox-error";
import type { Ledger } from "./ledger";
import { serializeIdentity, type Organization } from "./msp";
import type { EndorsementRule } from "./endorsement-policy";

/** The snapshot's format; a restore refuses any other. */
export const FABRIC_SNAPSHOT_FORMAT = "opsledger-fabric-sandbox/1";

/** A PEM certificate and its PKCS#8 PEM private key. */
export interface KeyPairPem {
  readonly certificatePem: string;
  readonly privateKeyPem: string;
}

export interface FabricSandboxSnapshot {
  readonly format: typeof FABRIC_SNAPSHOT_FORMAT;
  readonly port: number;
  readonly channel: string;
  readonly chaincode: string;
  readonly endorsementPolicy: EndorsementRule;
  readonly channelCapability: "V2_0" | "V3_0";
  /** In organization order (the first is the gateway's own): the root CA and the endorsing peer. */
  readonly organizations: readonly { readonly mspId: string; readonly ca: KeyPairPem; readonly peer: KeyPairPem }[];
  /** The TLS root and the server's certificate and key (absent without `tls`). */
  readonly tls?: { readonly rootCertPem: string; readonly server: KeyPairPem };
  /** Every block after the genesis block: its transactions' envelopes (base64) and validation codes. */
  readonly blocks: readonly { readonly transactions: readonly { envelope: string; code: number }[] }[];
  /** Hex SHA-256 of the last block's header: what the restored chain must end with. */
  readonly lastBlockHash: string;
  /**
   * Whether the genesis block's Application group holds the Endorsement and LifecycleEndorsement policies (every
   * snapshot since the sandbox answers _lifecycle); absent in older ones, whose genesis block had no policies.
   */
  readonly endorsementPolicies?: boolean;
}

/** What the sandbox holds that a snapshot records. */
export interface SnapshotSource {
  readonly port: number;
  readonly channel: string;
  readonly chaincode: string;
  readonly endorsementPolicy: EndorsementRule;
  readonly channelCapability: "V2_0" | "V3_0";
  readonly organizations: readonly Organization[];
  readonly tls?: { readonly rootCertPem: string; readonly server: KeyPairPem };
  readonly ledger: Ledger;
  /** Whether its genesis block holds the Application group's endorsement policies. */
  readonly endorsementPolicies: boolean;
}

const pair = (c: KeyedCertificate): KeyPairPem => ({
  certificatePem: c.certificatePem,
  privateKeyPem: privateKeyPem(c.privateKey),
});

export function takeSnapshot(s: SnapshotSource): FabricSandboxSnapshot {
  const last = s.ledger.blocks.at(-1);
  return {
    format: FABRIC_SNAPSHOT_FORMAT,
    port: s.port,
    channel: s.channel,
    chaincode: s.chaincode,
    endorsementPolicy: s.endorsementPolicy,
    channelCapability: s.channelCapability,
    organizations: s.organizations.map((o) => ({ mspId: o.mspId, ca: pair(o.ca), peer: pair(o.peer.certificate) })),
    ...(s.tls === undefined ? {} : { tls: s.tls }),
    blocks: s.ledger.blocks.slice(1).map((b) => ({
      transactions: b.transactions.map((t) => ({ envelope: t.envelope.toString("base64"), code: t.code })),
    })),
    lastBlockHash: last?.headerHash.toString("hex") ?? "",
    endorsementPolicies: s.endorsementPolicies,
  };
}

function keyed(p: KeyPairPem, subject: KeyedCertificate["subject"]): KeyedCertificate {
  const x509 = new X509Certificate(p.certificatePem);
  const publicKey = createPublicKey(p.certificatePem);
  return {
    certificatePem: p.certificatePem,
    certificateDer: x509.raw,
    privateKey: createPrivateKey(p.privateKeyPem),
    publicKey,
    subject,
    keyId: keyIdOf(publicKey),
  };
}

/** The organizations as recorded (the same names createOrganization gives them). */
export function restoredOrganizations(snapshot: FabricSandboxSnapshot): Organization[] {
  return snapshot.organizations.map(({ mspId, ca, peer }) => {
    const domain = mspId.toLowerCase();
    const commonName = `peer0.${domain}`;
    const peerCertificate = keyed(peer, { commonName, organization: mspId, organizationalUnit: "peer" });
    return {
      mspId,
      ca: keyed(ca, { commonName: `ca.${domain}`, organization: mspId }),
      peer: {
        mspId,
        role: "peer",
        commonName,
        certificate: peerCertificate,
        serialized: serializeIdentity(mspId, peerCertificate.certificatePem),
      },
      peerAddress: `${commonName}:7051`,
    };
  });
}

/** The key type of each organization's CA, by MSP id. */
export function restoredKeyTypes(organizations: readonly Organization[]): Record<string, SandboxKeyType> {
  const types: Record<string, SandboxKeyType> = {};
  for (const o of organizations) types[o.mspId] = sandboxKeyTypeOf(o.ca.publicKey) ?? "ecdsa-p256";
  return types;
}

/** Checks the snapshot's shape (it comes from a JSON file) before anything starts; names the field and the fix. */
export function checkSnapshot(snapshot: FabricSandboxSnapshot): void {
  const fields = snapshot as unknown as Readonly<Record<string, unknown>>;
  const problem = (message: string): never => {
    throw new FabricSandboxError({ operation: "startFabricSandbox", message: `restore: ${message}` });
  };
  const { format, port, organizations, blocks } = fields;
  if (format !== FABRIC_SNAPSHOT_FORMAT) {
    problem(`format must be ${FABRIC_SNAPSHOT_FORMAT} (a FabricSandbox.snapshot()), got ${JSON.stringify(format)}`);
  }
  if (typeof port !== "number" || !Number.isInteger(port) || port < 1 || port > 65535) {
    problem("port must be 1-65535: the port the snapshot's sandbox served on");
  }
  if (!Array.isArray(organizations) || organizations.length === 0) {
    problem("organizations must hold at least one organization");
  }
  if (!Array.isArray(blocks)) problem("blocks must be a list (empty for a ledger with the genesis block only)");
}

/** Commits the snapshot's blocks again and checks that they come out as recorded. */
export async function replayBlocks(
  snapshot: FabricSandboxSnapshot,
  committer: Committer,
  ledger: Ledger,
): Promise<void> {
  for (const [i, block] of snapshot.blocks.entries()) {
    const outcomes = await committer.commitBlock(block.transactions.map((t) => Buffer.from(t.envelope, "base64")));
    const codes = outcomes.map((o) => o.code);
    const recorded = block.transactions.map((t) => t.code);
    if (codes.join() !== recorded.join()) {
      throw new FabricSandboxError({
        operation: "startFabricSandbox",
        message: `restore: block ${String(i + 1)} validated as [${codes.join(", ")}], recorded [${recorded.join(", ")}]`,
      });
    }
  }
  const hash = ledger.blocks.at(-1)?.headerHash.toString("hex") ?? "";
  if (hash !== snapshot.lastBlockHash) {
    throw new FabricSandboxError({
      operation: "startFabricSandbox",
      message: `restore: the replayed chain ends with block hash ${hash}, the snapshot's is ${snapshot.lastBlockHash}`,
    });
  }
}
