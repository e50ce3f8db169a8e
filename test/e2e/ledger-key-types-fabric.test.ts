/**
 * Issue 17 point 1 on a real Fabric 3.1.5 network (one network for the file): Org1's identities are Ed25519 (cryptogen's
 * `PublicKeyAlgorithm: ed25519`, channel capability V3_0), Org2's ECDSA P-384 (certificates issued by the network
 * builder), and the endorsement policy needs both. The LedgerTransaction component, through the plain `pulumi` CLI as
 * the Ed25519 client, commits VALID with an Ed25519 and a P-384 endorsement (read back from the committed
 * transaction); our client commits as the P-384 client too. A tampered endorsement of each key type is refused by our
 * verify-before-sign with the committer's code, and the same change signed by the official client (which checks
 * nothing) is refused by Fabric's committer with that code. `opsledger-ledger verify` passes the committed
 * transaction and its block and fails a tampered copy. Without `channelCapability: V3_0`, preview refuses the Ed25519
 * identity before anything reaches the gateway.
 */
import { strict as assert } from "node:assert";
import { execFile } from "node:child_process";
import { createPrivateKey, sign, X509Certificate, type KeyObject } from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import * as official from "@hyperledger/fabric-gateway";
import { common, msp, peer } from "@hyperledger/fabric-protos";
import { newPrivateKeySigner, VerificationError, type Gateway } from "../../provider/ledger";
import { componentStack, startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { ledgerTargets } from "../helpers/ledger-targets";
import { call, failure, TARGET_TEST_TIMEOUT_MS } from "../integration/ledger-targets/helpers";
import { tamperingClient } from "../integration/ledger-targets/tamper";

const KEY_TYPES = { Org1MSP: "ed25519", Org2MSP: "ecdsa-p384" } as const;
const BIN = path.resolve(__dirname, "..", "..", "..", "bin", "opsledger-ledger.js");

/** "ed25519", "P-256", "P-384": a key as the assertions name it. */
function keyName(key: KeyObject): string {
  if (key.asymmetricKeyType === "ed25519") return "ed25519";
  const curve = key.asymmetricKeyDetails?.namedCurve;
  return curve === "prime256v1" ? "P-256" : curve === "secp384r1" ? "P-384" : String(curve);
}
const certKey = (pem: string | Uint8Array): string => keyName(new X509Certificate(Buffer.from(pem)).publicKey);
const identityKey = (serialized: Uint8Array): string => {
  const id = msp.SerializedIdentity.deserializeBinary(serialized);
  return `${id.getMspid()} ${certKey(id.getIdBytes_asU8())}`;
};

/** The creator and the endorsers of a ProcessedTransaction with their keys, decoded with fabric-protos. */
function signersOf(processed: Uint8Array): { creator: string; endorsers: string[] } {
  const envelope = peer.ProcessedTransaction.deserializeBinary(processed).getTransactionenvelope();
  const none = new Uint8Array(0);
  const payload = common.Payload.deserializeBinary(envelope?.getPayload_asU8() ?? none);
  const signature = common.SignatureHeader.deserializeBinary(payload.getHeader()?.getSignatureHeader_asU8() ?? none);
  const action = peer.Transaction.deserializeBinary(payload.getData_asU8()).getActionsList()[0];
  const endorsed = peer.ChaincodeActionPayload.deserializeBinary(action?.getPayload_asU8() ?? none).getAction();
  return {
    creator: identityKey(signature.getCreator_asU8()),
    endorsers: (endorsed?.getEndorsementsList() ?? []).map((e) => identityKey(e.getEndorser_asU8())).sort(),
  };
}

/**
 * A copy of a ProcessedTransaction whose endorsement by `mspId` has one signature bit flipped, the envelope signed
 * again by the creator's Ed25519 key (else the creator's signature, checked first, would fail).
 */
function tamperedCopy(processed: Uint8Array, mspId: string, creatorKeyPem: string): Uint8Array {
  const tx = peer.ProcessedTransaction.deserializeBinary(processed);
  const envelope = tx.getTransactionenvelope();
  assert.ok(envelope !== undefined);
  const payload = common.Payload.deserializeBinary(envelope.getPayload_asU8());
  const transaction = peer.Transaction.deserializeBinary(payload.getData_asU8());
  const action = transaction.getActionsList()[0];
  assert.ok(action !== undefined);
  const actionPayload = peer.ChaincodeActionPayload.deserializeBinary(action.getPayload_asU8());
  const endorsed = actionPayload.getAction();
  const endorsement = endorsed
    ?.getEndorsementsList()
    .find((e) => msp.SerializedIdentity.deserializeBinary(e.getEndorser_asU8()).getMspid() === mspId);
  assert.ok(endorsed !== undefined && endorsement !== undefined);
  const signature = Buffer.from(endorsement.getSignature_asU8());
  signature[10] = (signature[10] ?? 0) ^ 0x01;
  endorsement.setSignature(signature);
  actionPayload.setAction(endorsed);
  action.setPayload(actionPayload.serializeBinary());
  payload.setData(transaction.serializeBinary());
  const payloadBytes = payload.serializeBinary();
  envelope.setPayload(payloadBytes);
  envelope.setSignature(sign(null, payloadBytes, createPrivateKey(creatorKeyPem)));
  tx.setTransactionenvelope(envelope);
  return tx.serializeBinary();
}

interface CliRun {
  readonly code: number;
  readonly json: Record<string, unknown>;
}

/** bin/opsledger-ledger as a user runs it. */
function cli(args: readonly string[]): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [BIN, ...args], { maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
      try {
        resolve({ code, json: JSON.parse(stdout) as Record<string, unknown> });
      } catch {
        reject(new Error(`opsledger-ledger ${args.join(" ")} exited ${String(code)}: ${stderr}`));
      }
    });
  });
}

const fabric315 = ledgerTargets(["3.1.5"]).find((t) => t.label === "Fabric 3.1.5");

describe("ledger key types on real Fabric 3.1.5: an Ed25519 organization and a P-384 organization", function () {
  this.timeout(TARGET_TEST_TIMEOUT_MS);
  let t: ComponentTarget;
  let gateway: Gateway;
  let dir: string;
  let trusted: string[];

  before(async function () {
    this.timeout(300_000);
    assert.ok(fabric315 !== undefined);
    t = await startComponentTarget(fabric315, { keyTypes: KEY_TYPES });
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
    const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "blue"], channelCapability: "V3_0" });
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
      const passed = await cli(["verify", save("tx.bin", processed), ...trusted]);
      assert.deepEqual(
        [passed.code, passed.json.ok, passed.json.transactionId, passed.json.chainsVerified],
        [0, true, txId, true],
        JSON.stringify(passed.json),
      );
      const block = await cli([
        "verify",
        save("block.bin", await t.ledger.readBlock(BigInt(String(o["ledgerBlockNumber"])))),
        ...trusted,
      ]);
      assert.deepEqual([block.code, block.json.ok], [0, true], JSON.stringify(block.json));
      for (const mspId of ["Org1MSP", "Org2MSP"]) {
        const refused = await cli([
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

  it("refuses the Ed25519 identity in preview when the channel's V3_0 is not declared, sending nothing", async () => {
    const stack = await componentStack(t, { fn: "CreateAsset", args: [uniqueKey("v2"), "blue"] });
    try {
      const mark = t.proxy.calls.length;
      const failed = await stack.preview({ allowFailure: true });
      assert.notEqual(failed.code, 0);
      assert.match(
        failed.output,
        /property identity\.certificatePem value .*has a problem: has an Ed25519 key, which Fabric accepts only from 3\.0 on, on a channel with the channel capability V3_0/,
      );
      assert.match(failed.output, /set channelCapability: 'V3_0'; otherwise use an ECDSA P-256 or P-384 identity/);
      assert.deepEqual(t.proxy.paths(mark), [], "nothing reached the gateway");
    } finally {
      await stack.dispose();
    }
  });
});
