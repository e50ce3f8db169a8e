/**
 * The ledger transaction resource's unit-test fixture: an organization with two members, inputs as a program gives
 * them, check's result, the outputs create would store, and key files (ledger-transaction*.test.ts).
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import { findSecrets, privateKeyForms } from "../../helpers/secrets-scan";
import { newMember, newOrg } from "../ledger/fixtures";
import type { TestMember, TestOrg } from "../ledger/fixtures";
import type {
  LedgerTransactionInputs,
  LedgerTransactionOutputs,
} from "../../../provider/resources/ledger/ledger-transaction-inputs";

export const URN =
  "urn:pulumi:dev::demo::opsledger:ledger:LedgerTransaction$pulumi-nodejs:dynamic/ledger:LedgerTransactionSubmission::asset";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";
export const TRANSIENT = "transient-secret-value";

export let org: TestOrg;
export let member: TestMember;
export let other: TestMember;
/** A folder for key files, made by useLedgerTransactionFixture's `before`. */
export let keyDir = "";

export function inputs(extra: Partial<LedgerTransactionInputs> = {}): LedgerTransactionInputs {
  return {
    __urn: URN,
    gateway: { address: "127.0.0.1:7051" },
    channel: "opsledger",
    chaincode: "assets",
    function: "CreateAsset",
    args: ["asset-1", "blue"],
    transientData: { note: TRANSIENT },
    identity: {
      mspId: "Org1MSP",
      certificatePem: Buffer.from(member.identity.credentials).toString("utf8"),
      privateKeyPem: member.privateKeyPem,
    },
    trustedRootCertificates: { Org1MSP: org.caPem },
    ...extra,
  };
}

export async function checked(
  olds: Partial<LedgerTransactionInputs>,
  news: LedgerTransactionInputs,
): Promise<LedgerTransactionInputs> {
  const result = await ledgerTransactionProvider.check(olds, news);
  assert.equal(result.failures, undefined, JSON.stringify(result.failures));
  return result.inputs as LedgerTransactionInputs;
}

/** What create would have stored for these checked inputs (no ledger needed). */
export function outputs(i: LedgerTransactionInputs): LedgerTransactionOutputs {
  const { transientData: _t, previewResult: _p, ...rest } = i;
  return {
    ...rest,
    gateway: { address: i.gateway.address },
    identity: { mspId: i.identity.mspId, certificatePem: i.identity.certificatePem },
    credentials: i.identity.privateKeyPem === undefined ? {} : { privateKeyPem: i.identity.privateKeyPem },
    __generation: i.__generation ?? 0,
    txId: i.txId ?? "",
    validationCode: "VALID",
    validationCodeNumber: 0,
    blockNumber: "1",
    result: { utf8: "blue", base64: "Ymx1ZQ==" },
    endorsers: ["Org1MSP", "Org2MSP"],
    processedTransaction: "",
  };
}

/** The member's mspId and certificate: an identity without a signer. */
export function certificateOf(m: TestMember): { mspId: string; certificatePem: string } {
  return { mspId: "Org1MSP", certificatePem: Buffer.from(m.identity.credentials).toString("utf8") };
}

/** The member's key in a file of its own. */
export function keyFile(m: TestMember): string {
  const file = path.join(keyDir, `${crypto.createHash("sha256").update(m.privateKeyPem).digest("hex")}.pem`);
  fs.writeFileSync(file, m.privateKeyPem, { mode: 0o600 });
  return file;
}

/** The forms of `pem`'s private key found in `value` as JSON (PEM lines, DERs in every encoding, the JWK's d): none, expected. */
export function keyFormsIn(value: unknown, pem: string): string[] {
  return findSecrets(JSON.stringify(value), privateKeyForms("the key", pem));
}

/** The hooks of a spec file that uses this fixture: the organization and its two members, and the key folder. */
export function useLedgerTransactionFixture(): void {
  before(async () => {
    keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-keys-"));
    org = await newOrg("Org1MSP");
    member = await newMember(org, "deployer");
    other = await newMember(org, "someone-else");
  });
  after(() => {
    fs.rmSync(keyDir, { recursive: true, force: true });
  });
}
