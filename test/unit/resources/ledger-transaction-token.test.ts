/**
 * The TypeScript component's token changed from `opsledger:ledger:LedgerTransaction` (now only the plugin's custom
 * resource) to `opsledger:ledger:LedgerTransactionComponent`, aliased (docs/decisions/0049-one-kind-per-ledger-token.md):
 * the engine carries the submission's state to its new URN, and the submission's `__urn` input, which its parent's
 * type qualifies, changes with it. Exactly once: the transaction, its generation and its txId must not.
 */
import { strict as assert } from "node:assert";
import { LEDGER_TRANSACTION_RESOURCE_TYPE, LEDGER_TRANSACTION_TYPE } from "../../../sdk/ledger/ledger-transaction";
import { LEDGER_TRANSACTION_SUBMISSION_TYPE } from "../../../sdk/ledger/ledger-transaction-submission";
import { ledgerTransactionProvider } from "../../../provider/resources/ledger/ledger-transaction";
import { newMember, newOrg } from "../ledger/fixtures";
import type { TestMember, TestOrg } from "../ledger/fixtures";
import type {
  LedgerTransactionInputs,
  LedgerTransactionOutputs,
} from "../../../provider/resources/ledger/ledger-transaction-inputs";

const submissionUrn = (componentType: string): string =>
  `urn:pulumi:dev::demo::${componentType}$${LEDGER_TRANSACTION_SUBMISSION_TYPE}::asset`;

let org: TestOrg;
let member: TestMember;

before(async () => {
  org = await newOrg("Org1MSP");
  member = await newMember(org, "deployer");
});

function inputs(urn: string, args: string[] = ["asset-1", "blue"]): LedgerTransactionInputs {
  return {
    __urn: urn,
    gateway: { address: "127.0.0.1:7051" },
    channel: "opsledger",
    chaincode: "assets",
    function: "CreateAsset",
    args,
    identity: {
      mspId: "Org1MSP",
      certificatePem: Buffer.from(member.identity.credentials).toString("utf8"),
      privateKeyPem: member.privateKeyPem,
    },
    trustedRootCertificates: { Org1MSP: org.caPem },
  };
}

async function checked(olds: Partial<LedgerTransactionInputs>, news: LedgerTransactionInputs) {
  const result = await ledgerTransactionProvider.check(olds, news);
  assert.equal(result.failures, undefined, JSON.stringify(result.failures));
  return result.inputs as LedgerTransactionInputs;
}

describe("LedgerTransaction under the component's new token (an aliased stack)", () => {
  it("keeps the txId and generation of the submission recorded under the old token, and diffs as no change", async () => {
    assert.notEqual(LEDGER_TRANSACTION_TYPE, LEDGER_TRANSACTION_RESOURCE_TYPE);
    const oldUrn = submissionUrn(LEDGER_TRANSACTION_RESOURCE_TYPE);
    const newUrn = submissionUrn(LEDGER_TRANSACTION_TYPE);
    const recorded = await checked({}, inputs(oldUrn));
    const now = await checked(recorded, inputs(newUrn));
    assert.deepEqual([now.__generation, now.txId], [recorded.__generation, recorded.txId]);
    assert.equal(now.__urn, newUrn);
    const olds = {
      ...recorded,
      identity: { mspId: recorded.identity.mspId, certificatePem: recorded.identity.certificatePem },
      credentials: { privateKeyPem: member.privateKeyPem },
    } as unknown as LedgerTransactionOutputs;
    const diff = await ledgerTransactionProvider.diff(recorded.txId ?? "", olds, now);
    assert.deepEqual(diff, { changes: false, replaces: [], deleteBeforeReplace: false });
    // A later change of the transaction is a new one, its txId derived from the new URN (a new generation).
    const changed = await checked(now, inputs(newUrn, ["asset-1", "red"]));
    assert.equal(changed.__generation, (recorded.__generation ?? 0) + 1);
    assert.notEqual(changed.txId, recorded.txId);
  });
});
