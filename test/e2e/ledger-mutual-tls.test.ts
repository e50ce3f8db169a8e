/**
 * Mutual TLS to the gateway peer (docs/decisions/0024-ledger-client-tls-key-by-reference.md) on a real Fabric 2.5.16
 * network whose peers require client TLS certificates (`startFabricNetwork({ clientAuth: true })`, what `npm run
 * fabric:up -- --client-auth` starts; one network for the file, no proxy: the peer itself checks the client
 * certificate). Through the plain `pulumi` CLI:
 * - examples/ledger commits VALID with the client TLS certificate as a plain input and its key by reference — a key
 *   file in one stack, an environment variable in another (preview endorses through mutual TLS too, refresh reads
 *   through it from the outputs' reference); the state holds the reference, and no form of the TLS key (nor of the
 *   signing key) is in the state, the commands' output, the decrypted logs or the stack's files
 *   (test/helpers/secrets-scan.ts);
 * - the same stack without a client certificate is refused by the peer's handshake, and the error says so in one
 *   readable sentence naming gateway.clientCertPem (preview with previewEndorse, and `up`), with nothing committed;
 * - the ledger data sources (getTransaction, evaluate, getChainInfo) read through mutual TLS with the key file given
 *   relative to the program's directory, and without a certificate fail with the same readable refusal.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { startFabricNetwork } from "../../sandbox/fabric-network";
import type { FabricNetwork, FabricOrganization } from "../../sandbox/fabric-network";
import { submit } from "../helpers/fabric-network-client";
import { readChainHeight } from "../helpers/ledger-audit";
import { writeLedgerReadsProject } from "../helpers/ledger-reads-project";
import { changeSummary, dynamicResources, exampleDir, initProjectStack } from "../helpers/project-stack";
import type { ConfigValues, ProjectStack } from "../helpers/project-stack";
import { findSecretsDecoded, privateKeyForms, scanStackFilesAtRest } from "../helpers/secrets-scan";

const PROJECT = exampleDir("ledger");
const TLS_KEY_ENV = "OPSLEDGER_E2E_CLIENT_TLS_KEY";

/** The stack's outputs as the preview registered them last. */
function previewOutputs(events: readonly EngineEvent[]): Record<string, unknown> {
  const stack = events.filter((e) => e.resOutputsEvent?.metadata.type === "pulumi:pulumi:Stack").at(-1);
  return (stack?.resOutputsEvent?.metadata.new?.outputs ?? {}) as Record<string, unknown>;
}

/** What the refusal of a handshake without a client certificate says (after "<subject>: "). */
const REFUSED =
  /the gateway peer 127\.0\.0\.1:\d+ refused the TLS handshake \(alert: certificate required\): it requires a client TLS certificate \(the peer's peer\.tls\.clientAuthRequired is true\): set gateway\.clientCertPem to your client TLS certificate and gateway\.clientKeyFile or gateway\.clientKeyEnv to its key/;

describe("mutual TLS to a gateway peer that requires client certificates (real Fabric 2.5.16, pulumi CLI)", function () {
  this.timeout(900_000);
  let network: FabricNetwork;
  let org: FabricOrganization;
  let dir: string;
  let tlsKeyFile: string;

  before(async function () {
    this.timeout(300_000);
    network = await startFabricNetwork({ version: "2.5.16", clientAuth: true });
    org = network.organization("Org1MSP");
    assert.equal(org.clientAuthRequired, true);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-mutual-tls-"));
    tlsKeyFile = path.join(dir, "client-tls.key");
    fs.writeFileSync(tlsKeyFile, org.client.tlsPrivateKeyPem, { mode: 0o600 });
  });
  after(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await network.close();
  });

  const base = (asset: string): ConfigValues => ({
    ledgerGateway: { value: org.gatewayAddress },
    ledgerTlsRootCertPem: { value: org.tlsRootCertPem },
    ledgerTlsServerNameOverride: { value: org.tlsServerName },
    ledgerChannel: { value: network.channel },
    ledgerChaincode: { value: network.chaincode },
    ledgerArgs: { value: JSON.stringify([asset, "teal"]) },
    ledgerMspId: { value: org.mspId },
    ledgerCertificatePem: { value: org.client.certificatePem },
    ledgerSigner: { value: "keyFile" },
    ledgerKeyFile: { value: org.client.privateKeyPath },
    ledgerTrustedRootCertificates: { value: JSON.stringify(network.caCertificates) },
    ledgerPreviewEndorse: { value: "true" },
  });
  const secretForms = () => [
    ...privateKeyForms("client TLS key", org.client.tlsPrivateKeyPem),
    ...privateKeyForms("signing key", org.client.privateKeyPem),
  ];

  const CASES = [
    {
      title: "a key file",
      key: (): ConfigValues => ({ ledgerClientKeyFile: { value: tlsKeyFile } }),
      env: (): Record<string, string> => ({}),
      reference: (): Record<string, string> => ({ clientKeyFile: tlsKeyFile }),
    },
    {
      title: "an environment variable",
      key: (): ConfigValues => ({ ledgerClientKeyEnv: { value: TLS_KEY_ENV } }),
      env: (): Record<string, string> => ({ [TLS_KEY_ENV]: org.client.tlsPrivateKeyPem }),
      reference: (): Record<string, string> => ({ clientKeyEnv: TLS_KEY_ENV }),
    },
  ];

  for (const c of CASES) {
    it(`commits VALID with the client TLS key from ${c.title}, keeping the reference and no key`, async () => {
      const asset = `mtls-${path.basename(dir)}-${c.title.replace(/\W+/g, "-")}`;
      const stack: ProjectStack = await initProjectStack({
        projectDir: PROJECT,
        config: { ...base(asset), ledgerClientCertPem: { value: org.client.tlsCertificatePem }, ...c.key() },
        env: c.env(),
      });
      const printed: string[] = [];
      try {
        const preview = await stack.preview({ diff: true });
        printed.push(preview.output);
        assert.deepEqual(changeSummary(preview.events), { create: 3 });
        // previewEndorse endorsed through the peer, over mutual TLS.
        assert.match(preview.stdout, /previewResult\s*:\s*\{[^}]*utf8\s*:\s*"teal"/);
        const up = await stack.up();
        printed.push(up.output);
        assert.equal(up.outputs["ledgerValidationCode"], "VALID");
        assert.deepEqual(up.outputs["ledgerEndorsers"], ["Org1MSP", "Org2MSP"]);
        const txId = up.outputs["ledgerTxId"];
        assert.ok(typeof txId === "string" && /^[0-9a-f]{64}$/.test(txId));
        // refresh reads the transaction back through the reference in the outputs.
        const refreshed = await stack.refresh();
        printed.push(refreshed.output);
        const state = await stack.exportState({ showSecrets: true });
        const submission = dynamicResources(state).find((r) => r.type.endsWith(":LedgerTransactionSubmission"));
        assert.deepEqual(submission?.outputs?.["gateway"], {
          address: org.gatewayAddress,
          tlsRootCertPem: org.tlsRootCertPem,
          serverNameOverride: org.tlsServerName,
          clientCertPem: org.client.tlsCertificatePem,
          ...c.reference(),
        });
        assert.equal(submission.outputs["validationCode"], "VALID");
        printed.push((await stack.destroy()).output);

        const logs = (await stack.decryptedLogs()).join("\n");
        assert.ok(logs.includes(txId), "the logs were decrypted");
        const disk = scanStackFilesAtRest(stack);
        assert.ok(disk.backend.text.includes(txId), "the on-disk scan reads the state the commands wrote");
        const parts: Record<string, string> = {
          state: JSON.stringify(state),
          "commands' output": printed.join("\n"),
          "decrypted logs": logs,
          "log files": disk.logs.text,
          "backend files": disk.backend.text,
        };
        const found = Object.entries(parts).flatMap(([where, text]) =>
          findSecretsDecoded(text, secretForms()).map((label) => `${label} in ${where}`),
        );
        assert.deepEqual(found, []);
      } finally {
        await stack.dispose();
      }
    });
  }

  it("is refused by the peer without a client certificate, naming gateway.clientCertPem, and commits nothing", async () => {
    const before = await readChainHeight(network, org.mspId);
    const stack = await initProjectStack({ projectDir: PROJECT, config: base(`mtls-none-${path.basename(dir)}`) });
    try {
      const preview = await stack.preview({ allowFailure: true });
      assert.notEqual(preview.code, 0);
      assert.match(preview.output, /property gateway\.clientCertPem value .*has a problem: /);
      assert.match(preview.output, REFUSED);
      await stack.setConfig({ ledgerPreviewEndorse: { value: "false" } });
      const up = await stack.up({ allowFailure: true });
      assert.notEqual(up.code, 0);
      assert.match(up.output, new RegExp(`LedgerTransaction asset-transaction: ${REFUSED.source}; nothing was sent`));
      assert.equal(up.output.includes("SSL routines"), false, "OpenSSL's error string reaches the user");
      assert.equal(await readChainHeight(network, org.mspId), before, "nothing was committed");
    } finally {
      await stack.dispose();
    }
  });

  it("reads a transaction, a query and the height through mutual TLS, and is refused without a certificate", async () => {
    const committed = await submit(network, "Org1MSP", "CreateAsset", [`mtls-read-${path.basename(dir)}`, "amber"]);
    const settings = {
      gateway: {
        address: org.gatewayAddress,
        tlsRootCertPem: org.tlsRootCertPem,
        serverNameOverride: org.tlsServerName,
      },
      channel: network.channel,
      identity: org.client,
      trustedRootCertificates: network.caCertificates,
      txId: committed.txId,
      query: { chaincode: network.chaincode, function: "ReadAsset", args: [`mtls-read-${path.basename(dir)}`] },
    };
    const project = writeLedgerReadsProject({
      ...settings,
      clientTls: { certificatePem: org.client.tlsCertificatePem, privateKeyPem: org.client.tlsPrivateKeyPem },
    });
    const stack = await initProjectStack({ projectDir: project.dir, config: project.config });
    try {
      const preview = await stack.preview();
      const outputs = previewOutputs(preview.events);
      assert.deepEqual(outputs["transaction"], {
        validationCode: "VALID",
        validationCodeNumber: 0,
        blockNumber: committed.status.blockNumber.toString(),
        creator: "Org1MSP",
        chaincode: network.chaincode,
        function: "CreateAsset",
        args: [`mtls-read-${path.basename(dir)}`, "amber"],
        writes: [`${network.chaincode}:mtls-read-${path.basename(dir)}=amber`],
        endorsers: ["Org1MSP", "Org2MSP"],
        verified: true,
      });
      assert.deepEqual(outputs["query"], { text: "amber", base64: Buffer.from("amber").toString("base64") });
      assert.equal(
        (outputs["chainInfo"] as { height: string }).height,
        (await readChainHeight(network, org.mspId)).toString(),
      );
      assert.deepEqual(
        findSecretsDecoded(preview.output, privateKeyForms("client TLS key", org.client.tlsPrivateKeyPem)),
        [],
      );

      await stack.run(["config", "rm", "clientCertPem"]);
      const refused = await stack.preview({ allowFailure: true });
      assert.notEqual(refused.code, 0);
      assert.match(refused.output, new RegExp(`ledger\\.(getTransaction|evaluate|getChainInfo): ${REFUSED.source}`));
    } finally {
      await stack.dispose();
      project.remove();
    }
  });
});
