/**
 * The chaincode lifecycle's dynamic providers (provider/resources/ledger/chaincode) against the in-process Fabric
 * sandbox, whose _lifecycle answers as Fabric 2.5.16 does (decision 0072): a package, its installation on each
 * organization's peer, both organizations' approvals and the commit, each step's check, create, read and delete called
 * as the engine calls them. Every body asserts what was sent by the ledger's own count (its transactions, the
 * evaluations its gateway answered) and the exact values and errors; a step run again sends nothing.
 */
import { strict as assert } from "node:assert";
import { LifecycleError } from "../../../provider/errors/ledger/lifecycle-error";
import {
  approveChaincodeDefinition,
  commitChaincodeDefinition,
} from "../../../provider/ledger/lifecycle/lifecycle-transactions";
import { connectOurs } from "./helpers";
import { newMember, newOrg } from "../../unit/ledger/fixtures";
import { buildCcaasPackage } from "../../../provider/ledger/lifecycle/chaincode-package";
import { queryInstalledChaincodes } from "../../../provider/ledger/lifecycle/lifecycle-install";
import { chaincodeApprovalProvider } from "../../../provider/resources/ledger/chaincode/chaincode-approval";
import type {
  ChaincodeApprovalInputs,
  ChaincodeApprovalOutputs,
} from "../../../provider/resources/ledger/chaincode/chaincode-approval";
import { chaincodeDefinitionProvider } from "../../../provider/resources/ledger/chaincode/chaincode-commit";
import type {
  ChaincodeDefinitionInputs,
  ChaincodeDefinitionOutputs,
} from "../../../provider/resources/ledger/chaincode/chaincode-commit";
import { chaincodeInstallationProvider } from "../../../provider/resources/ledger/chaincode/chaincode-installation";
import type { ChaincodeInstallationInputs } from "../../../provider/resources/ledger/chaincode/chaincode-installation";
import { chaincodePackageProvider } from "../../../provider/resources/ledger/chaincode/chaincode-packaging";
import type { ChaincodePackageInputs } from "../../../provider/resources/ledger/chaincode/chaincode-packaging";
import { stepTxId } from "../../../provider/resources/ledger/chaincode/chaincode-plan";
import { readChaincodeDefinition } from "../../../provider/resources/ledger/chaincode/chaincode-reads";
import { connectEndorser } from "../../../provider/ledger/endorser-client";
import { newIdentity } from "../../../provider/ledger/identity";
import { newPrivateKeySigner } from "../../../provider/ledger/signing";
import { startFabricSandbox } from "../../../sandbox/fabric";
import type { FabricSandbox, SandboxIdentity } from "../../../sandbox/fabric";
import * as grpc from "@grpc/grpc-js";

const ORGS = ["Org1MSP", "Org2MSP"] as const;
const NAME = "assets2";
const POLICY = "OR('Org1MSP.peer','Org2MSP.peer')";
const urn = (type: string, name: string): string =>
  `urn:pulumi:dev::chaincode::opsledger:ledger:${type}$pulumi-nodejs:dynamic/ledger:${type}::${name}`;

/** The lines the providers print while `work` runs (no engine here: log() prints them). */
async function printed<T>(work: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const out = process.stdout.write.bind(process.stdout);
  const err = process.stderr.write.bind(process.stderr);
  const capture = (chunk: string | Uint8Array): boolean => {
    lines.push(
      ...String(chunk)
        .split("\n")
        .filter((l) => l.includes("[opsledger]")),
    );
    return true;
  };
  process.stdout.write = capture;
  process.stderr.write = capture;
  try {
    return { value: await work(), lines };
  } finally {
    process.stdout.write = out;
    process.stderr.write = err;
  }
}

describe("the chaincode resources' providers on the Fabric sandbox", function () {
  this.timeout(120_000);
  let sandbox: FabricSandbox;
  const admins = new Map<string, SandboxIdentity>();
  const admin = (mspId: string): SandboxIdentity => {
    const found = admins.get(mspId);
    assert.ok(found !== undefined);
    return found;
  };
  const pkg = buildCcaasPackage({ label: `${NAME}_1`, connection: { address: "127.0.0.1:7052" } });
  const packageBase64 = Buffer.from(pkg.bytes).toString("base64");
  /** The evaluations the sandbox's gateway answered on _lifecycle: the reads a step made. */
  const lifecycleReads = (): string[] =>
    sandbox
      .evaluations()
      .filter((e) => e.chaincode === "_lifecycle")
      .map((e) => e.fn);

  const installation = (mspId: string): ChaincodeInstallationInputs => ({
    __urn: urn("ChaincodeInstallation", `${mspId}-installation`),
    peer: { address: sandbox.address },
    identity: admin(mspId),
    packageBase64,
  });
  const step = (mspId: string) => ({
    gateway: { address: sandbox.address },
    channel: sandbox.channel,
    identity: admin(mspId),
    trustedRootCertificates: { ...sandbox.caCertificates },
    definition: { name: NAME, version: "1.0", endorsementPolicy: POLICY },
  });
  const approval = (mspId: string, extra: Partial<ChaincodeApprovalInputs> = {}): ChaincodeApprovalInputs => ({
    __urn: urn("ChaincodeApproval", `${mspId}-approval`),
    ...step(mspId),
    packageId: pkg.packageId,
    ...extra,
  });
  const definition = (extra: Partial<ChaincodeDefinitionInputs> = {}): ChaincodeDefinitionInputs => ({
    __urn: urn("ChaincodeDefinition", NAME),
    ...step("Org1MSP"),
    ...extra,
  });
  /** The package ids Org1MSP's peer has installed (its QueryInstalledChaincodes, as its admin). */
  async function installedOnOrg1(): Promise<string[]> {
    const client = new grpc.Client(sandbox.address, grpc.credentials.createInsecure());
    const peer = connectEndorser({
      client,
      identity: newIdentity("Org1MSP", admin("Org1MSP").certificatePem),
      signer: newPrivateKeySigner(admin("Org1MSP").privateKeyPem),
    });
    try {
      return (await queryInstalledChaincodes(peer)).map((p) => p.packageId);
    } finally {
      peer.close();
      client.close();
    }
  }
  async function checked<I>(
    provider: { check(olds: never, news: never): Promise<{ inputs?: unknown; failures?: unknown }> },
    olds: unknown,
    news: I,
  ): Promise<{ inputs: I; lines: string[] }> {
    const { value, lines } = await printed(() => provider.check(olds as never, news as never));
    assert.equal(value.failures, undefined, JSON.stringify(value.failures));
    return { inputs: value.inputs as I, lines };
  }

  before(async () => {
    sandbox = await startFabricSandbox({ organizations: [...ORGS] });
    for (const mspId of ORGS) admins.set(mspId, sandbox.newAdminIdentity(mspId));
  });
  after(async () => {
    await sandbox.close();
  });

  it("packages locally: the package id known at check, the bytes only at create, nothing sent", async () => {
    const news: ChaincodePackageInputs = {
      __urn: urn("ChaincodePackage", "package"),
      label: `${NAME}_1`,
      connection: { address: "127.0.0.1:7052" },
    };
    const check = await chaincodePackageProvider.check({}, news);
    assert.deepEqual(check, { inputs: { ...news, packageId: pkg.packageId, type: "ccaas" } });
    const created = await chaincodePackageProvider.create(check.inputs);
    assert.equal(created.id, pkg.packageId);
    assert.equal((created.outs as { packageBase64: string }).packageBase64, packageBase64);
    assert.deepEqual(await chaincodePackageProvider.check({}, { ...news, file: "/nowhere.tar.gz" }), {
      failures: [
        {
          property: "connection",
          reason:
            "give exactly one of connection (with label: a chaincode-as-a-service package) and file (a package built elsewhere)",
        },
      ],
    });
    assert.equal(sandbox.transactionCount(), 0);
  });

  it("installs once per peer: check says what it would send, a second create adopts the installed package", async () => {
    const before = await installedOnOrg1();
    const org1 = await checked(chaincodeInstallationProvider, {}, installation("Org1MSP"));
    assert.deepEqual(org1.lines, [
      `[opsledger] ChaincodeInstallation Org1MSP-installation: to send: InstallChaincode of ${pkg.packageId} (the peer at ${sandbox.address}, as Org1MSP's admin)`,
    ]);
    for (const mspId of ORGS) {
      const { value } = await printed(() => chaincodeInstallationProvider.create(installation(mspId)));
      assert.equal(value.id, `${sandbox.address}/${pkg.packageId}`);
      assert.equal((value.outs as { packageId: string }).packageId, pkg.packageId);
    }
    const again = await printed(() => chaincodeInstallationProvider.create(installation("Org1MSP")));
    assert.deepEqual(again.lines, [
      `[opsledger] ChaincodeInstallation Org1MSP-installation: ${pkg.packageId} was installed on the peer at ${sandbox.address} already: adopted, nothing sent`,
    ]);
    // The sandbox's own assets package was there before: the installations added this one package, once.
    assert.deepEqual(await installedOnOrg1(), [...before, pkg.packageId]);
    assert.equal(sandbox.transactionCount(), 0);
  });

  let committed: ChaincodeDefinitionOutputs | undefined;
  const approvals = new Map<string, ChaincodeApprovalOutputs>();

  it("approves and commits once: the commit refused naming Org2MSP until it approves, then sent once", async () => {
    const org1 = await checked(chaincodeApprovalProvider, {}, approval("Org1MSP"));
    assert.equal(org1.inputs.definition.sequence, 1);
    assert.equal(org1.inputs.__generation, 1);
    assert.equal(org1.inputs.txId, stepTxId(admin("Org1MSP"), org1.inputs.__urn, "approve", 1));
    assert.equal(org1.lines.length, 1);
    assert.match(
      org1.lines[0] ?? "",
      /to send: ApproveChaincodeDefinitionForMyOrg of assets2 sequence 1 .* by Org1MSP; approved now: Org1MSP no, Org2MSP no; LifecycleEndorsement .* not met yet/,
    );
    const before = sandbox.transactionCount();
    const made = await printed(() => chaincodeApprovalProvider.create(org1.inputs));
    const outs = made.value.outs as ChaincodeApprovalOutputs;
    assert.equal(outs.outcome, "submitted");
    assert.equal(outs.txId, org1.inputs.txId);
    assert.equal(outs.approved.packageId, pkg.packageId);
    assert.equal(outs.approved.endorsementPolicy, POLICY);
    assert.equal(sandbox.transactionCount(), before + 1);
    approvals.set("Org1MSP", outs);

    // The commit's check reads the readiness; its create is refused naming the organization that has not approved.
    const commit = await checked(chaincodeDefinitionProvider, {}, definition());
    assert.match(commit.lines[0] ?? "", /approved now: Org1MSP yes, Org2MSP no; LifecycleEndorsement .* not met yet/);
    await assert.rejects(
      () => printed(() => chaincodeDefinitionProvider.create(commit.inputs)),
      (e: LifecycleError) => {
        assert.deepEqual([e.problem, e.organizations], ["NOT_APPROVED", ["Org2MSP"]]);
        assert.match(e.message, /approved by Org1MSP, not by Org2MSP\. .*; nothing was sent$/);
        return true;
      },
    );
    assert.equal(sandbox.transactionCount(), before + 1, "the refused commit sent nothing");

    const org2 = await checked(chaincodeApprovalProvider, {}, approval("Org2MSP"));
    approvals.set(
      "Org2MSP",
      (await printed(() => chaincodeApprovalProvider.create(org2.inputs))).value.outs as ChaincodeApprovalOutputs,
    );
    const ready = await checked(chaincodeDefinitionProvider, {}, definition());
    assert.match(ready.lines[0] ?? "", /approved now: Org1MSP yes, Org2MSP yes; LifecycleEndorsement .* met$/);
    const done = (await printed(() => chaincodeDefinitionProvider.create(ready.inputs))).value;
    committed = done.outs as ChaincodeDefinitionOutputs;
    assert.equal(done.id, `${sandbox.channel}/${NAME}`);
    assert.equal(committed.outcome, "submitted");
    assert.equal(committed.txId, stepTxId(admin("Org1MSP"), ready.inputs.__urn, "commit", 1));
    assert.deepEqual(committed.committed, {
      name: NAME,
      version: "1.0",
      sequence: 1,
      endorsementPolicy: POLICY,
      collections: [],
      initRequired: false,
      endorsementPlugin: "escc",
      validationPlugin: "vscc",
      approvals: { Org1MSP: true, Org2MSP: true },
    });
    assert.equal(sandbox.transactionCount(), before + 3);
  });

  it("run again, sends nothing: the same txIds planned, no diff, a retried create adopts its own transaction", async () => {
    assert.ok(committed !== undefined);
    const count = sandbox.transactionCount();
    for (const mspId of ORGS) {
      const olds = approvals.get(mspId);
      assert.ok(olds !== undefined);
      const again = await checked(chaincodeApprovalProvider, olds, approval(mspId));
      assert.equal(again.inputs.txId, olds.txId);
      assert.match(
        again.lines[0] ?? "",
        new RegExp(`${mspId} has approved assets2 sequence 1 as declared: nothing to send`),
      );
      const diff = await chaincodeApprovalProvider.diff("", olds, again.inputs);
      assert.equal(diff.changes, false);
    }
    const again = await checked(chaincodeDefinitionProvider, committed, definition());
    assert.equal(again.inputs.txId, committed.txId);
    assert.match(
      again.lines[0] ?? "",
      /assets2 sequence 1 is committed on channel 'opsledger' as declared .*: nothing to send/,
    );
    assert.equal((await chaincodeDefinitionProvider.diff("", committed, again.inputs)).changes, false);
    // A killed `up` retries create with the same inputs: the transaction is found committed and adopted.
    const retried = (await printed(() => chaincodeDefinitionProvider.create(again.inputs))).value
      .outs as ChaincodeDefinitionOutputs;
    assert.deepEqual([retried.outcome, retried.txId], ["adopted", committed.txId]);
    assert.equal(sandbox.transactionCount(), count, "nothing was sent again");
  });

  it("plans a changed field as the next sequence, and refuses bad input naming the field before sending", async () => {
    assert.ok(committed !== undefined);
    const count = sandbox.transactionCount();
    const reads = lifecycleReads().length;
    const changed = await checked(
      chaincodeDefinitionProvider,
      committed,
      definition({
        definition: { name: NAME, version: "1.0", endorsementPolicy: "AND('Org1MSP.peer','Org2MSP.peer')" },
      }),
    );
    assert.equal(changed.inputs.definition.sequence, 2);
    assert.equal(changed.inputs.__generation, 2);
    assert.equal((await chaincodeDefinitionProvider.diff("", committed, changed.inputs)).changes, true);

    const lower = await chaincodeDefinitionProvider.check(
      committed,
      definition({ definition: { ...step("Org1MSP").definition, sequence: 0 } }),
    );
    assert.deepEqual(lower.failures, [
      {
        property: "definition.sequence",
        reason: "0 must be a whole number from 1; leave it out to let the resource choose",
      },
    ]);
    const policy = await chaincodeDefinitionProvider.check(
      committed,
      definition({ definition: { name: NAME, version: "1.0", endorsementPolicy: "AND('Org1MSP.peer'" } }),
    );
    assert.deepEqual(policy.failures, [
      {
        property: "definition.endorsementPolicy",
        reason:
          `at column 19 of "AND('Org1MSP.peer'": expected ',' or ')' after the first rule of AND, found the end of ` +
          "the policy",
      },
    ]);
    const installed = await installedOnOrg1();
    const missing = await chaincodeApprovalProvider.check(
      {},
      approval("Org1MSP", { packageId: `${NAME}_1:${"0".repeat(64)}` }),
    );
    assert.deepEqual(missing.failures, [
      {
        property: "packageId",
        reason:
          `package ${NAME}_1:${"0".repeat(64)} is not installed on Org1MSP's peer at ${sandbox.address} (it has ` +
          `${installed.join(", ")}): install it there first (a ChaincodeInstallation, whose packageId this approval then ` +
          "names); nothing was sent",
      },
    ]);
    assert.equal(sandbox.transactionCount(), count, "no check sends a transaction");
    assert.ok(lifecycleReads().length > reads);
  });

  it("refuses an admin of an organization the channel does not know, naming the identity, before anything is sent", async () => {
    const org9 = await newOrg("Org9MSP");
    const stranger = await newMember(org9, "Admin@org9msp", { ou: "admin" });
    const count = sandbox.transactionCount();
    const refused = await chaincodeApprovalProvider.check(
      {},
      approval("Org1MSP", {
        identity: {
          mspId: "Org9MSP",
          certificatePem: Buffer.from(stranger.identity.credentials).toString("utf8"),
          privateKeyPem: stranger.privateKeyPem,
        },
        trustedRootCertificates: { ...sandbox.caCertificates, Org9MSP: org9.caPem },
        packageId: "",
      }),
    );
    assert.deepEqual(refused.failures, [
      {
        property: "identity.certificatePem",
        reason:
          "QueryChaincodeDefinition of assets2: channel 'opsledger' does not know the identity of Org9MSP it was " +
          "signed with (Fabric: error validating proposal: access denied: channel [opsledger] creator org unknown, " +
          "creator is malformed). Use a certificate issued by Org9MSP's CA for a member of the channel; nothing was " +
          "submitted",
      },
    ]);
    assert.equal(sandbox.transactionCount(), count);
  });

  it("upgrades at the next sequence (both re-approve, one commit), then refuses a sequence lower than committed", async () => {
    assert.ok(committed !== undefined);
    const next = { name: NAME, version: "1.1", endorsementPolicy: "AND('Org1MSP.peer','Org2MSP.peer')" };
    const count = sandbox.transactionCount();
    for (const mspId of ORGS) {
      const olds = approvals.get(mspId);
      assert.ok(olds !== undefined);
      const planned = await checked(chaincodeApprovalProvider, olds, approval(mspId, { definition: next }));
      assert.deepEqual([planned.inputs.definition.sequence, planned.inputs.__generation], [2, 2]);
      const outs = (await printed(() => chaincodeApprovalProvider.update("", olds, planned.inputs))).value
        .outs as ChaincodeApprovalOutputs;
      assert.deepEqual([outs.outcome, outs.approved.sequence, outs.approved.version], ["submitted", 2, "1.1"]);
      approvals.set(mspId, outs);
    }
    const planned = await checked(chaincodeDefinitionProvider, committed, definition({ definition: next }));
    committed = (await printed(() => chaincodeDefinitionProvider.update("", committed as never, planned.inputs))).value
      .outs as ChaincodeDefinitionOutputs;
    assert.deepEqual(
      [committed.outcome, committed.committed.sequence, committed.committed.endorsementPolicy],
      ["submitted", 2, "AND('Org1MSP.peer','Org2MSP.peer')"],
    );
    assert.equal(sandbox.transactionCount(), count + 3);

    const lower = await chaincodeDefinitionProvider.check(
      committed,
      definition({ definition: { ...next, sequence: 1 } }),
    );
    assert.deepEqual(lower.failures, [
      {
        property: "definition.sequence",
        reason:
          "1 is lower than the sequence 2 committed for assets2 on channel 'opsledger': leave sequence out to let the " +
          "resource choose, or set 3",
      },
    ]);
    const collections = await chaincodeApprovalProvider.check(
      {},
      approval("Org1MSP", { definition: { ...next, collections: [{ name: "private", policy: "OR(" }] } }),
    );
    assert.deepEqual(collections.failures, [
      {
        property: "definition.collections[0].policy",
        reason:
          `at column 4 of "OR(": expected a quoted principal such as 'Org1MSP.peer', or a nested gate, found the ` +
          "end of the policy",
      },
    ]);
    assert.equal(sandbox.transactionCount(), count + 3, "the refused checks sent nothing");
  });

  it("finds drift on refresh: another admin's approval and commit reported field by field, the next up planned past them", async () => {
    assert.ok(committed !== undefined);
    const { sequence: _planned, ...declaredFields } = committed.definition;
    // Another admin of each organization approves and commits version 9.9 at sequence 3 with the peer-CLI-like library.
    const theirs = { name: NAME, version: "9.9", sequence: 3, endorsementPolicy: POLICY };
    for (const mspId of ORGS) {
      const gateway = connectOurs(sandbox, admin(mspId));
      try {
        await approveChaincodeDefinition(gateway, { channelId: sandbox.channel, definition: theirs });
      } finally {
        gateway.close();
      }
    }
    const gateway = connectOurs(sandbox, admin("Org1MSP"));
    try {
      await commitChaincodeDefinition(gateway, { channelId: sandbox.channel, definition: theirs });
    } finally {
      gateway.close();
    }
    const org1 = approvals.get("Org1MSP");
    assert.ok(org1 !== undefined);
    const approvalRead = await printed(() => chaincodeApprovalProvider.read("", org1));
    assert.deepEqual(
      [(approvalRead.value.props as ChaincodeApprovalOutputs).approved.version, approvalRead.lines.length],
      ["9.9", 1],
    );
    assert.deepEqual(approvalRead.lines, [
      "warning: [opsledger] ChaincodeApproval Org1MSP-approval: Org1MSP's newest approval of assets2 differs from " +
        `the declared definition (version "1.1" (declared) vs "9.9"; sequence 2 (declared) vs 3; endorsementPolicy ` +
        `"AND('Org1MSP.peer','Org2MSP.peer')" (declared) vs "${POLICY}"; packageId "${pkg.packageId}" (declared) ` +
        'vs ""): the next pulumi up approves the declared one again, at the next sequence',
    ]);
    const read = await printed(() => chaincodeDefinitionProvider.read("", committed as ChaincodeDefinitionOutputs));
    const refreshed = read.value.props as ChaincodeDefinitionOutputs;
    assert.deepEqual([refreshed.committed.version, refreshed.committed.sequence], ["9.9", 3]);
    assert.match(
      read.lines[0] ?? "",
      /differs from the declared one \(version "1\.1" \(declared\) vs "9\.9"; sequence 2 \(declared\) vs 3; endorsementPolicy .*\): the next pulumi up commits the declared definition at the next sequence/,
    );
    // The refreshed state differs from the declaration: the next up restores it at sequence 4.
    const next = await checked(
      chaincodeDefinitionProvider,
      refreshed,
      definition({ definition: { ...declaredFields } }),
    );
    assert.equal(next.inputs.definition.sequence, 4);
    assert.equal((await chaincodeDefinitionProvider.diff("", refreshed, next.inputs)).changes, true);
    committed = refreshed;
  });

  it("reads the committed definition and the admin's own approval (getChaincodeDefinition)", async () => {
    const read = await readChaincodeDefinition({
      gateway: { address: sandbox.address },
      channel: sandbox.channel,
      identity: admin("Org2MSP"),
      name: NAME,
    });
    assert.deepEqual(read.committed?.approvals, { Org1MSP: true, Org2MSP: true });
    assert.deepEqual(
      [read.approval?.organization, read.approval?.sequence, read.approval?.packageId],
      ["Org2MSP", 3, ""],
    );
  });

  it("destroys honestly: nothing sent, one line saying the definition stays committed", async () => {
    assert.ok(committed !== undefined);
    const count = sandbox.transactionCount();
    const { lines } = await printed(() =>
      chaincodeDefinitionProvider.delete("", committed as ChaincodeDefinitionOutputs),
    );
    assert.deepEqual(lines, [
      `[opsledger] ChaincodeDefinition ${NAME}: the definition of ${NAME} (sequence 3) stays committed on channel 'opsledger': Fabric cannot remove a committed definition; it leaves the stack only`,
    ]);
    assert.equal(sandbox.transactionCount(), count);
  });
});
