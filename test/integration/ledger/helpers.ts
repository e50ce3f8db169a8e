/**
 * Shared set-up for the gateway-client integration tests: our client (provider/ledger) connected to an in-process
 * Fabric sandbox, the sandbox's MSP roots as trust anchors, and small assertion helpers.
 */
import { strict as assert } from "node:assert";
import { type TrustedMsp } from "../../../provider/ledger/cert-chain";
import { connect, type ConnectOptions, type Gateway } from "../../../provider/ledger/gateway-client";
import { newIdentity } from "../../../provider/ledger/identity";
import { newPrivateKeySigner } from "../../../provider/ledger/signing";
import { unwrap, type UnwrappedTransaction } from "../../../provider/ledger/unwrap";
import type { FabricSandbox, SandboxIdentity } from "../../../sandbox/fabric";

/** Every organization's root CA of the sandbox, as verify-before-sign trust anchors. */
export function trustedMspsOf(sandbox: FabricSandbox): TrustedMsp[] {
  return Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] }));
}

/** Our gateway client connected to `sandbox` as `identity` (insecure loopback unless `overrides` say otherwise). */
export function connectOurs(
  sandbox: FabricSandbox,
  identity: SandboxIdentity,
  overrides: Partial<Omit<ConnectOptions, "identity">> = {},
): Gateway {
  return connect({
    address: sandbox.address,
    identity: newIdentity(identity.mspId, identity.certificatePem),
    signer: newPrivateKeySigner(identity.privateKeyPem),
    trustedMsps: trustedMspsOf(sandbox),
    supportedVisibility: ["full", "hash", "nothing"],
    ...overrides,
  });
}

/** Resolves with what `promise` rejects with; fails the test when it resolves. */
export async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => assert.fail("expected the call to fail"),
    (e: unknown) => e,
  );
}

export function text(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("utf8");
}

/** The stored transaction `index` of block `blockNumber`, decoded with our codec. */
export function committed(sandbox: FabricSandbox, blockNumber: number, index = 0): UnwrappedTransaction {
  const transaction = sandbox.blocks()[blockNumber]?.transactions[index];
  assert.ok(transaction !== undefined, `block ${String(blockNumber)} has a transaction ${String(index)}`);
  return unwrap(transaction.envelope);
}

/** [txId, codeName] of every transaction on the ledger, in block order. */
export function ledgerCodes(sandbox: FabricSandbox): [string, string][] {
  return sandbox.blocks().flatMap((b) => b.transactions.map((t): [string, string] => [t.txId, t.codeName]));
}
