/**
 * Ed25519 and ECDSA P-384 identities on a real Fabric 3.1.5 network (the run's shared network of that kind,
 * test/helpers/fabric-network-fixture.ts; test/e2e/ledger-capabilities-fabric.test.ts uses it too): Org1's identities are
 * Ed25519 (cryptogen's `PublicKeyAlgorithm: ed25519`, channel capability V3_0), Org2's ECDSA P-384 (certificates issued
 * by the network builder), and the endorsement policy needs both. The LedgerTransaction component, through the plain
 * `pulumi` CLI as the Ed25519 client, commits VALID with an Ed25519 and a P-384 endorsement (read back from the
 * committed transaction); our client commits as the P-384 client too. A tampered endorsement of each key type is
 * refused by our verify-before-sign with the committer's code, and the same change signed by the official client (which
 * checks nothing) is refused by Fabric's committer with that code. `opsledger-ledger verify` passes the committed
 * transaction and its block and fails a tampered copy. No `channelCapability` is set: the provider reads the channel's
 * capabilities from the channel (docs/decisions/0045-channel-capabilities-read-from-the-channel.md; the Ed25519 client
 * through the plugin, an assertion of V2_0, and the same identities on Fabric 2.5.16: ledger-capabilities-fabric.test.ts).
 *
 * Every signer backend that has the key type commits VALID on the same network, through the CLI, with a client
 * certificate the test has the organization's CA issue for the backend's public key: a SoftHSM2 token's Ed25519 key
 * (CKM_EDDSA, pure) as Org1's client and its P-384 key (CKM_ECDSA over the SHA-256 digest) as Org2's; the Google
 * sandbox's Cloud KMS EC_SIGN_ED25519 (`data`: the message) and EC_SIGN_P384_SHA384 key versions. KMS has no P-384
 * algorithm over SHA-256, and Fabric verifies P-384 over SHA-256 only: KMS hashing `data` itself (SHA-384) cannot make a
 * signature Fabric accepts, so the signer sends the SHA-256 digest in digest.sha384, zero-padded to 48 bytes (the same
 * integer: ECDSA over SHA-256; provider/resources/ledger/session/kms-signer.ts).
 *
 * The network's peers require client TLS certificates (`clientAuth`, mutual TLS on 3.1.5): every test above
 * reaches them over mutual TLS (the gateway proxy and the test's clients present the organization's client TLS
 * certificate; Org1's is Ed25519). Straight to Org1's peer, examples/ledger commits VALID with its Ed25519 client TLS
 * certificate and the key by file; a client certificate from a CA outside the peers' client TLS roots is refused by
 * Org2's peer (alert `unknown ca`), preview and up naming gateway.clientCertPem, nothing committed.
 */
import { strict as assert } from "node:assert";
import { createPrivateKey } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as official from "@hyperledger/fabric-gateway";
import { type Gateway } from "../../provider/ledger/gateway-client";
import { newPrivateKeySigner } from "../../provider/ledger/signing";
import { VerificationError } from "../../provider/errors/ledger/verification-error";
import { createRootCa, issueCertificate, privateKeyPem } from "../../sandbox/fabric/certificates";
import { componentStack, directGatewayConfig, startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { certKey, signersOf, tamperedCopy } from "../helpers/ledger-key-types";
import { openSignerBackend, SIGNER_BACKENDS } from "../helpers/ledger-signer-backends";
import { opsledgerLedger } from "../helpers/opsledger-ledger-cli";
import { findSecretsDecoded, privateKeyForms } from "../helpers/secrets-scan";
import { SHARED_NETWORKS } from "../helpers/fabric-network-fixture";
import { ledgerTargets } from "../helpers/ledger-targets";
import { call, failure } from "../integration/ledger-targets/helpers";
import { tamperingClient } from "../integration/ledger-targets/tamper";

const NETWORK = "3.1.5 Ed25519 and P-384, mutual TLS";
const KEY_TYPES = SHARED_NETWORKS[NETWORK].keyTypes;

/** Per test, as test/e2e/ledger-component.test.ts allows its pulumi runs. */
const E2E_TEST_TIMEOUT_MS = 600_000;

const fabric315 = ledgerTargets(["3.1.5"]).find((t) => t.label === "Fabric 3.1.5");

/** The organization's network entry, which must require client certificates. */
function mutualTlsOrganization(t: ComponentTarget, mspId: string) {
  const org = t.ledger.network?.organization(mspId);
  assert.ok(org?.clientAuthRequired === true, `${mspId}'s peer requires client certificates`);
  return org;
}

/**
 * As `mspId`'s client, straight to its peer over mutual TLS (client TLS key by file): up commits VALID, nothing goes
 * through the proxy; the state holds the key file's path, and no form of the key is in the state or the output.
 * (Preview endorsing over mutual TLS, refresh and destroy: test/e2e/ledger-mutual-tls.test.ts on 2.5.16.)
 */
async function commitsOverMutualTls(t: ComponentTarget, mspId: string): Promise<void> {
  const org = mutualTlsOrganization(t, mspId);
  const mark = t.proxy.calls.length;
  const stack = await componentStack(t, {
    fn: "CreateAsset",
    args: [uniqueKey("mtls"), "teal"],
    identity: t.ledger.client(mspId),
    ...(org.keyType === "ed25519" ? { channelCapability: "V3_0" as const } : {}),
    gateway: {
      ...directGatewayConfig(org),
      ledgerClientCertPem: { value: org.client.tlsCertificatePem },
      ledgerClientKeyFile: { value: org.client.tlsPrivateKeyPath },
    },
  });
  try {
    const up = await stack.up();
    assert.deepEqual([up.outputs["ledgerValidationCode"], up.outputs["ledgerResult"]], ["VALID", "teal"]);
    assert.equal(t.proxy.calls.length, mark, "nothing went through the proxy");
    const state = JSON.stringify(await stack.exportState({ showSecrets: true }));
    assert.ok(state.includes(`"clientKeyFile":${JSON.stringify(org.client.tlsPrivateKeyPath)}`), "the reference");
    const forms = privateKeyForms("client TLS key", org.client.tlsPrivateKeyPem);
    assert.deepEqual(findSecretsDecoded([state, up.output].join("\n"), forms), []);
  } finally {
    await stack.dispose();
  }
}

/**
 * As `mspId`'s client, with a client TLS certificate issued by a CA of the test's own (no peer's client TLS root):
 * the real peer refuses the handshake (`unknown ca`); `up` fails naming gateway.clientCertPem and the fix, having sent
 * nothing, and nothing is committed. The certificate's key is written under `dir`. (A preview that endorses reports
 * the refusal through the same function, clientTlsRefusal in provider/resources/ledger/session/client-tls.ts, as a
 * check failure of gateway.clientCertPem: test/e2e/ledger-mutual-tls.test.ts shows it for a missing certificate.)
 */
async function refusesUntrustedClientCertificate(t: ComponentTarget, mspId: string, dir: string): Promise<void> {
  const org = mutualTlsOrganization(t, mspId);
  const outsider = createRootCa({ commonName: "tlsca.outsider.test", organization: "Outsider" });
  const cert = issueCertificate(outsider, { subject: { commonName: "User1@outsider.test", organization: "Outsider" } });
  const keyFile = path.join(dir, "outsider-tls.key");
  fs.writeFileSync(keyFile, privateKeyPem(cert.privateKey), { mode: 0o600 });
  const height = await t.reader.height();
  const key = uniqueKey("outsider");
  const stack = await componentStack(t, {
    fn: "CreateAsset",
    args: [key, "teal"],
    identity: t.ledger.client(mspId),
    ...(org.keyType === "ed25519" ? { channelCapability: "V3_0" as const } : {}),
    gateway: {
      ...directGatewayConfig(org),
      ledgerClientCertPem: { value: cert.certificatePem },
      ledgerClientKeyFile: { value: keyFile },
    },
  });
  const refused = new RegExp(
    `the gateway peer ${org.gatewayAddress} refused the TLS handshake \\(alert: unknown ca\\): it did not accept ` +
      "gateway\\.clientCertPem; use a client TLS certificate issued by a CA the peer trusts for clients \\(its " +
      "peer\\.tls\\.clientRootCAs, usually your organization's TLS CA\\)",
  );
  try {
    const up = await stack.up({ allowFailure: true });
    assert.notEqual(up.code, 0);
    assert.match(up.output, new RegExp(`LedgerTransaction asset-transaction: ${refused.source}; nothing was sent`));
    assert.equal(up.output.includes("SSL routines"), false, "OpenSSL's error string reaches the user");
    // The network is shared with other files' tests: no transaction naming this stack's key, whatever else grew.
    assert.deepEqual(await t.reader.naming(key, height), [], "nothing was committed");
  } finally {
    await stack.dispose();
  }
}

describe("ledger key types on real Fabric 3.1.5: an Ed25519 organization and a P-384 organization", function () {
  this.timeout(E2E_TEST_TIMEOUT_MS);
  let t: ComponentTarget;
  let gateway: Gateway;
  let dir: string;
  let trusted: string[];

  before(async function () {
    // The shared network may be starting for another file: its start, on a loaded machine, and the proxy.
    this.timeout(900_000);
    assert.ok(fabric315 !== undefined);
    t = await startComponentTarget(fabric315, { shared: NETWORK });
    gateway = t.ledger.connectOurs();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-key-types-"));
    trusted = Object.entries(t.ledger.caCertificates).flatMap(([mspId, pem]) => {
      const file = path.join(dir, `${mspId}.pem`);
      fs.writeFileSync(file, pem);
      return ["--trusted-ca", `${mspId}=${file}`];
    });
  });
  after(async () => {
    gateway.close();
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const save = (name: string, bytes: Uint8Array): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };

  // cryptogen's Users.PublicKeyAlgorithm covers the users it counts, not the organization's Admin, whose key stays
  // P-256 (certified by the Ed25519 CA); the admin only deploys the chaincode here.
  it("has the key types asked for: Org1 Ed25519 (TLS too; cryptogen's admin P-256), Org2 P-384 (TLS P-256)", () => {
    const network = t.ledger.network;
    assert.ok(network !== undefined);
    const keys = network.organizations.map((o) => [
      o.mspId,
      o.keyType,
      certKey(o.caCertificatePem),
      certKey(o.client.certificatePem),
      certKey(o.admin.certificatePem),
      certKey(t.ledger.peer(o.mspId).certificatePem),
      certKey(o.tlsRootCertPem),
    ]);
    assert.deepEqual(keys, [
      ["Org1MSP", "ed25519", "ed25519", "ed25519", "P-256", "ed25519", "ed25519"],
      ["Org2MSP", "ecdsa-p384", "P-384", "P-384", "P-384", "P-384", "P-256"],
    ]);
  });

  it("commits the component VALID as the Ed25519 client, endorsed by the Ed25519 and the P-384 peer", async () => {
    const key = uniqueKey("ed25519");
    const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "blue"] });
    try {
      const up = await stack.up();
      const o = up.outputs;
      assert.deepEqual([o["ledgerValidationCode"], o["ledgerResult"]], ["VALID", "blue"]);
      assert.deepEqual([...(o["ledgerEndorsers"] as string[])].sort(), ["Org1MSP", "Org2MSP"]);
      const txId = String(o["ledgerTxId"]);
      const processed = await t.ledger.qscc("GetTransactionByID", [txId]);
      assert.deepEqual(Buffer.from(String(o["ledgerProcessedTransaction"]), "base64"), Buffer.from(processed));
      assert.deepEqual(signersOf(processed), {
        creator: "Org1MSP ed25519",
        endorsers: ["Org1MSP ed25519", "Org2MSP P-384"],
      });

      // opsledger-ledger verify: the committed transaction and its block pass; a copy with either endorsement's
      // signature changed fails as a committer would judge it.
      const passed = await opsledgerLedger(["verify", save("tx.bin", processed), ...trusted]);
      assert.deepEqual(
        [passed.code, passed.json.ok, passed.json.transactionId, passed.json.chainsVerified],
        [0, true, txId, true],
        JSON.stringify(passed.json),
      );
      const block = await opsledgerLedger([
        "verify",
        save("block.bin", await t.ledger.readBlock(BigInt(String(o["ledgerBlockNumber"])))),
        ...trusted,
      ]);
      assert.deepEqual([block.code, block.json.ok], [0, true], JSON.stringify(block.json));
      for (const mspId of ["Org1MSP", "Org2MSP"]) {
        const refused = await opsledgerLedger([
          "verify",
          save(`tampered-${mspId}.bin`, tamperedCopy(processed, mspId, t.identity.privateKeyPem)),
          ...trusted,
        ]);
        const why = refused.json.failure as { mismatch: string; validationCodeName: string; message: string };
        assert.deepEqual(
          [refused.code, refused.json.ok, why.mismatch, why.validationCodeName],
          [1, false, "endorsementSignature", "ENDORSEMENT_POLICY_FAILURE"],
          JSON.stringify(refused.json),
        );
        assert.match(why.message, new RegExp(`endorsement \\d \\(${mspId}\\)`));
      }
    } finally {
      await stack.dispose();
    }
  });

  it("commits VALID as the P-384 client through our client", async () => {
    const ours = t.ledger.connectOurs({ mspId: "Org2MSP" });
    try {
      const result = await ours.submitTransaction(call(t.ledger, "PutAsset", [uniqueKey("p384"), "green"]));
      assert.equal(result.status.codeName, "VALID");
      assert.deepEqual(signersOf(await t.ledger.qscc("GetTransactionByID", [result.transactionId])), {
        creator: "Org2MSP P-384",
        endorsers: ["Org1MSP ed25519", "Org2MSP P-384"],
      });
    } finally {
      ours.close();
    }
  });

  for (const [mspId, type] of Object.entries(KEY_TYPES)) {
    it(`refuses a tampered ${type} endorsement before signing; Fabric's committer refuses it with code 10`, async () => {
      let active = true;
      const lying = tamperingClient(
        t.ledger.gateway(),
        () => (active ? "endorsementSignature" : undefined),
        (id) => t.ledger.peer(id),
        { endorser: mspId },
      );
      const key = uniqueKey(`tampered-${type}`);
      let signatures = 0;
      const signer = newPrivateKeySigner(t.identity.privateKeyPem);
      const ours = t.ledger.connectOurs({
        overrides: {
          client: lying.client,
          signer: (message) => {
            signatures++;
            return signer(message);
          },
        },
      });
      try {
        const proposal = ours.newProposal(call(t.ledger, "PutAsset", [key, "blue"]));
        const err = await failure(proposal.endorse());
        assert.ok(err instanceof VerificationError, String(err));
        assert.deepEqual(
          [err.mismatch, err.validationCode, err.validationCodeName],
          ["endorsementSignature", 10, "ENDORSEMENT_POLICY_FAILURE"],
        );
        assert.match(
          err.message,
          new RegExp(
            `endorsement \\d \\(${mspId}\\) does not sign this proposal_response_payload: the signature is invalid`,
          ),
        );
        assert.equal(signatures, 1, "only the proposal was signed");

        // The official client signs whatever comes back: Fabric's committer judges the same change.
        const client = t.identity;
        const theirs = official.connect({
          client: lying.client,
          identity: { mspId: client.mspId, credentials: Buffer.from(client.certificatePem) },
          signer: official.signers.newPrivateKeySigner(createPrivateKey(client.privateKeyPem)),
          hash: official.hash.none,
        });
        try {
          const submitted = await theirs
            .getNetwork(t.ledger.channel)
            .getContract(t.ledger.chaincode)
            .submitAsync("PutAsset", { arguments: [key, "blue"] });
          active = false;
          const status = await submitted.getStatus();
          assert.equal(lying.tampered(), 2);
          assert.deepEqual([status.code, status.successful], [10, false]);
          const recorded = await gateway.getTransactionById(t.ledger.channel, submitted.getTransactionId());
          assert.equal(recorded.validationCode, 10, "ENDORSEMENT_POLICY_FAILURE in the committed block");
        } finally {
          theirs.close();
        }
      } finally {
        ours.close();
        lying.client.close();
      }
    });
  }

  for (const [i, b] of SIGNER_BACKENDS.entries()) {
    it(`commits the component VALID signing with ${b.title}, certified by ${b.mspId}'s CA`, async () => {
      const backend = await openSignerBackend(t, b, `${b.kind}-${String(i)}`);
      try {
        const stack = await componentStack(t, {
          fn: "CreateAsset",
          args: [uniqueKey(b.kind), "blue"],
          identity: backend.identity,
        });
        try {
          const { outputs } = await stack.up();
          assert.deepEqual([outputs["ledgerValidationCode"], outputs["ledgerResult"]], ["VALID", "blue"]);
          const processed = await t.ledger.qscc("GetTransactionByID", [String(outputs["ledgerTxId"])]);
          assert.deepEqual(signersOf(processed), {
            creator: b.creator,
            endorsers: ["Org1MSP ed25519", "Org2MSP P-384"],
          });
        } finally {
          await stack.dispose();
        }
      } finally {
        await backend.close();
      }
    });
  }

  // Mutual TLS (the network's peers require client certificates; every other test here goes through it too, the
  // proxy presenting Org1's client TLS certificate): the program straight to the Ed25519 peer, its TLS key by file.
  it("commits VALID straight to the Ed25519 peer over mutual TLS, the client TLS key by file and in no state", () =>
    commitsOverMutualTls(t, "Org1MSP"));
  it("is refused by the peer with a client certificate from a CA outside its TLS roots, naming the field", () =>
    refusesUntrustedClientCertificate(t, "Org2MSP", dir));
});
