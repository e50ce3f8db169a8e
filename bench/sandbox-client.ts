import { connect, newIdentity, newPrivateKeySigner, type Gateway } from "../provider/ledger";
import type { FabricSandbox, SandboxIdentity } from "../sandbox/fabric";

/** Our gateway client connected to `sandbox` as `identity`, trusting every organization's root CA. */
export function connectToSandbox(sandbox: FabricSandbox, identity: SandboxIdentity): Gateway {
  return connect({
    address: sandbox.address,
    identity: newIdentity(identity.mspId, identity.certificatePem),
    signer: newPrivateKeySigner(identity.privateKeyPem),
    trustedMsps: Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
  });
}
