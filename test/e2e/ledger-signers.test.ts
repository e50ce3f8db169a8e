/**
 * examples/ledger with every signer reference, through the plain `pulumi` CLI: a key file, an environment variable, a
 * SoftHSM2 token (PIN from the environment, and PIN as a secret value) and a Cloud KMS key version of the Google
 * sandbox (reached with a service-account key file given as opsledger:credentials). Each stack previews (txId and
 * simulated result), submits, refreshes, fails one preview on a broken signer (nothing sent) and destroys with a
 * compensating transaction — and then nothing of the key, the PIN, the service-account key or an access token is
 * found in `stack export --show-secrets`, any command's output, the CLI's decrypted logs, or the backend's history and
 * backups.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { fabricSki } from "../../provider/ledger";
import { startFabricSandbox } from "../../sandbox/fabric";
import type { FabricSandbox } from "../../sandbox/fabric";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { changeSummary, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ConfigValues, ProjectStack } from "../helpers/project-stack";
import { endpointConfig, plainStrings } from "../helpers/sandbox-config";
import { stackFilesAtRest } from "../helpers/secrets-scan";
import { createSoftHsmToken } from "../helpers/softhsm";
import type { SoftHsmToken } from "../helpers/softhsm";

const PROJECT = exampleDir("ledger");
const TRANSIENT = "transient-value-of-the-signer-tests";
const HSM_PIN = "hsm-pin-8264";
const DEPLOYER = fixture.DEPLOYER;

/** The base64 body lines of a PEM: what must never appear. */
function pemLines(pem: string): string[] {
  return pem.split("\n").filter((l) => l.length > 20 && !l.startsWith("-----"));
}

interface SignerCase {
  readonly title: string;
  readonly config: () => ConfigValues;
  readonly env?: () => Record<string, string>;
  /** Config that breaks the signer, the property the failed preview names and what it says about it. */
  readonly broken: () => ConfigValues;
  readonly brokenProperty: string;
  readonly brokenMessage: () => RegExp;
  /** Strings that must not appear anywhere (key lines, PIN, service-account key). */
  readonly neverStored: () => string[];
  /** Strings that may be stored, but only inside Pulumi secrets (a PIN given as a secret value). */
  readonly onlyAsSecret?: () => string[];
}

describe("examples/ledger with signer references (pulumi CLI, Fabric and Google sandboxes)", function () {
  this.timeout(900_000);
  let fabric: FabricSandbox;
  let google: GoogleSandbox;
  let token: SoftHsmToken;
  let dir: string;
  const ids: Record<string, { mspId: string; certificatePem: string; privateKeyPem?: string }> = {};

  before(async () => {
    fabric = await startFabricSandbox();
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
    await google.close();
    await fabric.close();
  });

  const serviceAccountKey = (): string => JSON.stringify(google.serviceAccountKey(DEPLOYER));
  const base = (who: string, asset: string): ConfigValues => ({
    ledgerGateway: { value: fabric.address },
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

  const CASES: readonly SignerCase[] = [
    {
      title: "a key file",
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
      neverStored: () => [...pemLines(keyOf("file")), ...pemLines(keyOf("other"))],
    },
    {
      title: "an environment variable",
      config: () => ({
        ...base("env", "a-env"),
        ledgerSigner: { value: "keyEnv" },
        ledgerKeyEnv: { value: "FABRIC_KEY_PEM" },
      }),
      env: () => ({ FABRIC_KEY_PEM: keyOf("env") }),
      broken: () => ({ ledgerKeyEnv: { value: "FABRIC_KEY_PEM_UNSET" } }),
      brokenProperty: "identity.keyEnv",
      brokenMessage: () => /environment variable FABRIC_KEY_PEM_UNSET: is not set where pulumi runs/,
      neverStored: () => pemLines(keyOf("env")),
    },
    {
      title: "a PKCS#11 token, PIN from the environment",
      config: () => ({ ...base("hsm", "a-hsm"), ...pkcs11(), ledgerPkcs11PinEnv: { value: "HSM_PIN" } }),
      env: () => ({ ...token.env, HSM_PIN }),
      broken: () => ({ ledgerPkcs11TokenLabel: { value: "no-such-token" } }),
      brokenProperty: "identity.pkcs11.tokenLabel",
      brokenMessage: () => /pkcs11:token=no-such-token;id=[0-9a-f]{64}: no token labelled 'no-such-token'/,
      neverStored: () => [...pemLines(keyOf("hsm")), HSM_PIN],
    },
    {
      title: "a PKCS#11 token, PIN as a secret value",
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
      neverStored: () => pemLines(keyOf("hsm")),
      onlyAsSecret: () => [HSM_PIN],
    },
    {
      title: "a Cloud KMS key version, with a service-account key file as opsledger:credentials",
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
      neverStored: () => [...pemLines(google.serviceAccountKey(DEPLOYER).private_key), "ya29.sandbox."],
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
        const preview = await stack.preview({ diff: true });
        printed.push(preview.output);
        assert.deepEqual(changeSummary(preview.events), { create: 3 });
        const txId = /txId\s*:\s*"([0-9a-f]{64})"/.exec(preview.stdout)?.[1];
        assert.ok(txId, preview.stdout);
        assert.match(preview.stdout, /previewResult\s*:\s*\{[^}]*utf8\s*:\s*"blue"/);
        assert.equal(fabric.transactionCount(), before);

        const up = await stack.up();
        printed.push(up.output);
        assert.equal(up.outputs["ledgerTxId"], txId);
        assert.equal(up.outputs["ledgerValidationCode"], "VALID");
        printed.push((await stack.refresh()).output);

        await stack.setConfig(c.broken());
        const failed = await stack.preview({ allowFailure: true });
        printed.push(failed.output);
        assert.notEqual(failed.code, 0);
        assert.match(
          failed.output,
          new RegExp(`property ${c.brokenProperty.replace(/\./g, "\\.")} value .*has a problem: `),
        );
        assert.match(failed.output, c.brokenMessage());
        assert.equal(fabric.transactionCount(), before + 1, "nothing sent by the failed preview");
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
        const plain = plainStrings(deployment).join("\n");
        const decryptedLogs = (await stack.decryptedLogs()).join("\n");
        const atRest = stackFilesAtRest(stack); // the CLI's logs as on disk; the backend's stacks, history, backups
        const everything = [JSON.stringify(deployment), printed.join("\n"), decryptedLogs, atRest].join("\n");
        assert.ok(everything.includes(txId), "the scan reads what the commands wrote");
        assert.ok(decryptedLogs.includes(txId), "the logs were decrypted");
        // Key material, a PIN read from the environment, the service-account key and access tokens: nowhere, not
        // even in the decrypted state or the decrypted logs.
        for (const secret of c.neverStored()) {
          assert.ok(!everything.includes(secret), `'${secret.slice(0, 12)}…' found`);
        }
        // Transient data and a PIN value are Pulumi secrets: encrypted in state, history, backups and logs, never
        // printed. (Decrypted, the CLI's logs hold every Pulumi secret the program registers, like the state does:
        // Pulumi logs the RegisterResource payloads. That is why keys must be references: then there is no key to log.)
        for (const secret of [TRANSIENT, ...(c.onlyAsSecret?.() ?? [])]) {
          assert.ok(!plain.includes(secret), "only inside Pulumi secrets");
          assert.ok(!printed.join("\n").includes(secret), "never printed");
          assert.ok(!atRest.includes(secret), "never in plaintext on disk");
        }
      } finally {
        await stack.dispose();
      }
    });
  }
});
