/**
 * The ledger's input shapes are declared once (provider/resources/ledger/ledger-shapes.ts); the SDK's `*Args` are mapped from
 * them (sdk/ledger/inputs.ts). The types are checked when this file compiles (`npm run lint` runs tsc: a
 * `@ts-expect-error` that no longer finds its error fails it); the secrets the SDK wraps are checked against the
 * fields the schema marks secret, which come from the shapes' `@secret` tags.
 */
import { strict as assert } from "node:assert";
import * as pulumi from "@pulumi/pulumi";
import { SCHEMA } from "../../../provider/schema/schema";
import type {
  LedgerGateway,
  LedgerIdentity,
  LedgerReadShape,
  LedgerTransactionShape,
  LedgerTransactionsShape,
} from "../../../provider/resources/ledger/ledger-shapes";
import type * as ledger from "../../../sdk/ledger";
import { gatewayInputs, identityInputs } from "../../../sdk/ledger/ledger-transaction";

/** True when A and B have the same keys and each key's optionality is the same. */
type SameKeys<A, B> = [keyof A] extends [keyof B]
  ? [keyof B] extends [keyof A]
    ? {
        [K in keyof A]-?: (Partial<Pick<A, K>> extends Pick<A, K> ? 1 : 0) extends (
          Partial<Pick<B, K & keyof B>> extends Pick<B, K & keyof B> ? 1 : 0
        )
          ? 1
          : 0;
      }[keyof A] extends 1
      ? true
      : false
    : false
  : false;

const sameKeys: [
  SameKeys<ledger.LedgerGatewayArgs, LedgerGateway>,
  SameKeys<ledger.LedgerIdentityArgs, LedgerIdentity>,
  SameKeys<ledger.LedgerTransactionArgs, LedgerTransactionShape>,
  SameKeys<ledger.LedgerTransactionsArgs, LedgerTransactionsShape>,
  SameKeys<ledger.LedgerReadArgs, LedgerReadShape>,
] = [true, true, true, true, true];

function secretFields(token: string): string[] {
  const types = (SCHEMA as unknown as { types: Record<string, { properties: Record<string, { secret?: boolean }> }> })
    .types;
  const type = types[token];
  assert.ok(type !== undefined, token);
  return Object.entries(type.properties)
    .filter(([, p]) => p.secret === true)
    .map(([k]) => k);
}

async function isSecretOutput(value: unknown): Promise<boolean> {
  return pulumi.Output.isInstance(value) && (await pulumi.isSecret(value));
}

describe("the ledger's inputs in the TypeScript SDK (mapped from ledger-shapes.ts)", () => {
  it("take every field of the one declaration, as Inputs at any depth, and nothing else", () => {
    assert.deepEqual(sameKeys, [true, true, true, true, true]);
    const later = pulumi.output("127.0.0.1:7051");
    const gateway: ledger.LedgerGatewayArgs = { address: later, supportsVisibility: pulumi.output(["full" as const]) };
    const identity: ledger.LedgerIdentityArgs = {
      mspId: "Org1MSP",
      certificatePem: pulumi.output("cert"),
      pkcs11: { library: "/lib.so", tokenLabel: pulumi.output("token"), pinEnv: "PIN" },
      kms: pulumi.output({ cryptoKeyVersion: "projects/p/locations/l/keyRings/r/cryptoKeys/k/cryptoKeyVersions/1" }),
    };
    const args: ledger.LedgerTransactionArgs = {
      gateway,
      identity,
      channel: "mychannel",
      chaincode: "basic",
      function: "CreateAsset",
      args: [pulumi.output("asset1"), { base64: "AA==" }],
      trustedRootCertificates: { Org1MSP: pulumi.output("pem") },
      channelCapability: pulumi.output<"V2_0" | "V3_0">("V3_0"),
      onDestroy: { function: "DeleteAsset", args: pulumi.output(["asset1"]) },
      timeouts: { create: pulumi.output("2m") },
    };
    // @ts-expect-error a field the shape does not declare
    const unknownField: ledger.LedgerGatewayArgs = { address: "127.0.0.1:7051", tlsRoot: "pem" };
    // @ts-expect-error a field of the wrong type
    const wrongType: ledger.LedgerKmsArgs = { cryptoKeyVersion: 7 };
    // @ts-expect-error a required field left out
    const missing: ledger.LedgerIdentityArgs = { mspId: "Org1MSP" };
    assert.equal(args.gateway, gateway);
    // (At run time they are the objects written: the refusals above are the compiler's.)
    assert.deepEqual(
      [unknownField, wrongType, missing],
      [{ address: "127.0.0.1:7051", tlsRoot: "pem" }, { cryptoKeyVersion: 7 }, { mspId: "Org1MSP" }],
    );
  });

  it("wrap as a Pulumi secret every gateway and identity field the shapes tag @secret, given in plain", async () => {
    const gatewaySecrets = secretFields("opsledger:ledger:LedgerGateway");
    const identitySecrets = secretFields("opsledger:ledger:LedgerIdentity");
    const pkcs11Secrets = secretFields("opsledger:ledger:LedgerPkcs11");
    assert.deepEqual([gatewaySecrets, identitySecrets, pkcs11Secrets], [["clientKeyPem"], ["privateKeyPem"], ["pin"]]);
    const gateway = gatewayInputs({ address: "127.0.0.1:7051", clientCertPem: "cert", clientKeyPem: "key" });
    for (const field of gatewaySecrets) assert.equal(await isSecretOutput(gateway[field]), true, field);
    assert.equal(await isSecretOutput(gateway["clientCertPem"]), false);
    const identity = identityInputs({
      mspId: "Org1MSP",
      certificatePem: "cert",
      privateKeyPem: "key",
      pkcs11: { library: "/lib.so", tokenLabel: "token", pin: "1234" },
    });
    for (const field of identitySecrets) assert.equal(await isSecretOutput(identity[field]), true, field);
    const pkcs11 = identity["pkcs11"] as Record<string, unknown>;
    for (const field of pkcs11Secrets) assert.equal(await isSecretOutput(pkcs11[field]), true, `pkcs11.${field}`);
    assert.equal(await isSecretOutput(identity["certificatePem"]), false);
  });
});
