import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { serializeIdentity } from "../../../provider/ledger/identity";
import { computeTxId } from "../../../provider/ledger/proposal";
import { dispatch } from "../../../provider/dynamic";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import {
  URN,
  UNKNOWN,
  TRANSIENT,
  org,
  member,
  other,
  inputs,
  checked,
  outputs,
  certificateOf,
  keyFile,
  keyFormsIn,
  useLedgerTransactionFixture,
} from "./ledger-transaction-fixture";
import { deriveTxId } from "../../../provider/resources/ledger/ledger-transaction-txid";
import type { LedgerTransactionOutputs } from "../../../provider/resources/ledger/ledger-transaction-inputs";

useLedgerTransactionFixture();

describe("LedgerTransaction check", () => {
  it("returns a failure for every bad input, each naming the fix, without throwing", async () => {
    const result = await ledgerTransactionProvider.check(
      {},
      inputs({
        gateway: { address: "peer0" },
        channel: "",
        args: ["ok", 7 as unknown as string, { base64: "%%%" }],
        identity: { mspId: " ", certificatePem: "not a certificate", privateKeyPem: "not a key" },
        visibility: "hash",
        trustedRootCertificates: {},
        allowInvalid: "yes" as unknown as boolean,
        timeouts: { create: "soon" },
      }),
    );
    assert.equal(result.inputs, undefined);
    assert.deepEqual(result.failures, [
      { property: "gateway.address", reason: "must be 'host:port' of the gateway peer, e.g. '127.0.0.1:7051'" },
      { property: "channel", reason: "is required: the channel name, e.g. 'mychannel'" },
      { property: "args[1]", reason: "must be a string (sent as UTF-8) or { base64: string } (bytes)" },
      { property: "args[2]", reason: "{ base64 } must hold standard base64 text (A-Z, a-z, 0-9, +, /, = padding)" },
      {
        property: "identity.mspId",
        reason: "must not be empty: the MSP id of the identity's organization, e.g. 'Org1MSP'",
      },
      {
        property: "identity.certificatePem",
        reason: "is not a PEM X.509 certificate; pass the enrolment certificate's PEM text",
      },
      { property: "identity.privateKeyPem", reason: "is not a parsable PEM private key (PKCS#8 or SEC1)" },
      {
        property: "visibility",
        reason:
          "'hash' requires a gateway that supports it: add it to gateway.supportsVisibility (real Fabric peers support only 'full')",
      },
      {
        property: "trustedRootCertificates",
        reason:
          "is required: a map of MSP id to root CA certificate PEM, used to verify every endorsement before signing",
      },
      { property: "allowInvalid", reason: "must be true or false" },
      { property: "timeouts.create", reason: `'soon' is not a duration; use a number with ms, s, m or h, e.g. "20m"` },
    ]);
  });

  it("rejects a private key that is not the certificate's, without echoing either", async () => {
    const result = await ledgerTransactionProvider.check(
      {},
      inputs({ identity: { ...inputs().identity, privateKeyPem: other.privateKeyPem } }),
    );
    assert.deepEqual(result.failures, [
      {
        property: "identity.privateKeyPem",
        reason: "does not match identity.certificatePem: use the private key of that certificate",
      },
    ]);
    assert.deepEqual(keyFormsIn(result, other.privateKeyPem), []);
  });

  it("requires tlsRootCertPem for a non-loopback gateway and both halves of a client certificate", async () => {
    const result = await ledgerTransactionProvider.check(
      {},
      inputs({ gateway: { address: "peer0.org1.example.com:7051", clientCertPem: org.caPem } }),
    );
    assert.deepEqual(result.failures, [
      {
        property: "gateway.tlsRootCertPem",
        reason:
          "is required for the non-loopback address 'peer0.org1.example.com:7051': the PEM of the CA that signed the gateway's TLS certificate",
      },
      {
        property: "gateway.clientCertPem",
        reason: "needs TLS: set gateway.tlsRootCertPem (the CA of the gateway's TLS certificate) for mutual TLS",
      },
      {
        property: "gateway.clientCertPem",
        reason:
          "needs the client TLS key (mutual TLS): set one of gateway.clientKeyFile (a PEM file's path), gateway.clientKeyEnv (an environment variable holding the PEM) or gateway.clientKeyPem (the key itself, as a Pulumi secret)",
      },
    ]);
  });

  it("derives txId from SHA-256(domain ‖ creator ‖ URN ‖ generation), no key involved, the same for a retry", async () => {
    const first = await checked({}, inputs());
    const retry = await checked({}, inputs());
    assert.equal(first.__generation, 1);
    assert.equal(retry.txId, first.txId);
    const creator = serializeIdentity(member.identity);
    const u32 = (n: number): Buffer => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
    const nonce = crypto
      .createHash("sha256")
      .update("pulumi-opsledger/ledger-nonce/v2")
      .update(Buffer.concat([u32(creator.length), creator, u32(Buffer.byteLength(URN)), Buffer.from(URN)]))
      .update(Buffer.from([0, 0, 0, 0, 0, 0, 0, 1]))
      .digest()
      .subarray(0, 24);
    assert.equal(first.txId, computeTxId(nonce, creator));
    // The same key behind another signer reference gives the same txId.
    const fromFile = await checked({}, inputs({ identity: { ...certificateOf(member), keyFile: keyFile(member) } }));
    assert.equal(fromFile.txId, first.txId);
  });

  it("keeps the generation while the transaction is unchanged and bumps it (a new txId) when it changes", async () => {
    const g1 = await checked({}, inputs());
    const same = await checked(g1, inputs({ gateway: { address: "localhost:7051" }, allowInvalid: true }));
    assert.deepEqual([same.__generation, same.txId], [1, g1.txId]);
    const g2 = await checked(g1, inputs({ args: ["asset-1", "red"] }));
    assert.equal(g2.__generation, 2);
    assert.equal(g2.txId, deriveTxId(g1.identity, URN, 2));
    assert.notEqual(g2.txId, g1.txId);
    const transientOnly = await checked(g2, inputs({ args: ["asset-1", "red"], transientData: { note: "other" } }));
    assert.equal(transientOnly.__generation, 3);
    assert.ok(!JSON.stringify({ ...transientOnly, transientData: undefined }).includes("other"));
    assert.equal(transientOnly.transactionDigest, undefined, "nothing derived from transient data is stored");
  });

  it("leaves the txId out while a transaction input is unknown (preview)", async () => {
    const result = await checked({}, inputs({ channel: UNKNOWN }));
    assert.equal(result.txId, undefined);
    assert.equal(result.__generation, undefined);
  });

  it("is reached through dispatch with a child URN qualified by the component's type", async () => {
    const result = (await dispatch("check", [{}, inputs({ channel: "" })])) as { failures?: unknown[] };
    assert.deepEqual(result.failures, [
      { property: "channel", reason: "is required: the channel name, e.g. 'mychannel'" },
    ]);
  });
});

describe("LedgerTransaction diff", () => {
  it("replaces on a changed arg", async () => {
    const first = await checked({}, inputs());
    const olds = outputs(first);
    const news = await checked(first, inputs({ args: ["asset-1", "red"] }));
    assert.deepEqual(await ledgerTransactionProvider.diff(olds.txId, olds, news), {
      changes: true,
      replaces: ["args"],
      deleteBeforeReplace: false,
    });
  });

  it("replaces on a change of transient data alone, naming transientData", async () => {
    const first = await checked({}, inputs());
    const olds = outputs(first);
    const news = await checked(first, inputs({ transientData: { note: "changed" } }));
    const diff = await ledgerTransactionProvider.diff(olds.txId, olds, news);
    assert.deepEqual(diff.replaces, ["transientData"]);
  });

  it("updates in place for settings and reports no change for the same inputs", async () => {
    const first = await checked({}, inputs());
    const olds = outputs(first);
    const moved = await checked(first, inputs({ gateway: { address: "localhost:7051" } }));
    assert.deepEqual(await ledgerTransactionProvider.diff(olds.txId, olds, moved), {
      changes: true,
      replaces: [],
      deleteBeforeReplace: false,
    });
    const same = await checked(first, inputs());
    assert.equal((await ledgerTransactionProvider.diff(olds.txId, olds, same)).changes, false);
  });
});

describe("LedgerTransaction outputs", () => {
  it("hold no private key outside credentials and never the transient data", async () => {
    const checkedInputs = await checked({}, inputs({ gateway: { address: "127.0.0.1:7051" } }));
    const olds = outputs(checkedInputs);
    const updated = await ledgerTransactionProvider.update(olds.txId, olds, { ...checkedInputs, allowInvalid: true });
    const result = updated.outs as LedgerTransactionOutputs;
    assert.equal(result.txId, olds.txId);
    assert.equal(result.allowInvalid, true);
    assert.deepEqual(result.credentials, { privateKeyPem: member.privateKeyPem });
    assert.deepEqual(result.identity, olds.identity);
    const { credentials: _c, ...rest } = result;
    assert.deepEqual(keyFormsIn(rest, member.privateKeyPem), []);
    // The scan can fail: the secret-marked credentials do hold the key.
    assert.notDeepEqual(keyFormsIn(result.credentials, member.privateKeyPem), []);
    assert.ok(!JSON.stringify(result).includes(TRANSIENT));
    assert.equal("transientData" in result, false);
  });
});
