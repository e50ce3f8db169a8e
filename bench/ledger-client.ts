/**
 * Our gateway client as the ledger benchmarks use it: Org1's client identity through Org1's gateway peer over TLS,
 * trusting every organization's CA (verify-before-sign on). Shared by the in-process real-network benchmark
 * (ledger-submit-real.ts) and the scale benchmark's script process (ledger-scale-script.ts).
 */
import { connect, newIdentity, newPrivateKeySigner, type Gateway } from "../provider/ledger";
import type { FabricNetwork } from "../sandbox/fabric-network";

export function ourOrg1Client(network: FabricNetwork): Gateway {
  const org = network.organization("Org1MSP");
  return connect({
    address: org.gatewayAddress,
    tls: { rootCertificates: org.tlsRootCertPem, serverNameOverride: org.tlsServerName },
    identity: newIdentity(org.client.mspId, org.client.certificatePem),
    signer: newPrivateKeySigner(org.client.privateKeyPem),
    trustedMsps: Object.entries(network.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
  });
}
