/**
 * Signer backends with the key types of test/e2e/ledger-key-types-fabric.test.ts's network: a SoftHSM2 token's key
 * generated inside it (Ed25519 with CKM_EDDSA, P-384 with CKM_ECDSA) and a Cloud KMS key version of the Google sandbox
 * (EC_SIGN_ED25519, EC_SIGN_P384_SHA384), each with a client certificate the organization's real CA issues for the
 * backend's public key, as examples/ledger's signer settings take them.
 */
import { createPublicKey, randomBytes, type KeyObject } from "node:crypto";
import { fixture, startGoogleSandbox } from "../../sandbox/google";
import type { ComponentTarget, ReferencedIdentity } from "./ledger-component";
import { certifyForOrganization } from "./ledger-key-types";
import { endpointConfig } from "./sandbox-config";
import { createSoftHsmToken } from "./softhsm";

/** The environment variable the PKCS#11 stacks read the PIN from (ledgerPkcs11PinEnv). */
const HSM_PIN_ENV = "OPSLEDGER_E2E_HSM_PIN";

/** A signer backend with a key type: as whom it signs, and the key type the committed creator must show. */
export interface SignerBackend {
  readonly title: string;
  readonly mspId: string;
  readonly keyType: "ed25519" | "ecdsa-p384";
  readonly kind: "pkcs11" | "kms";
  /** The creator as test/helpers/ledger-key-types.ts's signersOf names it. */
  readonly creator: string;
}

/** Org1's identities are Ed25519, Org2's P-384: each backend signs as a client of the organization of its key type. */
export const SIGNER_BACKENDS: readonly SignerBackend[] = [
  {
    title: "a SoftHSM2 Ed25519 key (CKM_EDDSA)",
    mspId: "Org1MSP",
    keyType: "ed25519",
    kind: "pkcs11",
    creator: "Org1MSP ed25519",
  },
  {
    title: "a SoftHSM2 P-384 key (CKM_ECDSA)",
    mspId: "Org2MSP",
    keyType: "ecdsa-p384",
    kind: "pkcs11",
    creator: "Org2MSP P-384",
  },
  {
    title: "a Cloud KMS EC_SIGN_ED25519 key version",
    mspId: "Org1MSP",
    keyType: "ed25519",
    kind: "kms",
    creator: "Org1MSP ed25519",
  },
  {
    title: "a Cloud KMS EC_SIGN_P384_SHA384 key version",
    mspId: "Org2MSP",
    keyType: "ecdsa-p384",
    kind: "kms",
    creator: "Org2MSP P-384",
  },
];

/** An identity signing through `b`, certified by its organization's CA; close() removes the token or the sandbox. */
export async function openSignerBackend(
  t: ComponentTarget,
  b: SignerBackend,
  name: string,
): Promise<{ identity: ReferencedIdentity; close(): Promise<void> }> {
  let publicKey: KeyObject;
  let signer: Pick<ReferencedIdentity, "signerConfig" | "env">;
  let close: () => Promise<void>;
  if (b.kind === "pkcs11") {
    const token = createSoftHsmToken(name, `pin-${randomBytes(4).toString("hex")}`);
    close = () => {
      token.dispose();
      return Promise.resolve();
    };
    const id = randomBytes(8);
    publicKey = token.generateKey(b.keyType, id);
    signer = {
      signerConfig: {
        ledgerSigner: { value: "pkcs11" },
        ledgerPkcs11Library: { value: token.library },
        ledgerPkcs11TokenLabel: { value: token.label },
        ledgerPkcs11PinEnv: { value: HSM_PIN_ENV },
        ledgerPkcs11KeyId: { value: id.toString("hex") },
      },
      env: { ...token.env, [HSM_PIN_ENV]: token.pin },
    };
  } else {
    const google = await startGoogleSandbox();
    close = () => google.close();
    const version = `${fixture.FIXTURE_KMS_CRYPTO_KEY}/cryptoKeyVersions/2`;
    const algorithm = b.keyType === "ed25519" ? "EC_SIGN_ED25519" : "EC_SIGN_P384_SHA384";
    publicKey = createPublicKey(google.createKmsKeyVersion(version, algorithm));
    signer = {
      signerConfig: {
        ...endpointConfig(google),
        "opsledger:credentials": { value: JSON.stringify(google.serviceAccountKey(fixture.DEPLOYER)), secret: true },
        ledgerSigner: { value: "kms" },
        ledgerKmsCryptoKeyVersion: { value: version },
      },
    };
  }
  try {
    const certificatePem = await certifyForOrganization(t, b.mspId, publicKey, name);
    return { identity: { mspId: b.mspId, certificatePem, ...signer }, close };
  } catch (error) {
    await close();
    throw error;
  }
}
