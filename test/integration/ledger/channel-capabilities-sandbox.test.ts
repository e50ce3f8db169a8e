/**
 * The channel's capabilities read from the channel, on the Fabric sandbox, behind a gateway proxy that records every
 * call: the channel's capabilities are read from the channel (qscc GetChainInfo, GetBlockByNumber of the newest block,
 * then of the last configuration block it names) with the resource's own identity, once per network and channel in the
 * process. On a V3_0 channel an Ed25519 identity passes the component's check with no setting and commits VALID; on a
 * channel without V3_0 it is refused at check, at create and by the read data sources with nothing but that read sent
 * (no Endorse, no Submit), naming what the channel answered; `channelCapability` is an assertion, and when it disagrees
 * with the channel the failure names both. An identity the channel's Readers policy refuses (an orderer's) cannot read
 * the configuration: said so, and the assertion is used instead.
 */
import { strict as assert } from "node:assert";
import { generateKeyPairSync } from "node:crypto";
import {
  forgetChannelCapabilities,
  readChannelCapabilities,
  resolveChannelCapabilities,
} from "../../../provider/ledger/channel-capabilities";
import { connect } from "../../../provider/ledger/gateway-client";
import { newIdentity } from "../../../provider/ledger/identity";
import { newPrivateKeySigner } from "../../../provider/ledger/signing";
import { ValidationError } from "../../../provider/errors";
import { readLedgerChainInfo } from "../../../provider/resources/ledger/ledger-reads";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import { startFabricSandbox, type FabricSandbox, type SandboxIdentity } from "../../../sandbox/fabric";
import { createRootCa, issueCertificate, privateKeyPem } from "../../../sandbox/fabric/certificates";
import { GATEWAY, startGatewayProxy, type GatewayProxy } from "../../helpers/gateway-proxy";
import { failure } from "./helpers";
import type { LedgerTransactionInputs } from "../../../provider/resources/ledger/ledger-transaction-inputs";

const URN =
  "urn:pulumi:dev::caps::opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission::asset";
const PROXY_HOST = "gateway.capabilities.test";

interface Target {
  readonly sandbox: FabricSandbox;
  readonly proxy: GatewayProxy;
  readonly gateway: { address: string; tlsRootCertPem: string; serverNameOverride: string };
}

async function startTarget(channelCapability: "V2_0" | "V3_0"): Promise<Target> {
  const sandbox = await startFabricSandbox({
    organizations: ["Org1MSP", "Org2MSP"],
    organizationKeyTypes: channelCapability === "V3_0" ? { Org2MSP: "ed25519" } : {},
    endorsementPolicy: "any",
    channelCapability,
    tls: true,
  });
  const ca = createRootCa({ commonName: "tlsca.capabilities.test", organization: "OpsLedger tests" });
  const server = issueCertificate(ca, {
    subject: { commonName: PROXY_HOST, organization: "OpsLedger tests" },
    dnsNames: [PROXY_HOST],
  });
  const proxy = await startGatewayProxy({
    upstream: { address: sandbox.address, tlsRootCertPem: sandbox.tlsRootCertPem ?? "", serverName: "localhost" },
    serverTls: { certificatePem: server.certificatePem, privateKeyPem: privateKeyPem(server.privateKey) },
  });
  return {
    sandbox,
    proxy,
    gateway: { address: proxy.address, tlsRootCertPem: ca.certificatePem, serverNameOverride: PROXY_HOST },
  };
}

/** An Ed25519 client certificate from `mspId`'s CA (the organization's own keys stay as they are). */
function ed25519Client(t: Target, mspId: string): SandboxIdentity {
  const keys = generateKeyPairSync("ed25519");
  const publicKeyPem = keys.publicKey.export({ type: "spki", format: "pem" }).toString();
  const { certificatePem } = t.sandbox.enrollPublicKey(mspId, publicKeyPem, "Ed25519User");
  return { mspId, certificatePem, privateKeyPem: keys.privateKey.export({ type: "pkcs8", format: "pem" }).toString() };
}

function inputs(
  t: Target,
  identity: SandboxIdentity,
  extra: Partial<LedgerTransactionInputs> = {},
): LedgerTransactionInputs {
  return {
    __urn: URN,
    gateway: t.gateway,
    channel: t.sandbox.channel,
    chaincode: t.sandbox.chaincode,
    function: "PutAsset",
    args: [`asset-${identity.certificatePem.length}-${Math.random().toString(16).slice(2)}`, "blue"],
    identity,
    trustedRootCertificates: t.sandbox.caCertificates,
    ...extra,
  };
}

const paths = (t: Target, mark: number): string[] => t.proxy.paths(mark);
const EVALUATES = (n: number): string[] => Array.from({ length: n }, () => GATEWAY.evaluate);

describe("channel capabilities read from the channel (Fabric sandbox)", function () {
  this.timeout(60_000);
  let v3: Target;
  let v2: Target;

  before(async () => {
    [v3, v2] = await Promise.all([startTarget("V3_0"), startTarget("V2_0")]);
  });
  after(async () => {
    for (const t of [v3, v2]) {
      await t.proxy.close();
      await t.sandbox.close();
    }
  });
  beforeEach(() => {
    forgetChannelCapabilities();
  });

  it("reads each channel's capabilities from its last configuration block, which the newest block names", async () => {
    for (const [t, level] of [
      [v3, "V3_0"],
      [v2, "V2_0"],
    ] as const) {
      const client = t.sandbox.newClientIdentity("Org1MSP");
      const gateway = connect({
        address: t.gateway.address,
        tls: { rootCertificates: t.gateway.tlsRootCertPem, serverNameOverride: PROXY_HOST },
        identity: newIdentity(client.mspId, client.certificatePem),
        signer: newPrivateKeySigner(client.privateKeyPem),
        trustedMsps: Object.entries(t.sandbox.caCertificates).map(([mspId, pem]) => ({
          mspId,
          rootCertificates: [pem],
        })),
      });
      try {
        const expected = {
          channel: t.sandbox.channel,
          channelGroup: [level],
          application: ["V2_5"],
          orderer: ["V2_0"],
          configBlock: 0n,
          level,
        };
        let mark = t.proxy.calls.length;
        assert.deepEqual(await readChannelCapabilities(gateway, t.sandbox.channel), expected);
        assert.deepEqual(paths(t, mark), EVALUATES(2), "GetChainInfo, then block 0: the newest is the config block");
        await gateway.submitTransaction({
          channelId: t.sandbox.channel,
          chaincodeName: t.sandbox.chaincode,
          functionName: "PutAsset",
          args: [`read-${level}`, "blue"],
        });
        mark = t.proxy.calls.length;
        assert.deepEqual(await readChannelCapabilities(gateway, t.sandbox.channel), expected);
        const fns = t.proxy.calls.slice(mark).map((c) => c.path);
        assert.deepEqual(fns, EVALUATES(3), "GetChainInfo, the newest block (1), then block 0 it names");
      } finally {
        gateway.close();
      }
    }
  });

  it("V3_0: an Ed25519 identity needs no setting — check reads once per process, create commits VALID", async () => {
    const ed = ed25519Client(v3, "Org1MSP");
    const news = inputs(v3, ed);
    let mark = v3.proxy.calls.length;
    const checked = await ledgerTransactionProvider.check({}, news);
    assert.equal(checked.failures, undefined, JSON.stringify(checked.failures));
    // The capability read only (GetChainInfo, the newest block, block 0 it names): nothing endorsed.
    assert.deepEqual(paths(v3, mark), EVALUATES(3));
    mark = v3.proxy.calls.length;
    const again = await ledgerTransactionProvider.check({}, news);
    assert.equal(again.failures, undefined);
    assert.deepEqual(paths(v3, mark), [], "cached for the network and channel");
    const created = await ledgerTransactionProvider.create(checked.inputs as LedgerTransactionInputs);
    assert.equal((created.outs as { validationCode: string }).validationCode, "VALID");
  });

  it("V3_0: concurrent checks of many resources share one read of the channel's capabilities", async () => {
    const mark = v3.proxy.calls.length;
    const checks = await Promise.all(
      Array.from({ length: 8 }, () => ledgerTransactionProvider.check({}, inputs(v3, ed25519Client(v3, "Org1MSP")))),
    );
    assert.deepEqual(
      checks.map((c) => c.failures),
      checks.map(() => undefined),
    );
    assert.deepEqual(paths(v3, mark), EVALUATES(3), "one read: GetChainInfo, the newest block, block 0");
  });

  it("V3_0: an assertion of V2_0 disagrees with the channel, and the failure names both", async () => {
    const checked = await ledgerTransactionProvider.check(
      {},
      inputs(v3, v3.sandbox.newClientIdentity("Org1MSP"), { channelCapability: "V2_0" }),
    );
    assert.deepEqual(checked.failures, [
      {
        property: "channelCapability",
        reason:
          "says V2_0, but channel 'opsledger' has Channel V3_0, Application V2_5, Orderer V2_0 (configuration block 0): " +
          "remove channelCapability (the channel's own configuration is read) or set it to 'V3_0'",
      },
    ]);
  });

  it("without V3_0: an Ed25519 identity is refused at check, create and reads; only the read was sent", async () => {
    const ed = ed25519Client(v2, "Org1MSP");
    const refused =
      "has an Ed25519 key, and this identity was refused even a read of channel 'opsledger''s configuration (qscc " +
      "GetChainInfo; Fabric: access denied: channel [opsledger] creator org [Org1MSP]): a Fabric 3 peer answers so " +
      "when the channel lacks the capability V3_0, whose MSPs refuse Ed25519 identities ('Ed25519 is not supported'; " +
      "or when the certificate is not one of the organization's). Fabric shows an identity it refuses nothing of the " +
      "channel's configuration, and nothing was endorsed or submitted. Use an ECDSA P-256 or P-384 identity here, or " +
      "a Fabric 3 channel with V3_0";
    const height = v2.sandbox.blocks().length;
    let mark = v2.proxy.calls.length;
    const checked = await ledgerTransactionProvider.check({}, inputs(v2, ed));
    assert.deepEqual(checked.failures, [{ property: "identity.certificatePem", reason: refused }]);
    assert.deepEqual(paths(v2, mark), EVALUATES(1), "GetChainInfo, refused; no Endorse, no Submit");

    mark = v2.proxy.calls.length;
    const created = await failure(ledgerTransactionProvider.create(inputs(v2, ed, { __generation: 1 })));
    assert.equal(String(created), `LedgerError: LedgerTransaction asset: identity.certificatePem ${refused}`);
    const read = await failure(readLedgerChainInfo({ gateway: v2.gateway, channel: v2.sandbox.channel, identity: ed }));
    assert.ok(read instanceof ValidationError, String(read));
    assert.deepEqual(read.failures, [{ property: "identity.certificatePem", reason: refused }]);
    assert.deepEqual(paths(v2, mark), EVALUATES(2), "one refused read each; a refusal is not cached");
    assert.equal(v2.sandbox.blocks().length, height, "nothing was ordered");

    const asserted = await ledgerTransactionProvider.check({}, inputs(v2, ed, { channelCapability: "V3_0" }));
    assert.deepEqual(
      asserted.failures?.map((f) => [f.property, f.reason.slice(0, 61)]),
      [["channelCapability", "says V3_0, but this Ed25519 identity was refused even a read "]],
    );
  });

  it("without V3_0: an assertion of V3_0 names the channel's capabilities; once read, so does an Ed25519 check", async () => {
    const p256 = v2.sandbox.newClientIdentity("Org1MSP");
    const checked = await ledgerTransactionProvider.check({}, inputs(v2, p256, { channelCapability: "V3_0" }));
    assert.deepEqual(checked.failures, [
      {
        property: "channelCapability",
        reason:
          "says V3_0, but channel 'opsledger' has Channel V2_0, Application V2_5, Orderer V2_0 (configuration block 0): " +
          "remove channelCapability (the channel's own configuration is read) or set it to 'V2_0'",
      },
    ]);
    const mark = v2.proxy.calls.length;
    const ed = await ledgerTransactionProvider.check({}, inputs(v2, ed25519Client(v2, "Org1MSP")));
    assert.deepEqual(ed.failures, [
      {
        property: "identity.certificatePem",
        reason:
          "has an Ed25519 key, which Fabric accepts only on a channel with the capability V3_0, and channel 'opsledger' " +
          "has Channel V2_0, Application V2_5, Orderer V2_0 (configuration block 0); nothing was endorsed or submitted. " +
          "Use an ECDSA P-256 or P-384 identity, or enable V3_0 on the channel (Fabric 3 peers and orderers, a channel " +
          "configuration update)",
      },
    ]);
    assert.deepEqual(paths(v2, mark), [], "the process's cached read");
  });

  it("an identity the Readers policy refuses cannot read the configuration: said so, and the assertion is used", async () => {
    const orderer = v3.sandbox.newOrdererIdentity("Org2MSP"); // an Ed25519 key: Org2MSP's organization is Ed25519
    const checked = await ledgerTransactionProvider.check({}, inputs(v3, orderer));
    assert.deepEqual(checked.failures, [
      {
        property: "identity.certificatePem",
        reason:
          "has an Ed25519 key, which Fabric accepts only on a channel with the capability V3_0, and the identity may " +
          "not read channel 'opsledger''s configuration (its Readers policy refused qscc): if 'opsledger' has V3_0, " +
          "set channelCapability: 'V3_0'; otherwise use an ECDSA P-256 or P-384 identity",
      },
    ]);
    const gateway = connect({
      address: v3.gateway.address,
      tls: { rootCertificates: v3.gateway.tlsRootCertPem, serverNameOverride: PROXY_HOST },
      identity: newIdentity(orderer.mspId, orderer.certificatePem),
      signer: newPrivateKeySigner(orderer.privateKeyPem),
      trustedMsps: [],
    });
    try {
      const resolved = await resolveChannelCapabilities(gateway, {
        channelId: v3.sandbox.channel,
        keyType: "ed25519",
        asserted: "V3_0",
        network: "sandbox-v3",
      });
      assert.deepEqual(resolved, {
        level: "V3_0",
        source: "assertion",
        notice:
          "the identity may not read channel 'opsledger''s configuration (its Readers policy refused qscc); using " +
          "channelCapability V3_0 as declared",
      });
    } finally {
      gateway.close();
    }
    const asserted = await ledgerTransactionProvider.check({}, inputs(v3, orderer, { channelCapability: "V3_0" }));
    assert.equal(asserted.failures, undefined, JSON.stringify(asserted.failures));
  });
});
