/**
 * A second chaincode deployed entirely with the library (provider/ledger/lifecycle): a chaincode-as-a-service package
 * per organization, installed on each organization's peer by its admin, approved by each organization, committed once
 * the channel's LifecycleEndorsement policy is met, and a transaction on it VALID through our gateway client; then
 * upgraded by a changed endorsement policy (sequence 2) under which a transaction one organization endorses is VALID;
 * and every refusal before anything is sent. One body per behaviour, on each target of TARGETS (the Fabric sandbox,
 * real Fabric 2.5.16, 3.1.5 under Raft and under SmartBFT; the real ones shared networks, decision 0051). On a real
 * network the peer CLI is the oracle for the definition's bytes: its own checkcommitreadiness, given the same policy
 * text, sees both organizations' approvals (Fabric compares the bytes).
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import { CommitError } from "../../../provider/errors/ledger/commit-error";
import type { Gateway } from "../../../provider/ledger/gateway-client";
import { buildCcaasPackage } from "../../../provider/ledger/lifecycle/chaincode-package";
import type { ChaincodePackage } from "../../../provider/ledger/lifecycle/chaincode-package";
import { compareDefinitions, prepareDefinition } from "../../../provider/ledger/lifecycle/chaincode-definition";
import type { ChaincodeDefinition } from "../../../provider/ledger/lifecycle/chaincode-definition";
import { installChaincode, queryInstalledChaincodes } from "../../../provider/ledger/lifecycle/lifecycle-install";
import { LifecycleError } from "../../../provider/errors/ledger/lifecycle-error";
import {
  checkCommitReadiness,
  queryApprovedDefinition,
  queryCommittedDefinition,
} from "../../../provider/ledger/lifecycle/lifecycle-reads";
import {
  approveChaincodeDefinition,
  commitChaincodeDefinition,
} from "../../../provider/ledger/lifecycle/lifecycle-transactions";
import { PolicySyntaxError } from "../../../provider/errors/ledger/policy-syntax-error";
import { ValidationError } from "../../../provider/errors/validation-error";
import { ledgerTargets } from "../../helpers/ledger-targets";
import type { LedgerTarget, LedgerTargetFactory, TargetStartOptions } from "../../helpers/ledger-targets";
import { lifecycleTarget } from "../../helpers/lifecycle-targets";
import type { LifecycleTarget, TargetChaincodeServer } from "../../helpers/lifecycle-targets";
import { waitFor } from "../../helpers/wait-for";
import { newMember, newOrg } from "../../unit/ledger/fixtures";
import { failure } from "./helpers";

const [SANDBOX, FABRIC_2_5, FABRIC_3_1] = ledgerTargets(["2.5.16", "3.1.5"]) as [
  LedgerTargetFactory,
  LedgerTargetFactory,
  LedgerTargetFactory,
];

/** Where each body runs: a target and how it is started. */
const TARGETS: readonly {
  readonly label: string;
  readonly factory: LedgerTargetFactory;
  readonly start: TargetStartOptions;
}[] = [
  { label: SANDBOX.label, factory: SANDBOX, start: {} },
  { label: FABRIC_2_5.label, factory: FABRIC_2_5, start: {} },
  { label: `${FABRIC_3_1.label} (Raft)`, factory: FABRIC_3_1, start: {} },
  { label: `${FABRIC_3_1.label} (SmartBFT)`, factory: FABRIC_3_1, start: { shared: "3.1.5 SmartBFT" } },
];

const ORGS = ["Org1MSP", "Org2MSP"] as const;
const GATEWAY_WRITES = ["/gateway.Gateway/Endorse", "/gateway.Gateway/Submit"];
const FIRST_POLICY = "AND('Org1MSP.peer','Org2MSP.peer')";
/** Nested, so the oracle also checks how identities are numbered (signature-policy.ts). */
const SECOND_POLICY = "OR('Org1MSP.peer', AND('Org2MSP.peer', 'Org1MSP.member'))";

const nonce = (): Uint8Array => new Uint8Array(crypto.randomBytes(24));

const randomHex = (bytes: number): string => crypto.randomBytes(bytes).toString("hex");

for (const target of TARGETS) {
  describe(`the chaincode lifecycle through the library (${target.label})`, function () {
    this.timeout(300_000);
    let ledger: LedgerTarget;
    let lt: LifecycleTarget;
    const gateways = new Map<string, Gateway>();
    const servers: TargetChaincodeServer[] = [];
    const packages = new Map<string, ChaincodePackage>();
    const name = `lc${randomHex(4)}`;
    const first: ChaincodeDefinition = { name, version: "1.0", sequence: 1, endorsementPolicy: FIRST_POLICY };
    const second: ChaincodeDefinition = { ...first, version: "1.1", sequence: 2, endorsementPolicy: SECOND_POLICY };
    const gateway = (mspId: string): Gateway => {
      const found = gateways.get(mspId);
      assert.ok(found !== undefined, `a gateway for ${mspId}`);
      return found;
    };
    const packageId = (mspId: string): string => packages.get(mspId)?.packageId ?? "";
    const trustedMsps = () =>
      Object.entries(ledger.caCertificates).map(([mspId, pem]) => ({ mspId, rootCertificates: [pem] }));

    /** Our client submits on the new chaincode, once discovery knows the peers have it (seconds after a commit). */
    const submitOnNewChaincode = (functionName: string, args: string[], endorsingOrganizations?: string[]) => {
      const client = ledger.connectOurs();
      return waitFor({
        what: `an endorsement of ${name} ${functionName}`,
        timeoutMs: 60_000,
        read: () =>
          client.submitTransaction({
            channelId: ledger.channel,
            chaincodeName: name,
            functionName,
            args,
            ...(endorsingOrganizations === undefined ? {} : { endorsingOrganizations }),
          }),
        // Discovery learns of a newly installed and committed chaincode through gossip, a moment later; nothing was
        // submitted when the gateway found no peers to endorse.
        retrying: (error) =>
          error instanceof Error && /no combination of peers|failed to find any endorsing peers/.test(error.message),
      }).finally(() => {
        client.close();
      });
    };

    /**
     * On a real network, the peer CLI's own checkcommitreadiness of the same definition text (as `mspId`'s admin): it
     * builds the definition itself, and Fabric counts both approvals only if its bytes are the ones we sent.
     */
    const peerCliSeesBothApprovals = async (mspId: string, definition: ChaincodeDefinition): Promise<void> => {
      if (lt.peerCli === undefined) return;
      const out = await lt.peerCli(mspId, [
        ...["lifecycle", "chaincode", "checkcommitreadiness", "-C", ledger.channel, "-n", definition.name],
        ...["-v", definition.version, "--sequence", String(definition.sequence)],
        ...["--signature-policy", definition.endorsementPolicy ?? "", "-O", "json"],
      ]);
      assert.deepEqual(JSON.parse(out.slice(out.indexOf("{"))), { approvals: { Org1MSP: true, Org2MSP: true } });
    };

    /**
     * The committed definition as `mspId`'s peer reads it, once that peer has the commit's block. A commit's status comes
     * from the committing gateway's own peer; another organization's peer may be a block behind (seen under load on
     * SmartBFT), so a read there waits, bounded, for the sequence the commit set.
     */
    const committedSeenBy = (mspId: string, sequence: number) =>
      waitFor({
        what: `${mspId}'s peer to read ${name} at sequence ${sequence}`,
        timeoutMs: 60_000,
        read: () => queryCommittedDefinition(gateway(mspId), ledger.channel, name),
        until: (read) => read !== undefined && read.sequence >= BigInt(sequence),
      });

    before(async function () {
      this.timeout(900_000);
      ledger = await target.factory.start(target.start);
      lt = lifecycleTarget(ledger);
      for (const org of ORGS) gateways.set(org, lt.adminGateway(org));
    });
    after(async () => {
      for (const g of gateways.values()) g.close();
      for (const s of servers) await s.stop();
      await ledger.close();
    });

    it("packages, installs on each organization's peer, approves by each, commits once both approved, and runs it", async () => {
      for (const org of ORGS) {
        const server = await lt.chaincodeServer(org, name);
        servers.push(server);
        const pkg = buildCcaasPackage({ label: `${name}_1`, connection: server.connection });
        packages.set(org, pkg);
        await server.start(pkg.packageId);
        const endorser = lt.endorser(org);
        try {
          const installed = await installChaincode(endorser, pkg, { trustedMsps: trustedMsps() });
          assert.deepEqual(installed, { packageId: pkg.packageId, label: `${name}_1`, outcome: "installed" });
          assert.equal((await installChaincode(endorser, pkg.bytes)).outcome, "already-installed");
          const listed = (await queryInstalledChaincodes(endorser)).find((p) => p.packageId === pkg.packageId);
          assert.deepEqual(listed, { packageId: pkg.packageId, label: `${name}_1`, references: {} });
        } finally {
          endorser.close();
        }
      }

      const approveNonce = nonce();
      const approved1 = await approveChaincodeDefinition(gateway("Org1MSP"), {
        channelId: ledger.channel,
        definition: first,
        packageId: packageId("Org1MSP"),
        nonce: approveNonce,
        trustedMsps: trustedMsps(),
      });
      assert.equal(approved1.outcome, "submitted");
      assert.deepEqual(await checkCommitReadiness(gateway("Org2MSP"), ledger.channel, prepareDefinition(first)), {
        Org1MSP: true,
        Org2MSP: false,
      });

      // Not yet: the error names the organization that has not approved, and nothing is endorsed.
      const recorded = lt.recordingClient("Org1MSP");
      const early = lt.adminGateway("Org1MSP", { client: recorded.client });
      try {
        const refused = await failure(
          commitChaincodeDefinition(early, { channelId: ledger.channel, definition: first }),
        );
        assert.ok(refused instanceof LifecycleError, String(refused));
        assert.deepEqual([refused.problem, refused.organizations], ["NOT_APPROVED", ["Org2MSP"]]);
        assert.match(
          refused.message,
          new RegExp(
            `^CommitChaincodeDefinition of ${name} sequence 1 on channel 'opsledger': the channel's LifecycleEndorsement ` +
              "policy \\(MAJORITY Endorsement \\(2 of Org1MSP, Org2MSP\\)\\) is not met: approved by Org1MSP, not by " +
              "Org2MSP\\. Approve this very definition \\(sequence 1\\) as the admin of Org2MSP, then commit; nothing was sent$",
          ),
        );
        assert.deepEqual(
          recorded.methods.filter((m) => GATEWAY_WRITES.includes(m)),
          [],
        );
      } finally {
        early.close();
        recorded.client.close();
      }

      const approved2 = await approveChaincodeDefinition(gateway("Org2MSP"), {
        channelId: ledger.channel,
        definition: first,
        packageId: packageId("Org2MSP"),
        nonce: nonce(),
        peers: [],
      });
      assert.equal(approved2.outcome, "submitted");
      await peerCliSeesBothApprovals("Org1MSP", first);

      const commitNonce = nonce();
      const committed = await commitChaincodeDefinition(gateway("Org1MSP"), {
        channelId: ledger.channel,
        definition: first,
        nonce: commitNonce,
      });
      assert.deepEqual([committed.outcome, committed.approvals], ["submitted", { Org1MSP: true, Org2MSP: true }]);
      // The committing organization's peer has the block when the commit's status is VALID; the other's, soon after.
      assert.equal((await queryCommittedDefinition(gateway("Org1MSP"), ledger.channel, name))?.sequence, 1n);
      const read = await committedSeenBy("Org2MSP", 1);
      assert.ok(read !== undefined);
      assert.deepEqual(compareDefinitions(prepareDefinition(first).view, read), []);
      assert.deepEqual([read.endorsementPolicy, read.approvals], [FIRST_POLICY, { Org1MSP: true, Org2MSP: true }]);
      for (const org of ORGS) {
        const approval = await queryApprovedDefinition(gateway(org), ledger.channel, name, { sequence: 1 });
        assert.ok(approval !== undefined);
        assert.deepEqual(
          compareDefinitions({ ...prepareDefinition(first).view, packageId: packageId(org) }, approval),
          [],
        );
      }

      // The same nonces again (a retry, a re-run after kill -9): adopted, nothing sent twice.
      const again = await approveChaincodeDefinition(gateway("Org1MSP"), {
        channelId: ledger.channel,
        definition: first,
        packageId: packageId("Org1MSP"),
        nonce: approveNonce,
      });
      assert.deepEqual([again.outcome, again.transactionId], ["adopted", approved1.transactionId]);
      const commitAgain = await commitChaincodeDefinition(gateway("Org2MSP"), {
        channelId: ledger.channel,
        definition: first,
      });
      assert.equal(commitAgain.outcome, "already-committed");
      const adopted = await commitChaincodeDefinition(gateway("Org1MSP"), {
        channelId: ledger.channel,
        definition: first,
        nonce: commitNonce,
      });
      assert.deepEqual([adopted.outcome, adopted.transactionId], ["adopted", committed.transactionId]);
      // An approval equal to the organization's own is not sent again, whatever the nonce (Fabric would refuse it).
      const equal = await approveChaincodeDefinition(gateway("Org2MSP"), {
        channelId: ledger.channel,
        definition: first,
        packageId: packageId("Org2MSP"),
      });
      assert.deepEqual([equal.outcome, equal.transactionId], ["already-approved", undefined]);
      // A nonce whose txId is another transaction's (the commit's) is refused, naming the nonce.
      const used = await failure(
        approveChaincodeDefinition(gateway("Org1MSP"), {
          channelId: ledger.channel,
          definition: second,
          packageId: packageId("Org1MSP"),
          nonce: commitNonce,
        }),
      );
      assert.ok(used instanceof LifecycleError);
      assert.deepEqual(
        [used.problem, used.field, used.transactionId],
        ["TRANSACTION_ID_USED", "nonce", committed.transactionId],
      );

      const key = `asset-${randomHex(4)}`;
      const created = await submitOnNewChaincode("CreateAsset", [key, "blue"]);
      assert.deepEqual(
        [
          created.status.codeName,
          Buffer.from(created.result).toString(),
          created.verification?.endorsers.map((e) => e.mspId).sort(),
        ],
        ["VALID", "blue", ["Org1MSP", "Org2MSP"]],
      );
      // Under AND(Org1, Org2) one organization's endorsement is not enough.
      const alone = await failure(submitOnNewChaincode("PutAsset", [`${key}-alone`, "red"], ["Org1MSP"]));
      assert.ok(alone instanceof CommitError, String(alone));
      assert.equal(alone.validationCodeName, "ENDORSEMENT_POLICY_FAILURE");
    });

    it("upgrades it by a changed endorsement policy: sequence 2, both re-approve, commit, one organization's endorsement VALID", async () => {
      for (const org of ORGS) {
        const approved = await approveChaincodeDefinition(gateway(org), {
          channelId: ledger.channel,
          definition: second,
          packageId: packageId(org),
          nonce: nonce(),
        });
        assert.equal(approved.outcome, "submitted");
      }
      await peerCliSeesBothApprovals("Org2MSP", second);
      const committed = await commitChaincodeDefinition(gateway("Org2MSP"), {
        channelId: ledger.channel,
        definition: second,
        nonce: nonce(),
      });
      assert.equal(committed.outcome, "submitted");
      assert.equal((await queryCommittedDefinition(gateway("Org2MSP"), ledger.channel, name))?.sequence, 2n);
      const read = await committedSeenBy("Org1MSP", 2);
      assert.deepEqual(
        [read?.sequence, read?.version, read?.endorsementPolicy],
        [2n, "1.1", "OR('Org1MSP.peer',AND('Org2MSP.peer','Org1MSP.member'))"],
      );
      const alone = await submitOnNewChaincode("PutAsset", [`asset-${randomHex(4)}`, "green"], ["Org1MSP"]);
      assert.deepEqual(
        [alone.status.codeName, alone.verification?.endorsers.map((e) => e.mspId)],
        ["VALID", ["Org1MSP"]],
      );
    });

    it("refuses before anything is sent: a policy or collections that do not parse, a sequence behind, a package not installed, an admin the channel does not know", async () => {
      const recorded = lt.recordingClient("Org1MSP");
      const watched = lt.adminGateway("Org1MSP", { client: recorded.client });
      const peerRecorded = lt.recordingClient("Org1MSP");
      const peer = lt.endorser("Org1MSP", { client: peerRecorded.client });
      const third: ChaincodeDefinition = { ...second, version: "1.2", sequence: 3 };
      const approve = (
        definition: ChaincodeDefinition,
        extra: Partial<Parameters<typeof approveChaincodeDefinition>[1]> = {},
      ) =>
        failure(
          approveChaincodeDefinition(watched, {
            channelId: ledger.channel,
            definition,
            packageId: packageId("Org1MSP"),
            nonce: nonce(),
            ...extra,
          }),
        );
      try {
        const policy = await approve({ ...third, endorsementPolicy: "AND('Org1MSP.peer' 'Org2MSP.peer')" });
        assert.ok(policy instanceof PolicySyntaxError);
        assert.equal(
          policy.message,
          `ChaincodeDefinition: invalid input: endorsementPolicy: at column 20 of "AND('Org1MSP.peer' 'Org2MSP.peer')": ` +
            "expected ',' or ')' after the first rule of AND, found 'Org2MSP.peer'",
        );
        const collections = await approve({
          ...third,
          collections: '[{"name":"private","policy":"OR(\'Org1MSP.member\'"}]',
        });
        assert.ok(collections instanceof ValidationError);
        assert.deepEqual(
          collections.failures.map((f) => f.property),
          ["collections[0].policy"],
        );
        assert.deepEqual(recorded.methods, [], "nothing at all is sent for input that does not parse");

        const behind = await approve({ ...first });
        assert.ok(behind instanceof LifecycleError);
        assert.deepEqual([behind.problem, behind.field, behind.organization], ["SEQUENCE", "sequence", "Org1MSP"]);
        assert.equal(
          behind.message,
          `ApproveChaincodeDefinitionForMyOrg of ${name} sequence 1 by Org1MSP: sequence 1 is lower than the sequence 2 ` +
            `committed for ${name} on channel 'opsledger': set sequence 3 for a new definition; nothing was sent`,
        );

        const missing = `${name}_9:${randomHex(32)}`;
        const notInstalled = await approve(third, { packageId: missing, peers: [peer] });
        assert.ok(notInstalled instanceof LifecycleError);
        assert.deepEqual([notInstalled.problem, notInstalled.field], ["PACKAGE_NOT_INSTALLED", "packageId"]);
        assert.match(
          notInstalled.message,
          new RegExp(
            `package ${missing} is not installed on Org1MSP's peer at .*: install it there first; nothing was sent$`,
          ),
        );

        // A certificate Org1MSP's CA never issued: refused by the CA check when the channel's CAs are named, and by the
        // channel itself otherwise (its first read), before any endorsement.
        const stranger = await newMember(await newOrg("Org1MSP"), "Admin@org1");
        const strangerIdentity = {
          mspId: "Org1MSP",
          certificatePem: Buffer.from(stranger.identity.credentials).toString(),
          privateKeyPem: stranger.privateKeyPem,
        };
        const strangerGateway = lt.adminGateway("Org1MSP", { identity: strangerIdentity, client: recorded.client });
        try {
          const checked = await failure(
            approveChaincodeDefinition(strangerGateway, {
              channelId: ledger.channel,
              definition: third,
              trustedMsps: trustedMsps(),
            }),
          );
          assert.ok(checked instanceof LifecycleError);
          assert.deepEqual([checked.problem, checked.field], ["UNKNOWN_IDENTITY", "identity.certificatePem"]);
          const refused = await failure(
            approveChaincodeDefinition(strangerGateway, { channelId: ledger.channel, definition: third }),
          );
          assert.ok(refused instanceof LifecycleError, String(refused));
          assert.deepEqual([refused.problem, refused.field], ["UNKNOWN_IDENTITY", "identity.certificatePem"]);
          assert.match(
            refused.message,
            /channel 'opsledger' does not know the identity of Org1MSP .*creator org unknown, creator is malformed/,
          );
        } finally {
          strangerGateway.close();
        }

        const client = ledger.client("Org1MSP");
        const clientPeer = lt.endorser("Org1MSP", { identity: client, client: peerRecorded.client });
        try {
          const notAdmin = await failure(installChaincode(clientPeer, packages.get("Org1MSP") ?? new Uint8Array(0)));
          assert.ok(notAdmin instanceof LifecycleError);
          assert.deepEqual([notAdmin.problem, notAdmin.field], ["NOT_AN_ADMIN", "identity.certificatePem"]);
        } finally {
          clientPeer.close();
        }

        assert.deepEqual(
          recorded.methods.filter((m) => GATEWAY_WRITES.includes(m)),
          [],
          "no endorsement, no submission",
        );
        assert.deepEqual(
          peerRecorded.methods,
          ["/protos.Endorser/ProcessProposal"],
          "the peer was asked once, what it has installed",
        );
      } finally {
        watched.close();
        peer.close();
        recorded.client.close();
        peerRecorded.client.close();
      }
    });
  });
}
