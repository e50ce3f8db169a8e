import assert from "node:assert/strict";
import * as util from "node:util";
import * as grpc from "@grpc/grpc-js";
import { ConfigError } from "../../../provider/errors/config-error";
import { ValidationError } from "../../../provider/errors/validation-error";
import { CommitError } from "../../../provider/errors/ledger/commit-error";
import { CommitStatusError } from "../../../provider/errors/ledger/commit-status-error";
import { EndorseError } from "../../../provider/errors/ledger/endorse-error";
import { connect, isTransactionNotFound } from "../../../provider/ledger/gateway-client";
import type { ConnectOptions, Gateway } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { LedgerError } from "../../../provider/errors/ledger/ledger-error";
import { VerificationError } from "../../../provider/errors/ledger/verification-error";
import { startFakeGateway } from "./fake-gateway";
import type { FakeGateway } from "./fake-gateway";
import { newMember, newOrg, newTlsServerCertificate, NOW } from "./fixtures";
import type { TestOrg } from "./fixtures";
import type { TestMember } from "./fixtures";

const text = (b: Uint8Array): string => new TextDecoder().decode(b);

describe("Gateway client (against a scripted gateway on 127.0.0.1)", () => {
  let client: TestMember;
  let org1: TestOrg;
  let endorsers: TestMember[];
  let trustedMsps: ConnectOptions["trustedMsps"];
  let fake: FakeGateway;
  let gateway: Gateway;
  const request = {
    channelId: "mychannel",
    chaincodeName: "basic",
    functionName: "CreateAsset",
    args: ["asset1", "blue"],
  };

  before(async () => {
    org1 = await newOrg("Org1MSP");
    const org2 = await newOrg("Org2MSP");
    client = await newMember(org1, "client");
    endorsers = [await newMember(org1, "peer0"), await newMember(org2, "peer0")];
    trustedMsps = [
      { mspId: "Org1MSP", rootCertificates: [org1.caPem] },
      { mspId: "Org2MSP", rootCertificates: [org2.caPem] },
    ];
  });

  beforeEach(async () => {
    fake = await startFakeGateway({ endorsers });
    gateway = connect({
      address: fake.address,
      identity: client.identity,
      signer: client.signer,
      trustedMsps,
      now: NOW,
    });
  });

  afterEach(async () => {
    gateway.close();
    await fake.close();
  });

  it("submits: Endorse, verify, Submit, CommitStatus, each with a valid low-S signature", async () => {
    const result = await gateway.submitTransaction(request);
    assert.equal(text(result.result), "result of CreateAsset");
    assert.deepEqual(result.status, {
      transactionId: result.transactionId,
      code: 0,
      codeName: "VALID",
      successful: true,
      blockNumber: 7n,
    });
    assert.deepEqual(
      fake.calls,
      ["Endorse", "Submit", "CommitStatus"].map((method) => ({
        method,
        transactionId: result.transactionId,
        signatureValid: true,
      })),
    );
    assert.deepEqual(
      result.verification?.endorsers.map((e) => e.mspId),
      ["Org1MSP", "Org2MSP"],
    );
  });

  it("gives any other Signer (HSM, KMS) the digests, and signs with our own signer's fast path otherwise", async () => {
    const digests: Uint8Array[] = [];
    const external = connect({
      address: fake.address,
      identity: client.identity,
      signer: (digest) => {
        digests.push(digest);
        return client.signer(digest);
      },
      trustedMsps,
      now: NOW,
    });
    try {
      await external.submitTransaction(request);
    } finally {
      external.close();
    }
    assert.equal(digests.length, 3);
    assert.ok(digests.every((d) => d.length === 32));
    assert.ok(fake.calls.every((c) => c.signatureValid));
    const fast = await gateway.submitTransaction(request);
    assert.deepEqual(
      fake.calls.slice(3).map((c) => [c.method, c.transactionId, c.signatureValid]),
      ["Endorse", "Submit", "CommitStatus"].map((method) => [method, fast.transactionId, true]),
    );
    assert.equal(digests.length, 3);
  });

  it("refuses to sign a tampered prepared transaction and never submits it", async () => {
    fake.options.tamper = (built) => ({
      actionHeader: built.signatureHeader.subarray(0, built.signatureHeader.length - 1),
    });
    await assert.rejects(
      gateway.submitTransaction(request),
      (e: unknown) => e instanceof VerificationError && e.mismatch === "malformed",
    );
    fake.options.tamper = () => ({ chaincodeProposalPayload: new Uint8Array([0x0a, 0x00]) });
    await assert.rejects(
      gateway.submitTransaction(request),
      (e: unknown) => e instanceof VerificationError && e.mismatch === "chaincode" && e.validationCode === 5,
    );
    assert.deepEqual(
      fake.calls.map((c) => c.method),
      ["Endorse", "Endorse"],
    );
  });

  it("surfaces the gateway's per-endorser ErrorDetail from grpc-status-details-bin", async () => {
    fake.options.endorseFailure = {
      code: grpc.status.ABORTED,
      detail: { address: "peer0.org2:7051", mspId: "Org2MSP", message: "chaincode response 500, boom" },
    };
    const proposal = gateway.newProposal(request);
    await assert.rejects(proposal.endorse(), (e: unknown) => {
      assert.ok(e instanceof EndorseError);
      assert.equal(e.code, grpc.status.ABORTED);
      assert.equal(e.transactionId, proposal.getTransactionId());
      assert.deepEqual(e.details, [
        { address: "peer0.org2:7051", mspId: "Org2MSP", message: "chaincode response 500, boom" },
      ]);
      assert.equal(
        e.message,
        "/gateway.Gateway/Endorse failed (gRPC 10): failed to endorse transaction [Org2MSP@peer0.org2:7051: chaincode response 500, boom]",
      );
      return true;
    });
  });

  it("rejects with CommitError naming the validation code when the commit is not VALID", async () => {
    fake.options.commitResult = 11;
    await assert.rejects(gateway.submitTransaction(request), (e: unknown) => {
      assert.ok(e instanceof CommitError);
      assert.deepEqual([e.validationCode, e.validationCodeName, e.blockNumber], [11, "MVCC_READ_CONFLICT", 7n]);
      assert.match(
        e.message,
        /failed to commit with status code 11 \(MVCC_READ_CONFLICT\): a key read during simulation/,
      );
      return true;
    });
  });

  it("evaluates and fetches committed transactions with qscc GetTransactionByID", async () => {
    assert.equal(
      text(await gateway.evaluateTransaction({ ...request, functionName: "ReadAsset", args: ["asset1"] })),
      "evaluated ReadAsset asset1",
    );
    const { transactionId } = await gateway.submitTransaction(request);
    const processed = await gateway.getTransactionById("mychannel", transactionId);
    assert.equal(processed.validationCode, 0);
    assert.equal(processed.transactionEnvelope?.signature.length !== 0, true);
    await assert.rejects(gateway.getTransactionById("mychannel", "f".repeat(64)), (e: unknown) => {
      assert.ok(e instanceof GatewayError);
      assert.equal(e.code, grpc.status.UNKNOWN);
      assert.equal(isTransactionNotFound(e), true);
      return true;
    });
    assert.equal(isTransactionNotFound(new Error("other")), false);
  });

  it("signs offline: digests out, signatures in, the same three signed calls and nothing sent unsigned", async () => {
    const offline = connect({ address: fake.address, identity: client.identity, trustedMsps, now: NOW });
    try {
      const unsigned = offline.newProposal(request);
      await assert.rejects(
        unsigned.endorse(),
        (e: unknown) => e instanceof LedgerError && /^No signer configured to sign the proposal/.test(e.message),
      );
      const proposal = offline.newSignedProposal(unsigned.getBytes(), await client.signer(unsigned.getDigest()));
      const prepared = await proposal.endorse();
      const transaction = offline.newSignedTransaction(prepared.getBytes(), await client.signer(prepared.getDigest()));
      assert.equal(text(transaction.getResult()), "result of CreateAsset");
      const pending = await transaction.submit();
      const commit = offline.newSignedCommit(pending.getBytes(), await client.signer(pending.getDigest()));
      assert.equal((await commit.getStatus()).successful, true);
      assert.deepEqual(
        fake.calls.map((c) => [c.method, c.signatureValid, c.transactionId]),
        ["Endorse", "Submit", "CommitStatus"].map((m) => [m, true, proposal.getTransactionId()]),
      );
    } finally {
      offline.close();
    }
  });

  it("uses the deadline supplier of each call", async () => {
    let supplied = 0;
    const expired = connect({
      address: fake.address,
      identity: client.identity,
      signer: client.signer,
      trustedMsps,
      now: NOW,
      commitStatusOptions: () => {
        supplied++;
        return { deadline: Date.now() - 1 };
      },
    });
    try {
      await assert.rejects(
        expired.getCommitStatus("mychannel", "a".repeat(64)),
        (e: unknown) => e instanceof CommitStatusError && e.code === 4 /* DEADLINE_EXCEEDED */,
      );
      assert.equal(supplied, 1);
      assert.deepEqual(fake.calls, []);
    } finally {
      expired.close();
    }
  });

  it("allows non-full visibility only against a gateway declared to support it", async () => {
    assert.throws(
      () => gateway.newProposal({ ...request, visibility: "hash" }),
      (e: unknown) =>
        e instanceof ValidationError && /'hash' requires a gateway declared to support it/.test(e.message),
    );
    const declared = connect({
      address: fake.address,
      identity: client.identity,
      signer: client.signer,
      trustedMsps,
      now: NOW,
      supportedVisibility: ["full", "hash"],
    });
    try {
      const result = await declared.submitTransaction({ ...request, visibility: "hash" });
      assert.equal(result.verification?.visibility, "hash");
    } finally {
      declared.close();
    }
  });

  it("connects over TLS with the gateway's CA and a server name override", async () => {
    const { certPem, keyPem } = await newTlsServerCertificate(org1);
    const credentials = grpc.ServerCredentials.createSsl(null, [
      { private_key: Buffer.from(keyPem), cert_chain: Buffer.from(certPem) },
    ]);
    const tlsFake = await startFakeGateway({ endorsers, credentials });
    const address = tlsFake.address;
    const secure = connect({
      address,
      tls: { rootCertificates: org1.caPem, serverNameOverride: "gateway.local" },
      identity: client.identity,
      signer: client.signer,
      trustedMsps,
      now: NOW,
    });
    const untrusting = connect({
      address,
      tls: { rootCertificates: (await newOrg("Other")).caPem, serverNameOverride: "gateway.local" },
      identity: client.identity,
      signer: client.signer,
      trustedMsps,
      now: NOW,
    });
    try {
      assert.equal((await secure.submitTransaction(request)).status.successful, true);
      await assert.rejects(
        untrusting.evaluateTransaction(request),
        (e: unknown) => e instanceof GatewayError && e.code === 14 /* UNAVAILABLE */,
      );
      assert.deepEqual(
        tlsFake.calls.map((c) => c.method),
        ["Endorse", "Submit", "CommitStatus"],
      );
    } finally {
      secure.close();
      untrusting.close();
      await tlsFake.close();
    }
  });

  it("keeps the signer, options and transient payload out of util.inspect", () => {
    const proposal = gateway.newProposal({ ...request, transientData: { secret: "s3cr3t" } });
    assert.equal(util.inspect(proposal, { depth: 10, showHidden: true }), "ProposalImpl {}");
    assert.equal(util.inspect(gateway, { depth: 10, showHidden: true }), "GatewayImpl {}");
  });

  it("refuses insecure connections to non-loopback addresses and half-configured mutual TLS", () => {
    const base = { identity: client.identity, trustedMsps };
    assert.throws(
      () => connect({ ...base, address: "peer0.example.com:7051" }),
      (e: unknown) => e instanceof ConfigError && e.setting === "gateway.tls",
    );
    assert.throws(
      () => connect({ ...base, address: "peer0:7051", tls: { rootCertificates: "x", clientCertificate: "y" } }),
      (e: unknown) =>
        e instanceof ConfigError &&
        e.message === "gateway.tls: clientCertificate and clientPrivateKey must be set together",
    );
    assert.throws(
      () => connect(base),
      (e: unknown) => e instanceof ConfigError && e.setting === "gateway.address",
    );
  });
});
