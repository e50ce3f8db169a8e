/**
 * examples/ledger with every signer reference, through the plain `pulumi` CLI: a key file, an environment variable, a
 * SoftHSM2 token (PIN from the environment, and PIN as a secret value) and a Cloud KMS key version of the Google
 * sandbox (reached with a service-account key file given as opsledger:credentials). Each stack previews (txId and
 * simulated result), submits, refreshes, fails one preview on a broken signer and destroys with a compensating
 * transaction. The gateway is reached through a recording proxy (test/helpers/gateway-proxy.ts), so "nothing sent" is
 * what the gateway saw: no Endorse and no Submit call. Then the state holds the signer as its reference (the key
 * file's path, the variable's name, the token's library and label, the KMS key version) and no key; and no form of
 * the key (PEM lines, DER in any encoding, JWK members, raw scalars: test/helpers/secrets-scan.ts, whose own test
 * plants each), a PIN read from the environment or an access token is found in `stack export --show-secrets` (taken
 * after `up`, while the resources exist), any command's output, the CLI's decrypted logs, or the files on disk (logs,
 * backend history and backups; counted, so an empty scan fails). Secret values (transient data, a PIN given as a
 * secret, the service-account key given as secret stack config, which Pulumi keeps in the default dynamic provider's
 * inputs) are found only inside Pulumi secrets: never in plain state, output or files.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fabricSki } from "../../provider/ledger/signer-keys";
import { startFabricSandbox } from "../../sandbox/fabric";
import { createRootCa, issueCertificate, privateKeyPem } from "../../sandbox/fabric/certificates";
import type { FabricSandbox } from "../../sandbox/fabric";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { GATEWAY, startGatewayProxy } from "../helpers/gateway-proxy";
import type { GatewayProxy } from "../helpers/gateway-proxy";
import { changeSummary, dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ConfigValues, ProjectStack } from "../helpers/project-stack";
import { endpointConfig, plainStrings } from "../helpers/sandbox-config";
import { findSecretsDecoded, privateKeyForms, scanStackFilesAtRest, textForms } from "../helpers/secrets-scan";
import type { SecretForm } from "../helpers/secrets-scan";
import { createSoftHsmToken } from "../helpers/softhsm";
import type { SoftHsmToken } from "../helpers/softhsm";

const PROJECT = exampleDir("ledger");
const TRANSIENT = "transient-value-of-the-signer-tests";
const HSM_PIN = "hsm-pin-8264";
const DEPLOYER = fixture.DEPLOYER;

/** Any sandbox access token, in any encoding: they all begin with this. */
const TOKEN_PREFIX = "ya29.sandbox.";

interface SignerCase {
  readonly title: string;
  /** Whose identity (certificate and key) the stack signs with. */
  readonly who: string;
  readonly config: () => ConfigValues;
  readonly env?: () => Record<string, string>;
  /** Config that breaks the signer, the property the failed preview names and what it says about it. */
  readonly broken: () => ConfigValues;
  readonly brokenProperty: string;
  readonly brokenMessage: () => RegExp;
  /** The signer as the state must hold it: the identity's reference, beside mspId and certificatePem. */
  readonly reference: () => Record<string, unknown>;
  /** Secrets that must not appear anywhere in any form (keys, PIN, service-account key, tokens). */
  readonly neverStored: () => SecretForm[];
  /** Secrets that may be stored, but only inside Pulumi secrets (a PIN given as a secret value). */
  readonly onlyAsSecret?: () => SecretForm[];
}

describe("examples/ledger with signer references (pulumi CLI, Fabric and Google sandboxes)", function () {
  this.timeout(900_000);
  let fabric: FabricSandbox;
  let google: GoogleSandbox;
  let token: SoftHsmToken;
  let gateway: GatewayProxy;
  let gatewayCa: string;
  let dir: string;
  const ids: Record<string, { mspId: string; certificatePem: string; privateKeyPem?: string }> = {};

  before(async () => {
    fabric = await startFabricSandbox({ tls: true });
    // The stacks reach the sandbox through a recording proxy with a TLS certificate of its own.
    const ca = createRootCa({ commonName: "tlsca.signers-test", organization: "OpsLedger tests" });
    const served = issueCertificate(ca, {
      subject: { commonName: "localhost", organization: "OpsLedger tests" },
      dnsNames: ["localhost"],
      ipAddresses: ["127.0.0.1"],
    });
    gatewayCa = ca.certificatePem;
    gateway = await startGatewayProxy({
      upstream: { address: fabric.address, tlsRootCertPem: fabric.tlsRootCertPem ?? "", serverName: "localhost" },
      serverTls: { certificatePem: served.certificatePem, privateKeyPem: privateKeyPem(served.privateKey) },
    });
    google = await startGoogleSandbox();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-signers-"));
    for (const name of ["file", "env", "hsm", "other"]) ids[name] = fabric.newClientIdentity("Org1MSP", `${name}-user`);
    fs.writeFileSync(path.join(dir, "file.pem"), ids["file"]?.privateKeyPem ?? "", { mode: 0o600 });
    fs.writeFileSync(path.join(dir, "other.pem"), ids["other"]?.privateKeyPem ?? "", { mode: 0o600 });
    token = createSoftHsmToken("fabric", HSM_PIN);
    const hsm = ids["hsm"];
    assert.ok(hsm?.privateKeyPem !== undefined);
    const ski = Buffer.from(fabricSki(new crypto.X509Certificate(hsm.certificatePem).publicKey)).toString("hex");
    token.importKey(hsm.privateKeyPem, ski);
    const kmsPem = google.createKmsKeyVersion(fixture.FIXTURE_KMS_KEY_VERSION);
    ids["kms"] = fabric.enrollPublicKey("Org1MSP", kmsPem, "kms-user");
  });
  after(async () => {
    token.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
    await gateway.close();
    await google.close();
    await fabric.close();
  });

  const serviceAccountKey = (): string => JSON.stringify(google.serviceAccountKey(DEPLOYER));
  const base = (who: string, asset: string): ConfigValues => ({
    ledgerGateway: { value: gateway.address },
    ledgerTlsRootCertPem: { value: gatewayCa },
    ledgerChannel: { value: fabric.channel },
    ledgerChaincode: { value: fabric.chaincode },
    ledgerArgs: { value: JSON.stringify([asset, "blue"]) },
    ledgerMspId: { value: "Org1MSP" },
    ledgerCertificatePem: { value: ids[who]?.certificatePem ?? "" },
    ledgerTrustedRootCertificates: { value: JSON.stringify(fabric.caCertificates) },
    ledgerTransientData: { value: JSON.stringify({ note: TRANSIENT }), secret: true },
    ledgerPreviewEndorse: { value: "true" },
    ledgerOnDestroy: { value: JSON.stringify({ function: "DeleteAsset", args: [asset] }) },
  });
  const pkcs11 = (): ConfigValues => ({
    ledgerSigner: { value: "pkcs11" },
    ledgerPkcs11Library: { value: token.library },
    ledgerPkcs11TokenLabel: { value: token.label },
  });
  const keyOf = (who: string): string => ids[who]?.privateKeyPem ?? "(none)";
  const keyForms = (who: string): SecretForm[] => privateKeyForms(`${who} key`, keyOf(who));

  const CASES: readonly SignerCase[] = [
    {
      title: "a key file",
      who: "file",
      config: () => ({
        ...base("file", "a-file"),
        ledgerSigner: { value: "keyFile" },
        ledgerKeyFile: { value: path.join(dir, "file.pem") },
      }),
      broken: () => ({ ledgerKeyFile: { value: path.join(dir, "other.pem") } }),
      brokenProperty: "identity.keyFile",
      brokenMessage: () =>
        new RegExp(
          `key file ${path.join(dir, "other.pem")}: this key is not the key of the certificate '[^']*CN=file-user'`,
        ),
      reference: () => ({ keyFile: path.join(dir, "file.pem") }),
      neverStored: () => [...keyForms("file"), ...keyForms("other")],
    },
    {
      title: "an environment variable",
      who: "env",
      config: () => ({
        ...base("env", "a-env"),
        ledgerSigner: { value: "keyEnv" },
        ledgerKeyEnv: { value: "FABRIC_KEY_PEM" },
      }),
      env: () => ({ FABRIC_KEY_PEM: keyOf("env") }),
      broken: () => ({ ledgerKeyEnv: { value: "FABRIC_KEY_PEM_UNSET" } }),
      brokenProperty: "identity.keyEnv",
      brokenMessage: () => /environment variable FABRIC_KEY_PEM_UNSET: is not set where pulumi runs/,
      reference: () => ({ keyEnv: "FABRIC_KEY_PEM" }),
      neverStored: () => keyForms("env"),
    },
    {
      title: "a PKCS#11 token, PIN from the environment",
      who: "hsm",
      config: () => ({ ...base("hsm", "a-hsm"), ...pkcs11(), ledgerPkcs11PinEnv: { value: "HSM_PIN" } }),
      env: () => ({ ...token.env, HSM_PIN }),
      broken: () => ({ ledgerPkcs11TokenLabel: { value: "no-such-token" } }),
      brokenProperty: "identity.pkcs11.tokenLabel",
      brokenMessage: () => /pkcs11:token=no-such-token;id=[0-9a-f]{64}: no token labelled 'no-such-token'/,
      reference: () => ({ pkcs11: { library: token.library, tokenLabel: token.label, pinEnv: "HSM_PIN" } }),
      neverStored: () => [...keyForms("hsm"), ...textForms("PIN", HSM_PIN)],
    },
    {
      title: "a PKCS#11 token, PIN as a secret value",
      who: "hsm",
      config: () => ({
        ...base("hsm", "a-hsm-pin"),
        ...pkcs11(),
        ledgerPkcs11Pin: { value: HSM_PIN, secret: true },
      }),
      env: () => ({ ...token.env }),
      // Not hex: Pulumi masks a secret's plain text wherever it appears in the output, and "0000" once matched
      // inside the key's CKA_ID in the very error this test reads.
      broken: () => ({ ledgerPkcs11Pin: { value: "not-the-pin", secret: true } }),
      brokenProperty: "identity.pkcs11.pin",
      brokenMessage: () => /pkcs11:token=fabric;id=[0-9a-f]{64}: C_Login failed: the PIN is incorrect/,
      reference: () => ({ pkcs11: { library: token.library, tokenLabel: token.label } }),
      neverStored: () => keyForms("hsm"),
      onlyAsSecret: () => textForms("PIN", HSM_PIN),
    },
    {
      title: "a Cloud KMS key version, with a service-account key file as opsledger:credentials",
      who: "kms",
      config: () => ({
        ...base("kms", "a-kms"),
        ...endpointConfig(google),
        "opsledger:credentials": { value: serviceAccountKey(), secret: true },
        ledgerSigner: { value: "kms" },
        ledgerKmsCryptoKeyVersion: { value: fixture.FIXTURE_KMS_KEY_VERSION },
      }),
      broken: () => ({ ledgerKmsCryptoKeyVersion: { value: `${fixture.FIXTURE_KMS_CRYPTO_KEY}/cryptoKeyVersions/7` } }),
      brokenProperty: "identity.kms.cryptoKeyVersion",
      brokenMessage: () => /getPublicKey crypto key version \S+\/cryptoKeyVersions\/7: 404 NOT_FOUND/,
      reference: () => ({ kms: { cryptoKeyVersion: fixture.FIXTURE_KMS_KEY_VERSION } }),
      neverStored: () => textForms("access token", TOKEN_PREFIX),
      // Secret stack config: Pulumi keeps the whole stack config as the default dynamic provider's inputs, so the
      // decrypted state holds it there, as a Pulumi secret (encrypted in the state files).
      onlyAsSecret: () => privateKeyForms("service-account key", google.serviceAccountKey(DEPLOYER).private_key),
    },
  ];

  for (const c of CASES) {
    it(`signs through ${c.title}: preview, up, refresh, a failed preview, destroy — and stores or prints no secret`, async () => {
      const stack: ProjectStack = await initProjectStack({
        projectDir: PROJECT,
        config: c.config(),
        ...(c.env === undefined ? {} : { env: c.env() }),
      });
      const printed: string[] = [];
      try {
        const before = fabric.transactionCount();
        const sentBy = (from: number): Record<string, number> => {
          const counts = { endorse: 0, submit: 0 };
          for (const p of gateway.paths(from)) {
            if (p === GATEWAY.endorse) counts.endorse++;
            if (p === GATEWAY.submit) counts.submit++;
          }
          return counts;
        };
        const previewFrom = gateway.calls.length;
        const preview = await stack.preview({ diff: true });
        printed.push(preview.output);
        assert.deepEqual(changeSummary(preview.events), { create: 3 });
        const txId = /txId\s*:\s*"([0-9a-f]{64})"/.exec(preview.stdout)?.[1];
        assert.ok(txId, preview.stdout);
        assert.match(preview.stdout, /previewResult\s*:\s*\{[^}]*utf8\s*:\s*"blue"/);
        assert.equal(fabric.transactionCount(), before);
        // The proxy sees the stack's traffic: the preview endorsed (previewEndorse) and submitted nothing.
        assert.deepEqual(sentBy(previewFrom), { endorse: 1, submit: 0 }, "the preview's gateway calls");

        const up = await stack.up();
        printed.push(up.output);
        assert.equal(up.outputs["ledgerTxId"], txId);
        assert.equal(up.outputs["ledgerValidationCode"], "VALID");
        printed.push((await stack.refresh()).output);
        // The signer in state is its reference, and nothing else: no key, no PIN beside it.
        const applied = await stack.exportState({ showSecrets: true });
        const submission = dynamicResources(applied).find((r) => r.type.endsWith(":LedgerTransactionSubmission"));
        const certificatePem = ids[c.who]?.certificatePem;
        assert.deepEqual(submission?.outputs?.["identity"], { mspId: "Org1MSP", certificatePem, ...c.reference() });

        await stack.setConfig(c.broken());
        const failedFrom = gateway.calls.length;
        const failed = await stack.preview({ allowFailure: true });
        printed.push(failed.output);
        assert.notEqual(failed.code, 0);
        assert.match(
          failed.output,
          new RegExp(`property ${c.brokenProperty.replace(/\./g, "\\.")} value .*has a problem: `),
        );
        assert.match(failed.output, c.brokenMessage());
        assert.deepEqual(sentBy(failedFrom), { endorse: 0, submit: 0 }, "nothing sent by the failed preview");
        assert.equal(fabric.transactionCount(), before + 1);
        await stack.setConfig(c.config());

        const destroyed = await stack.destroy();
        printed.push(destroyed.output);
        const made = fabric
          .blocks()
          .flatMap((b) => b.transactions)
          .slice(-2);
        assert.deepEqual(
          made.map((t) => [t.txId === txId, t.codeName]),
          [
            [true, "VALID"],
            [false, "VALID"],
          ],
          "the submission and its compensating DeleteAsset",
        );
        assert.equal(fabric.transactionCount(), before + 2);

        const deployment = await stack.exportState({ showSecrets: true });
        const plain = [...plainStrings(applied), ...plainStrings(deployment)].join("\n");
        const decryptedLogs = (await stack.decryptedLogs()).join("\n");
        // The CLI's logs as on disk and the backend's stacks, history and backups: read, not an empty scan.
        const disk = scanStackFilesAtRest(stack);
        for (const [name, scanned] of Object.entries(disk)) {
          assert.ok(scanned.files > 0 && scanned.bytes > 0, `${name}: ${scanned.files} files, ${scanned.bytes} bytes`);
        }
        const atRest = [disk.logs.text, disk.backend.text].join("\n");
        assert.ok(disk.backend.text.includes(txId), "the on-disk scan reads the state the commands wrote");
        const everything = [
          JSON.stringify(applied),
          JSON.stringify(deployment),
          printed.join("\n"),
          decryptedLogs,
          atRest,
        ].join("\n");
        assert.ok(everything.includes(txId), "the scan reads what the commands wrote");
        assert.ok(decryptedLogs.includes(txId), "the logs were decrypted");
        // Key material in any form, a PIN read from the environment, the service-account key and access tokens:
        // nowhere, not even in the decrypted state or the decrypted logs. Nor any private key at all, in PEM or JWK.
        const parts: Record<string, string> = {
          ...Object.fromEntries((applied.resources ?? []).map((r) => [`state: ${r.urn}`, JSON.stringify(r)])),
          "state after destroy": JSON.stringify(deployment),
          "commands' output": printed.join("\n"),
          "decrypted logs": decryptedLogs,
          "log files": disk.logs.text,
          "backend files": disk.backend.text,
        };
        const found = Object.entries(parts).flatMap(([where, text]) =>
          findSecretsDecoded(text, c.neverStored()).map((label) => `${label} in ${where}`),
        );
        assert.deepEqual(found, []);
        // No private key of any kind (PEM, or a JWK's d) outside Pulumi secrets: in plain state, output or files.
        const anyKey = /PRIVATE[ ]KEY-----|\\?"d\\?"\s*:\s*\\?"[\w-]{40,}/;
        for (const [where, text] of Object.entries({
          "plain state": plain,
          "commands' output": printed.join("\n"),
          files: atRest,
        })) {
          assert.ok(!anyKey.test(text), `a private key in the ${where}: ${anyKey.exec(text)?.[0] ?? ""}`);
        }
        // Transient data and a PIN value are Pulumi secrets: encrypted in state, history, backups and logs, never
        // printed. (Decrypted, the CLI's logs hold every Pulumi secret the program registers, like the state does:
        // Pulumi logs the RegisterResource payloads. That is why keys must be references: then there is no key to log.)
        const secretValues = [...textForms("transient data", TRANSIENT), ...(c.onlyAsSecret?.() ?? [])];
        assert.deepEqual(findSecretsDecoded(plain, secretValues), [], "only inside Pulumi secrets");
        assert.deepEqual(findSecretsDecoded(printed.join("\n"), secretValues), [], "never printed");
        assert.deepEqual(findSecretsDecoded(atRest, secretValues), [], "never in plaintext on disk");
      } finally {
        await stack.dispose();
      }
    });
  }
});
