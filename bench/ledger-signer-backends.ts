/**
 * Signatures per second through each signer backend the ledger component can use, next to node:crypto on the same
 * digests: SoftHSM2 through our PKCS#11 signer (one at a time, and 8 in flight on one token), and Cloud KMS through
 * the Google client against the in-process Google sandbox (8 in flight; every signature is an HTTPS-shaped round
 * trip with its integrity checks). And end-to-end submissions per second through the Fabric sandbox with an HSM
 * signer: our gateway client with our PKCS#11 signer vs the official client with its own HSM signer, on the same
 * SoftHSM token. The official HSM signer runs one submission at a time: concurrent signs on one of its signers share
 * a session and fail with CKR_OPERATION_ACTIVE, and several of its signers signing at once corrupt the process's heap
 * (its factory calls C_Initialize without CKF_OS_LOCKING_OK while pkcs11js signs on worker threads: "malloc():
 * unaligned tcache chunk detected", measured here). Prints nothing; the caller prints the rows.
 */
import * as crypto from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import * as official from "@hyperledger/fabric-gateway";
import { createGoogleClient, kmsAsymmetricSign, resolveGoogleSettings } from "../provider/google";
import { connect, fabricSki, newIdentity, openHsmSigner, toLowSDer, verifySignature } from "../provider/ledger";
import { startFabricSandbox } from "../sandbox/fabric";
import { fixture, startGoogleSandbox } from "../sandbox/google";
import { createSoftHsmToken } from "../test/helpers/softhsm";

export interface SignerBackendRow {
  readonly backend: string;
  readonly concurrency: number;
  readonly signaturesPerSec: number;
  /** node:crypto's signatures per second on the same digests' messages, measured in the same run. */
  readonly nodeCryptoPerSec: number;
}

export interface HsmSubmitRow {
  readonly client: string;
  readonly submissionsPerSec: number;
  readonly ratioVsOfficial: number;
}

const SIGNATURES = 1_000;
const KMS_SIGNATURES = 600;
const CONCURRENCY = 8;
const SUBMISSIONS = 200;
const WARM_UP = 20;

/** Runs `total` tasks with at most `concurrency` in flight; resolves with tasks per second. */
async function perSecond(total: number, concurrency: number, task: (i: number) => Promise<unknown>): Promise<number> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total) await task(next++);
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: Math.min(concurrency, total) }, worker));
  return Math.round((total * 1000) / (performance.now() - started));
}

export async function benchSignerBackends(): Promise<SignerBackendRow[]> {
  const { privateKey, publicKey } = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  const messages = Array.from({ length: 64 }, () => crypto.randomBytes(512));
  const digests = messages.map((m) => new Uint8Array(crypto.createHash("sha256").update(m).digest()));
  const digest = (i: number): Uint8Array => digests[i % digests.length] ?? new Uint8Array(32);
  const nodeCrypto = await perSecond(SIGNATURES, 1, (i) =>
    Promise.resolve(crypto.sign("sha256", messages[i % messages.length] ?? Buffer.alloc(0), privateKey)),
  );

  const token = createSoftHsmToken("bench");
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
  token.importKey(pem, Buffer.from(fabricSki(publicKey)).toString("hex"));
  token.activate();
  const hsm = openHsmSigner({
    library: token.library,
    tokenLabel: token.label,
    pin: token.pin,
    keyId: fabricSki(publicKey),
  });
  const google = await startGoogleSandbox();
  try {
    const check = await hsm.signer(digest(0));
    if (!verifySignature({ publicKey, message: messages[0] ?? Buffer.alloc(0), signature: check })) {
      throw new Error("benchSignerBackends: the HSM signature does not verify");
    }
    await perSecond(50, 1, (i) => hsm.signer(digest(i)));
    const hsmSerial = await perSecond(SIGNATURES, 1, (i) => hsm.signer(digest(i)));
    const hsmConcurrent = await perSecond(SIGNATURES, CONCURRENCY, (i) => hsm.signer(digest(i)));

    const client = createGoogleClient({
      settings: resolveGoogleSettings({
        explicit: {
          kmsCustomEndpoint: google.endpoints.kms,
          accessToken: google.mintToken({ principal: fixture.DEPLOYER, scopes: ["cloudkms"], lifetimeSeconds: 3600 }),
        },
      }),
    });
    const name = fixture.FIXTURE_KMS_KEY_VERSION;
    const kmsSign = async (i: number): Promise<Uint8Array> =>
      toLowSDer(await kmsAsymmetricSign(client, name, digest(i)));
    await perSecond(50, CONCURRENCY, kmsSign);
    const kms = await perSecond(KMS_SIGNATURES, CONCURRENCY, kmsSign);
    return [
      {
        backend: "SoftHSM2 via PKCS#11 (ours)",
        concurrency: 1,
        signaturesPerSec: hsmSerial,
        nodeCryptoPerSec: nodeCrypto,
      },
      {
        backend: "SoftHSM2 via PKCS#11 (ours, one token)",
        concurrency: CONCURRENCY,
        signaturesPerSec: hsmConcurrent,
        nodeCryptoPerSec: nodeCrypto,
      },
      {
        backend: "Cloud KMS sandbox via the Google client",
        concurrency: CONCURRENCY,
        signaturesPerSec: kms,
        nodeCryptoPerSec: nodeCrypto,
      },
    ];
  } finally {
    hsm.close();
    token.dispose();
    await google.close();
  }
}

/** Submissions per second of `submit`, best of two rounds on a fresh ledger each, after a warm-up. */
async function bestOf(reset: () => void, concurrency: number, submit: () => Promise<void>): Promise<number> {
  await perSecond(WARM_UP, concurrency, submit);
  let best = 0;
  for (let round = 0; round < 2; round++) {
    reset();
    best = Math.max(best, await perSecond(SUBMISSIONS, concurrency, submit));
  }
  return best;
}

export async function benchHsmSubmit(): Promise<HsmSubmitRow[]> {
  const sandbox = await startFabricSandbox({ port: 0 });
  const identity = sandbox.newClientIdentity("Org1MSP", "hsm-bench");
  const ski = fabricSki(new crypto.X509Certificate(identity.certificatePem).publicKey);
  const token = createSoftHsmToken("submit-bench");
  token.importKey(identity.privateKeyPem, Buffer.from(ski).toString("hex"));
  token.activate();
  let sequence = 0;
  const reset = (): void => {
    sandbox.reset();
  };
  try {
    // Ours first: it initializes the library (with CKF_OS_LOCKING_OK) and finalizes it when closed. The official
    // factory initializes it with NULL arguments, which tells the token there are no concurrent threads, so the two
    // never share one initialization here.
    const hsm = openHsmSigner({ library: token.library, tokenLabel: token.label, pin: token.pin, keyId: ski });
    const ours = connect({
      address: sandbox.address,
      identity: newIdentity(identity.mspId, identity.certificatePem),
      signer: hsm.signer,
      trustedMsps: Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] })),
    });
    let oursPerSec: number;
    let oursSerialPerSec: number;
    const viaOurs = async (): Promise<void> => {
      const { status } = await ours.submitTransaction({
        channelId: sandbox.channel,
        chaincodeName: sandbox.chaincode,
        functionName: "PutAsset",
        args: [`asset-${String(sequence++)}`, "blue"],
      });
      if (!status.successful) throw new Error(`benchHsmSubmit: our transaction committed ${status.codeName}`);
    };
    try {
      oursPerSec = await bestOf(reset, CONCURRENCY, viaOurs);
      oursSerialPerSec = await bestOf(reset, 1, viaOurs);
    } finally {
      ours.close();
      hsm.close();
    }

    const factory = official.signers.newHSMSignerFactory(token.library);
    const officialSigner = factory.newSigner({ label: token.label, pin: token.pin, identifier: Buffer.from(ski) });
    const grpcClient = new grpc.Client(sandbox.address, grpc.credentials.createInsecure());
    const theirs = official.connect({
      client: grpcClient,
      identity: { mspId: identity.mspId, credentials: Buffer.from(identity.certificatePem) },
      signer: officialSigner.signer,
    });
    const contract = theirs.getNetwork(sandbox.channel).getContract(sandbox.chaincode);
    let officialPerSec: number;
    try {
      officialPerSec = await bestOf(reset, 1, async () => {
        await contract.submitTransaction("PutAsset", `asset-${String(sequence++)}`, "blue");
      });
    } finally {
      theirs.close();
      grpcClient.close();
      officialSigner.close();
      factory.dispose();
    }
    return [
      {
        client: `provider/ledger + our PKCS#11 signer, ${String(CONCURRENCY)} in flight (session pool)`,
        submissionsPerSec: oursPerSec,
        ratioVsOfficial: oursPerSec / officialPerSec,
      },
      {
        client: "provider/ledger + our PKCS#11 signer, 1 in flight",
        submissionsPerSec: oursSerialPerSec,
        ratioVsOfficial: oursSerialPerSec / officialPerSec,
      },
      {
        client: "@hyperledger/fabric-gateway 1.12.1 + its HSM signer, 1 in flight (its only safe setting)",
        submissionsPerSec: officialPerSec,
        ratioVsOfficial: 1,
      },
    ];
  } finally {
    token.dispose();
    await sandbox.close();
  }
}
