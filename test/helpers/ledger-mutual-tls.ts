/**
 * examples/ledger straight to a gateway peer that requires client TLS certificates (a target started with
 * `clientAuth`; test/e2e/ledger-key-types-fabric.test.ts on Fabric 3.1.5), bypassing the gateway proxy so that the
 * peer itself judges the client certificate: VALID with the organization's client TLS certificate and its key by file
 * (the reference in state, the key nowhere), and a certificate from a CA outside the peer's client TLS roots refused
 * by the peer's handshake, with the message naming gateway.clientCertPem, and nothing committed.
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { createRootCa, issueCertificate, privateKeyPem } from "../../sandbox/fabric/certificates";
import { componentStack, directGatewayConfig, uniqueKey } from "./ledger-component";
import type { ComponentTarget } from "./ledger-component";
import { findSecrets, privateKeyForms } from "./secrets-scan";

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
export async function commitsOverMutualTls(t: ComponentTarget, mspId: string): Promise<void> {
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
    assert.deepEqual(findSecrets([state, up.output].join("\n"), forms), []);
  } finally {
    await stack.dispose();
  }
}

/**
 * As `mspId`'s client, with a client TLS certificate issued by a CA of the test's own (no peer's client TLS root):
 * the real peer refuses the handshake (`unknown ca`); `up` fails naming gateway.clientCertPem and the fix, having sent
 * nothing, and nothing is committed. The certificate's key is written under `dir`. (A preview that endorses reports
 * the refusal through the same function, ledger-client-tls.ts's clientTlsRefusal, as a check failure of
 * gateway.clientCertPem: test/e2e/ledger-mutual-tls.test.ts shows it for a missing certificate.)
 */
export async function refusesUntrustedClientCertificate(t: ComponentTarget, mspId: string, dir: string): Promise<void> {
  const org = mutualTlsOrganization(t, mspId);
  const outsider = createRootCa({ commonName: "tlsca.outsider.test", organization: "Outsider" });
  const cert = issueCertificate(outsider, { subject: { commonName: "User1@outsider.test", organization: "Outsider" } });
  const keyFile = path.join(dir, "outsider-tls.key");
  fs.writeFileSync(keyFile, privateKeyPem(cert.privateKey), { mode: 0o600 });
  const height = await t.reader.height();
  const stack = await componentStack(t, {
    fn: "CreateAsset",
    args: [uniqueKey("outsider"), "teal"],
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
    assert.equal(await t.reader.height(), height, "nothing was committed");
  } finally {
    await stack.dispose();
  }
}
