/**
 * `npm run bench -- submit --real`: end-to-end submissions per second through a real Fabric network
 * (sandbox/fabric-network, started here): our gateway client (Endorse → verify-before-sign → sign → Submit →
 * CommitStatus) against the official @hyperledger/fabric-gateway client (no verification), both through Org1's
 * gateway peer as Org1's client identity, over TLS, the same blind PutAsset of a fresh key (no MVCC conflicts) at the
 * same concurrency. Rounds alternate which side goes first, and the best of each side counts; the client process's CPU time per
 * transaction is measured too (the network's processes share the machine, so the CPU time is what the client itself
 * costs). Then the time of one ledger.LedgerTransaction `pulumi up` (examples/ledger, the plain CLI, a fresh stack
 * each run) against the same network, next to the same transaction submitted by a script with our client.
 */
import { createPrivateKey } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as official from "@hyperledger/fabric-gateway";
import { startFabricNetwork, type FabricNetwork, type FabricVersion } from "../sandbox/fabric-network";
import { REPO_ROOT, initProjectStack } from "../scripts/lib/pulumi-cli";
import { ourOrg1Client } from "./ledger-client";

export interface RealSubmitBenchOptions {
  readonly version?: FabricVersion;
  /** Transactions per side and round. @default 200 */
  readonly transactions?: number;
  /**
   * Submissions in flight at once, on both sides. @default 20 (twice the network's 10 transactions per block, so
   * blocks are cut by count rather than after the 500 ms batch timeout)
   */
  readonly concurrency?: number;
  /** Runs of `pulumi up`. @default 3 */
  readonly pulumiRuns?: number;
}

export interface RealSubmitRow {
  readonly client: string;
  readonly submissionsPerSec: number;
  /** Client-process CPU milliseconds per transaction (user + system). */
  readonly cpuMsPerTx: number;
  readonly ratioVsOfficial: number;
}

export interface RealSubmitResult {
  readonly version: string;
  readonly concurrency: number;
  readonly transactions: number;
  readonly rows: readonly RealSubmitRow[];
  /** Wall time of `pulumi up` of one LedgerTransaction, per run. */
  readonly pulumiUpMs: readonly number[];
  /** The same transaction submitted by a script with our client (one at a time), per run. */
  readonly scriptMs: readonly number[];
}

const WARM_UP_TRANSACTIONS = 20;
const ROUNDS = 4;

interface Measured {
  readonly perSec: number;
  readonly cpuMsPerTx: number;
}

async function measure(total: number, concurrency: number, submit: () => Promise<unknown>): Promise<Measured> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) {
      next++;
      await submit();
    }
  };
  const cpu = process.cpuUsage();
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  const elapsed = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { perSec: (total * 1000) / elapsed, cpuMsPerTx: (used.user + used.system) / 1000 / total };
}

function officialClient(network: FabricNetwork): { gateway: official.Gateway; client: grpc.Client } {
  const org = network.organization("Org1MSP");
  const client = new grpc.Client(org.gatewayAddress, grpc.credentials.createSsl(Buffer.from(org.tlsRootCertPem)), {
    "grpc.ssl_target_name_override": org.tlsServerName,
  });
  const gateway = official.connect({
    client,
    identity: { mspId: org.client.mspId, credentials: Buffer.from(org.client.certificatePem) },
    signer: official.signers.newPrivateKeySigner(createPrivateKey(org.client.privateKeyPem)),
  });
  return { gateway, client };
}

/** `pulumi up` of examples/ledger (one LedgerTransaction) on a fresh stack; resolves to its wall time. */
async function pulumiUpOnce(network: FabricNetwork, key: string): Promise<number> {
  const org = network.organization("Org1MSP");
  const stack = await initProjectStack({
    projectDir: `${REPO_ROOT}/examples/ledger`,
    transpileOnly: true,
    config: {
      ledgerGateway: { value: org.gatewayAddress },
      ledgerTlsRootCertPem: { value: org.tlsRootCertPem },
      ledgerChannel: { value: network.channel },
      ledgerChaincode: { value: network.chaincode },
      ledgerFunction: { value: "PutAsset" },
      ledgerArgs: { value: JSON.stringify([key, "blue"]) },
      ledgerMspId: { value: org.client.mspId },
      ledgerCertificatePem: { value: org.client.certificatePem },
      ledgerPrivateKeyPem: { value: org.client.privateKeyPem, secret: true },
      ledgerTrustedRootCertificates: { value: JSON.stringify(network.caCertificates) },
    },
  });
  try {
    const started = performance.now();
    const up = await stack.up();
    const ms = performance.now() - started;
    if (up.outputs["ledgerValidationCode"] !== "VALID")
      throw new Error(`pulumi up committed ${String(up.outputs["ledgerValidationCode"])}`);
    return ms;
  } finally {
    await stack.dispose();
  }
}

export async function benchRealLedgerSubmit(options: RealSubmitBenchOptions = {}): Promise<RealSubmitResult> {
  const transactions = options.transactions ?? 200;
  const concurrency = options.concurrency ?? 20;
  const network = await startFabricNetwork({ version: options.version ?? "2.5.16" });
  const ours = ourOrg1Client(network);
  const theirs = officialClient(network);
  const contract = theirs.gateway.getNetwork(network.channel).getContract(network.chaincode);
  let sequence = 0;
  const key = (): string => `bench-real-${String(process.pid)}-${String(sequence++)}`;
  const viaOurs = async (): Promise<void> => {
    const { status } = await ours.submitTransaction({
      channelId: network.channel,
      chaincodeName: network.chaincode,
      functionName: "PutAsset",
      args: [key(), "blue"],
    });
    if (!status.successful) throw new Error(`our transaction committed ${status.codeName}`);
  };
  // submitTransaction of the official client throws CommitError unless the transaction is VALID.
  const viaOfficial = (): Promise<Uint8Array> => contract.submitTransaction("PutAsset", key(), "blue");
  try {
    await measure(WARM_UP_TRANSACTIONS, concurrency, viaOurs);
    await measure(WARM_UP_TRANSACTIONS, concurrency, viaOfficial);
    const best = { ours: { perSec: 0, cpuMsPerTx: Infinity }, official: { perSec: 0, cpuMsPerTx: Infinity } };
    const sides = [
      ["ours", viaOurs],
      ["official", viaOfficial],
    ] as const;
    for (let round = 0; round < ROUNDS; round++) {
      // Each side goes first in every other round: neither gets the emptier ledger or the calmer machine.
      for (const [side, submit] of round % 2 === 0 ? sides : [...sides].reverse()) {
        const m = await measure(transactions, concurrency, submit);
        best[side] = {
          perSec: Math.max(best[side].perSec, m.perSec),
          cpuMsPerTx: Math.min(best[side].cpuMsPerTx, m.cpuMsPerTx),
        };
      }
    }
    const pulumiUpMs: number[] = [];
    const scriptMs: number[] = [];
    for (let run = 0; run < (options.pulumiRuns ?? 3); run++) {
      const started = performance.now();
      await viaOurs();
      scriptMs.push(performance.now() - started);
      pulumiUpMs.push(await pulumiUpOnce(network, key()));
    }
    const round2 = (x: number): number => Math.round(x * 100) / 100;
    return {
      version: network.version,
      concurrency,
      transactions,
      rows: [
        {
          client: "pulumi-opsledger provider/ledger (verify-before-sign)",
          submissionsPerSec: round2(best.ours.perSec),
          cpuMsPerTx: round2(best.ours.cpuMsPerTx),
          ratioVsOfficial: round2(best.ours.perSec / best.official.perSec),
        },
        {
          client: "@hyperledger/fabric-gateway 1.12.1",
          submissionsPerSec: round2(best.official.perSec),
          cpuMsPerTx: round2(best.official.cpuMsPerTx),
          ratioVsOfficial: 1,
        },
      ],
      pulumiUpMs,
      scriptMs,
    };
  } finally {
    ours.close();
    theirs.gateway.close();
    theirs.client.close();
    await network.close();
  }
}
