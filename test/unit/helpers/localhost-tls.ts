import { createRootCa, issueCertificate, privateKeyPem } from "../../../sandbox/fabric/certificates";

/** A fresh TLS root and a server certificate for "localhost" it signed, for a unit test's servers on 127.0.0.1. */
export function localhostTls(rootCommonName: string): { caPem: string; cert: string; key: string } {
  const ca = createRootCa({ commonName: rootCommonName, organization: "OpsLedger tests" });
  const cert = issueCertificate(ca, {
    subject: { commonName: "localhost", organization: "OpsLedger tests" },
    dnsNames: ["localhost"],
  });
  return { caPem: ca.certificatePem, cert: cert.certificatePem, key: privateKeyPem(cert.privateKey) };
}
