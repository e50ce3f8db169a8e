import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { ConfigError, ValidationError } from "../../../provider/errors";
import { clientTlsRefusal, readClientTlsKey } from "../../../provider/resources/ledger/session/client-tls";
import { readLedgerChainInfo } from "../../../provider/resources/ledger/ledger-reads";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import { findSecrets, privateKeyForms } from "../../helpers/secrets-scan";
import { newMember, newOrg, newTlsServerCertificate } from "../ledger/fixtures";
import type { TestMember, TestOrg } from "../ledger/fixtures";
import { clientTlsFailures } from "../../../provider/resources/ledger/session/client-tls";
import type {
  LedgerTransactionInputs,
  LedgerTransactionOutputs,
} from "../../../provider/resources/ledger/ledger-transaction-inputs";

const URN =
  "urn:pulumi:dev::demo::opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission::asset";

let org: TestOrg;
let member: TestMember;
/** The client's TLS certificate and key, and another key. */
let tls: { certPem: string; keyPem: string };
let otherTls: { certPem: string; keyPem: string };
let dir: string;
let keyFile: string;
let otherKeyFile: string;

before(async () => {
  org = await newOrg("Org1MSP");
  member = await newMember(org, "client");
  tls = await newTlsServerCertificate(org);
  otherTls = await newTlsServerCertificate(org);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-client-tls-"));
  keyFile = path.join(dir, "client.key");
  otherKeyFile = path.join(dir, "other.key");
  fs.writeFileSync(keyFile, tls.keyPem, { mode: 0o600 });
  fs.writeFileSync(otherKeyFile, otherTls.keyPem, { mode: 0o600 });
});
after(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

/** The forms of a key found in a text (its PEM lines that encode secret bytes, DER, JWK members, scalars). */
const keyFound = (text: string, pem: string): string[] => findSecrets(text, privateKeyForms("key", pem));

const gateway = (extra: Record<string, unknown>): Record<string, unknown> => ({
  address: "127.0.0.1:7051",
  tlsRootCertPem: org.caPem,
  ...extra,
});

function inputs(gatewayInputs: Record<string, unknown>): LedgerTransactionInputs {
  return {
    __urn: URN,
    gateway: gatewayInputs as unknown as LedgerTransactionInputs["gateway"],
    channel: "opsledger",
    chaincode: "assets",
    function: "CreateAsset",
    args: ["asset-1", "blue"],
    identity: {
      mspId: "Org1MSP",
      certificatePem: Buffer.from(member.identity.credentials).toString("utf8"),
      privateKeyPem: member.privateKeyPem,
    },
    trustedRootCertificates: { Org1MSP: org.caPem },
  };
}

describe("the gateway's client TLS certificate and key (mutual TLS)", () => {
  it("accepts a certificate with exactly one key: by file, by environment variable, or as a matching value", () => {
    assert.deepEqual(clientTlsFailures(gateway({ clientCertPem: tls.certPem, clientKeyFile: keyFile })), []);
    assert.deepEqual(clientTlsFailures(gateway({ clientCertPem: tls.certPem, clientKeyEnv: "TLS_KEY" })), []);
    assert.deepEqual(clientTlsFailures(gateway({ clientCertPem: tls.certPem, clientKeyPem: tls.keyPem })), []);
    assert.deepEqual(clientTlsFailures(gateway({})), []);
  });

  it("refuses a certificate without a key, a key without a certificate, two keys and mutual TLS without TLS", () => {
    assert.deepEqual(clientTlsFailures(gateway({ clientCertPem: tls.certPem })), [
      {
        property: "gateway.clientCertPem",
        reason:
          "needs the client TLS key (mutual TLS): set one of gateway.clientKeyFile (a PEM file's path), gateway.clientKeyEnv (an environment variable holding the PEM) or gateway.clientKeyPem (the key itself, as a Pulumi secret)",
      },
    ]);
    assert.deepEqual(clientTlsFailures(gateway({ clientKeyFile: keyFile })), [
      {
        property: "gateway.clientKeyFile",
        reason:
          "needs gateway.clientCertPem: set the PEM client TLS certificate of this key (mutual TLS), or remove it",
      },
    ]);
    assert.deepEqual(
      clientTlsFailures(gateway({ clientCertPem: tls.certPem, clientKeyFile: keyFile, clientKeyEnv: "K" })),
      [
        {
          property: "gateway.clientKeyEnv",
          reason:
            "set only one client TLS key: gateway.clientKeyFile and gateway.clientKeyEnv are both set; keep one of gateway.clientKeyFile (a PEM file's path), gateway.clientKeyEnv (an environment variable holding the PEM) or gateway.clientKeyPem (the key itself, as a Pulumi secret)",
        },
      ],
    );
    assert.deepEqual(
      clientTlsFailures({ address: "127.0.0.1:7051", clientCertPem: tls.certPem, clientKeyFile: keyFile }),
      [
        {
          property: "gateway.clientCertPem",
          reason: "needs TLS: set gateway.tlsRootCertPem (the CA of the gateway's TLS certificate) for mutual TLS",
        },
      ],
    );
  });

  it("refuses a malformed certificate, file path or variable name, and a key value that is not the certificate's", () => {
    assert.deepEqual(clientTlsFailures(gateway({ clientCertPem: "not a cert", clientKeyFile: keyFile })), [
      {
        property: "gateway.clientCertPem",
        reason: "is not a PEM X.509 certificate; pass the client TLS certificate's PEM text",
      },
    ]);
    assert.deepEqual(clientTlsFailures(gateway({ clientCertPem: tls.certPem, clientKeyFile: " " })), [
      { property: "gateway.clientKeyFile", reason: "must be the path of the client TLS key's PEM file" },
    ]);
    assert.deepEqual(clientTlsFailures(gateway({ clientCertPem: tls.certPem, clientKeyEnv: "NOT-A-NAME" })), [
      {
        property: "gateway.clientKeyEnv",
        reason:
          "must be the name of an environment variable holding the client TLS key's PEM, e.g. 'FABRIC_TLS_KEY_PEM'",
      },
    ]);
    const mismatched = clientTlsFailures(gateway({ clientCertPem: tls.certPem, clientKeyPem: otherTls.keyPem }));
    assert.deepEqual(mismatched, [
      {
        property: "gateway.clientKeyPem",
        reason:
          "is not the key of gateway.clientCertPem ('CN=gateway.local'): use the private key of that TLS certificate",
      },
    ]);
    assert.deepEqual(keyFound(JSON.stringify(mismatched), otherTls.keyPem), []);
  });

  it("reads the key by reference and checks it against the certificate, naming the field and the fix", () => {
    assert.equal(readClientTlsKey({ clientCertPem: tls.certPem, clientKeyFile: keyFile }), tls.keyPem);
    process.env["OPSLEDGER_TEST_TLS_KEY"] = tls.keyPem;
    try {
      assert.equal(
        readClientTlsKey({ clientCertPem: tls.certPem, clientKeyEnv: "OPSLEDGER_TEST_TLS_KEY" }),
        tls.keyPem,
      );
    } finally {
      delete process.env["OPSLEDGER_TEST_TLS_KEY"];
    }
    assert.equal(readClientTlsKey({}), undefined);
    const missing = path.join(dir, "missing.key");
    assert.throws(
      () => readClientTlsKey({ clientCertPem: tls.certPem, clientKeyFile: missing }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.setting === "gateway.clientKeyFile" &&
        e.message ===
          `gateway.clientKeyFile: cannot read the client TLS key file ${missing} (ENOENT) on the machine that runs pulumi: check the path (a relative one is resolved against the program's directory)`,
    );
    assert.throws(
      () => readClientTlsKey({ clientCertPem: tls.certPem, clientKeyEnv: "OPSLEDGER_TEST_TLS_KEY_UNSET" }),
      new ConfigError({
        setting: "gateway.clientKeyEnv",
        message:
          "gateway.clientKeyEnv: the environment variable OPSLEDGER_TEST_TLS_KEY_UNSET is not set where pulumi runs: export the client TLS key's PEM in it before pulumi runs",
      }),
    );
    let mismatch: unknown;
    try {
      readClientTlsKey({ clientCertPem: tls.certPem, clientKeyFile: otherKeyFile });
    } catch (e) {
      mismatch = e;
    }
    assert.ok(mismatch instanceof ConfigError);
    assert.equal(
      mismatch.message,
      `gateway.clientKeyFile: the client TLS key file ${otherKeyFile} is not the key of gateway.clientCertPem ('CN=gateway.local'): use the private key of that TLS certificate`,
    );
    fs.writeFileSync(path.join(dir, "garbage.key"), "not a key");
    assert.throws(
      () => readClientTlsKey({ clientCertPem: tls.certPem, clientKeyFile: path.join(dir, "garbage.key") }),
      /gateway\.clientKeyFile: the client TLS key file \S+garbage\.key does not hold a parsable PEM private key/,
    );
  });

  it("fails check (so preview) on a key file that is missing or not the certificate's", async () => {
    const missing = path.join(dir, "missing.key");
    const absent = await ledgerTransactionProvider.check(
      {},
      inputs(gateway({ clientCertPem: tls.certPem, clientKeyFile: missing })),
    );
    assert.deepEqual(absent.failures, [
      {
        property: "gateway.clientKeyFile",
        reason: `cannot read the client TLS key file ${missing} (ENOENT) on the machine that runs pulumi: check the path (a relative one is resolved against the program's directory)`,
      },
    ]);
    const other = await ledgerTransactionProvider.check(
      {},
      inputs(gateway({ clientCertPem: tls.certPem, clientKeyFile: otherKeyFile })),
    );
    assert.deepEqual(other.failures, [
      {
        property: "gateway.clientKeyFile",
        reason: `the client TLS key file ${otherKeyFile} is not the key of gateway.clientCertPem ('CN=gateway.local'): use the private key of that TLS certificate`,
      },
    ]);
    const ok = await ledgerTransactionProvider.check(
      {},
      inputs(gateway({ clientCertPem: tls.certPem, clientKeyFile: keyFile })),
    );
    assert.equal(ok.failures, undefined);
  });

  it("keeps a key reference in the outputs and no key, and a key value only in the secret credentials", async () => {
    const checked = (
      await ledgerTransactionProvider.check({}, inputs(gateway({ clientCertPem: tls.certPem, clientKeyFile: keyFile })))
    ).inputs as LedgerTransactionInputs;
    const olds = { __generation: 1, txId: checked.txId, credentials: {} } as unknown as LedgerTransactionOutputs;
    const byFile = (await ledgerTransactionProvider.update("id", olds, checked)).outs as LedgerTransactionOutputs;
    assert.deepEqual(byFile.gateway, gateway({ clientCertPem: tls.certPem, clientKeyFile: keyFile }));
    assert.deepEqual(byFile.credentials, { privateKeyPem: member.privateKeyPem });
    assert.deepEqual(keyFound(JSON.stringify(byFile), tls.keyPem), []);
    assert.notDeepEqual(keyFound(JSON.stringify({ tls }), tls.keyPem), [], "the scan finds the key where it is");
    const byValue = (
      await ledgerTransactionProvider.update(
        "id",
        olds,
        inputs(gateway({ clientCertPem: tls.certPem, clientKeyPem: tls.keyPem })),
      )
    ).outs as LedgerTransactionOutputs;
    assert.deepEqual(byValue.gateway, gateway({ clientCertPem: tls.certPem }));
    assert.equal(byValue.credentials.clientKeyPem, tls.keyPem);
  });

  it("explains a handshake the peer refused over the client certificate, and nothing else", () => {
    // What grpc-js reports (seen on Fabric 2.5.16 with clientAuthRequired and no client certificate).
    const openssl = (alert: string): Error =>
      new Error(
        `/gateway.Gateway/Evaluate failed (gRPC 14): No connection established. Last error: 800C28079F7F0000:error:0A00045C:SSL routines:ssl3_read_bytes:tlsv13 alert ${alert}:../deps/openssl/openssl/ssl/record/rec_layer_s3.c:1601:SSL alert number 116\n (2026-11-26T02:04:55.175Z). Resolution note: `,
      );
    assert.equal(
      clientTlsRefusal(openssl("certificate required"), { address: "127.0.0.1:7051" }),
      "the gateway peer 127.0.0.1:7051 refused the TLS handshake (alert: certificate required): it requires a client TLS certificate (the peer's peer.tls.clientAuthRequired is true): set gateway.clientCertPem to your client TLS certificate and gateway.clientKeyFile or gateway.clientKeyEnv to its key",
    );
    assert.equal(
      clientTlsRefusal(openssl("unknown ca"), { address: "127.0.0.1:7051", clientCertPem: tls.certPem }),
      "the gateway peer 127.0.0.1:7051 refused the TLS handshake (alert: unknown ca): it did not accept gateway.clientCertPem; use a client TLS certificate issued by a CA the peer trusts for clients (its peer.tls.clientRootCAs, usually your organization's TLS CA)",
    );
    assert.equal(clientTlsRefusal(openssl("unknown ca"), { address: "127.0.0.1:7051" }), undefined);
    assert.equal(
      clientTlsRefusal(new Error("14 UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED"), {
        address: "127.0.0.1:7051",
        clientCertPem: tls.certPem,
      }),
      undefined,
    );
  });

  it("refuses a ledger read whose client TLS key is missing before connecting", async () => {
    let connections = 0;
    const server = net.createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const port = (server.address() as net.AddressInfo).port;
    const missing = path.join(dir, "missing.key");
    try {
      await assert.rejects(
        readLedgerChainInfo({
          gateway: {
            address: `127.0.0.1:${String(port)}`,
            tlsRootCertPem: org.caPem,
            clientCertPem: tls.certPem,
            clientKeyFile: missing,
          },
          channel: "opsledger",
          identity: inputs({}).identity,
        }),
        (e: unknown) =>
          e instanceof ValidationError &&
          e.message ===
            `ledger.getChainInfo: invalid input: gateway.clientKeyFile: cannot read the client TLS key file ${missing} (ENOENT) on the machine that runs pulumi: check the path (a relative one is resolved against the program's directory)`,
      );
    } finally {
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    }
    assert.equal(connections, 0);
  });
});
