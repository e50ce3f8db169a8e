/**
 * Our gateway client (provider/ledger) through faults of a real Fabric network, each step driven in-process so the
 * fault lands exactly between two steps, and each outcome checked on the real ledger through both peers (block entries
 * and qscc: test/helpers/ledger-audit.ts): kill -9 of the Raft leader right after the orderers acknowledged a
 * transaction (it is lost; the same signed envelope, submitted again, commits once), concurrent submissions through a
 * leader change, a gateway peer restarted between endorsement and submission and between submission and commit
 * status, the other organization's peer down meanwhile, and the gateway peer down. Submissions that must survive a
 * fault go through the delivery the ledger component uses (provider/ledger/delivery.ts).
 * Each network is this file's own (`start({ own: true })`): the run's shared network is never disturbed.
 */
import { strict as assert } from "node:assert";
import { randomUUID } from "node:crypto";
import { status as grpcStatus } from "@grpc/grpc-js";
import { CommitStatusError } from "../../../provider/errors/ledger/commit-status-error";
import { EndorseError } from "../../../provider/errors/ledger/endorse-error";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import type { Gateway } from "../../../provider/ledger/gateway-client";
import type { Transaction } from "../../../provider/ledger/gateway-objects";
import { deliver, withRetries } from "../../../provider/ledger/delivery";
import type { DeliveryOptions } from "../../../provider/ledger/delivery";
import { connectGateway, type FabricNetwork } from "../../../sandbox/fabric-network";
import { assertCommittedOnce, assertNotOrdered, chainHeight } from "../../helpers/ledger-audit";
import { ledgerTargets } from "../../helpers/ledger-targets";
import type { LedgerTarget } from "../../helpers/ledger-targets";

/**
 * The orderers' BatchTimeout on these networks: a leader kill must land between the orderers' acknowledgement and the
 * leader's batch cut, a timer inside the orderer that no test event can hold; the default 500 ms is shorter than a
 * loaded machine's delay before the kill. A late kill still fails the test (the transaction commits instead of being
 * lost), it cannot pass it.
 */
const BATCH_TIMEOUT_MS = 3_000;

/** Faults every release line gets (the leader kill is cheap); the rest run on the LTS only, to keep the run's time. */
const FULL = "2.5.16";

function deliveryOptions(subject: string, address: string, reports: string[] = []): DeliveryOptions {
  return {
    subject,
    address,
    deadline: Date.now() + 120_000,
    report: (message) => reports.push(message),
  };
}

for (const target of ledgerTargets(["2.5.16", "3.1.5"]).filter((t) => t.kind === "fabric")) {
  describe(`our gateway client through faults of a real network (${target.label})`, function () {
    this.timeout(180_000);
    let ledger: LedgerTarget;
    let network: FabricNetwork;
    let ours: Gateway;
    const full = target.label.endsWith(FULL);

    before(async function () {
      this.timeout(300_000);
      ledger = await target.start({ own: true, batchTimeoutMs: BATCH_TIMEOUT_MS });
      assert.ok(ledger.network);
      network = ledger.network;
      ours = ledger.connectOurs();
    });
    after(async function () {
      this.timeout(60_000);
      ours.close();
      await ledger.close();
    });

    const key = (): string => `fault-${randomUUID()}`;
    const endorse = (args: string[]): Promise<Transaction> =>
      ours
        .newProposal({ channelId: ledger.channel, chaincodeName: ledger.chaincode, functionName: "CreateAsset", args })
        .endorse();
    /**
     * After a node restart: waits until our client endorses with both organizations again (grpc-js reconnects a
     * channel on its own backoff, and a restarted gateway peer needs a few seconds to rediscover the other
     * organization), through the component's own retries.
     */
    const whole = (): Promise<unknown> =>
      withRetries(deliveryOptions("probe", ledger.gateway().address), undefined, (o) =>
        ours
          .newProposal({
            channelId: ledger.channel,
            chaincodeName: ledger.chaincode,
            functionName: "AssetExists",
            args: ["probe"],
            endorsingOrganizations: ["Org1MSP", "Org2MSP"],
          })
          .endorse(o),
      );

    it("loses a transaction the orderers acknowledged when kill -9 takes the Raft leader; the same envelope, submitted again, commits once", async () => {
      const leader = await network.waitForRaftLeader();
      const transaction = await endorse([key(), "lost-and-found"]);
      const commit = await transaction.submit(); // the orderers acknowledged it: SUCCESS from Broadcast
      await network.stopProcess(leader, { signal: "SIGKILL" }); // before the leader cuts its batch (BATCH_TIMEOUT_MS)
      try {
        // The fault: the acknowledged transaction is gone with the leader's uncut batch; no peer ever commits it.
        await assert.rejects(commit.getStatus({ deadline: Date.now() + 5_000 }), (e: unknown) => {
          assert.ok(e instanceof CommitStatusError);
          assert.ok([grpcStatus.DEADLINE_EXCEEDED as number, grpcStatus.CANCELLED].includes(e.code), e.message);
          return true;
        });
        const next = await network.waitForRaftLeader({ except: leader });
        assert.notEqual(next, leader);
        // Lost, not late: a sentinel submitted now commits, and Org1's peer, which has its block, does not know it.
        await assertNotOrdered(network, "Org1MSP", [transaction.getTransactionId()]);
        const status = await (await transaction.submit()).getStatus(); // the same signed envelope
        assert.equal(status.codeName, "VALID");
        const once = await assertCommittedOnce(network, [transaction.getTransactionId()]);
        assert.equal(once.duplicates, 0, "the first copy never reached a block");
      } finally {
        await network.startProcess(leader);
      }
    });

    it("commits 12 submissions exactly once when kill -9 takes the leader at the first commit: six before, six during the election", async () => {
      const leader = await network.waitForRaftLeader();
      const transactions = await Promise.all(
        Array.from({ length: 12 }, () => endorse([key(), "through-a-leader-change"])),
      );
      const ids = new Set(transactions.map((t) => t.getTransactionId()));
      // A block listener on Org2's peer: the kill lands when the first of ours is committed, the rest still in flight.
      const watcher = connectGateway(network.organization("Org2MSP"));
      const blocks = await watcher.gateway
        .getNetwork(ledger.channel)
        .getFilteredBlockEvents({ startBlock: await chainHeight(network, "Org2MSP") });
      let committedAtKill = -1;
      const leaderKilled = { yes: false };
      const killed = (async () => {
        for await (const block of blocks) {
          const mine = block.getFilteredTransactionsList().filter((t) => ids.has(t.getTxid()));
          if (mine.length === 0) continue;
          committedAtKill = mine.length;
          await network.stopProcess(leader, { signal: "SIGKILL" });
          leaderKilled.yes = true;
          return;
        }
      })();
      const reports: string[] = [];
      try {
        const deliveries = await Promise.all(
          transactions.map(async (t, i) => {
            // Staggered by the block listener, not a clock: the second half starts once the leader is dead.
            if (i >= 6) await killed;
            return deliver(t, deliveryOptions(`tx ${String(i)}`, ledger.gateway().address, reports));
          }),
        );
        await killed;
        assert.ok(
          committedAtKill >= 1 && committedAtKill < 12,
          `the kill came mid-way (${String(committedAtKill)} committed)`,
        );
        // The submissions after the kill met the election, in one of the two ways a leader change shows: Submit failed
        // (no leader to forward to) and was retried, or a second-half Submit was acknowledged and the transaction lost
        // with the dead leader, and the same envelope was submitted again (seen with two suites and two busy loops on
        // 2 cores: six transactions lost after acknowledgement, none refused).
        const secondHalf = transactions.slice(6).map((t) => t.getTransactionId());
        assert.ok(
          reports.some(
            (r) =>
              /: (UNAVAILABLE|DEADLINE_EXCEEDED|CANCELLED): .*; trying again$/.test(r) ||
              (secondHalf.some((id) => r.includes(id)) &&
                /not committed \d+ s after it was submitted: submitting the same signed transaction again/.test(r)),
          ),
          `a Submit of the second half met the election: ${reports.join(" | ")}`,
        );
        assert.deepEqual(
          deliveries.map((d) => d.status.codeName),
          transactions.map(() => "VALID"),
        );
        assert.notEqual(await network.waitForRaftLeader({ except: leader }), leader);
        const once = await assertCommittedOnce(network, [...ids]);
        assert.ok(
          once.duplicates <= deliveries.reduce((n, d) => n + d.submissions - 1, 0),
          "duplicates only from resubmissions",
        );
      } finally {
        blocks.close();
        watcher.close();
        if (leaderKilled.yes) await network.startProcess(leader);
      }
    });

    if (!full) return; // 3.1.5: the leader kill only (see FULL above)

    it("waits out a gateway peer restarted between endorsement and submission: the same envelope commits once", async () => {
      const gatewayPeer = network.organization("Org1MSP").peerName;
      const transaction = await endorse([key(), "peer-restarted-before-submit"]);
      await network.stopProcess(gatewayPeer, { signal: "SIGKILL" });
      const reports: string[] = [];
      const delivered = deliver(transaction, deliveryOptions("restart", ledger.gateway().address, reports));
      await network.startProcess(gatewayPeer);
      const { status, submissions } = await delivered;
      assert.equal(status.codeName, "VALID");
      assert.ok(
        reports.some((r) => r.includes("UNAVAILABLE")),
        `Submit found the peer down at least once: ${reports.join(" | ")}`,
      );
      assert.equal(submissions, 1, "an attempt that never connected sent nothing");
      await assertCommittedOnce(network, [transaction.getTransactionId()]);
      await whole();
    });

    it("reads the commit status from the gateway peer restarted by kill -9 right after submission, once", async () => {
      const gatewayPeer = network.organization("Org1MSP").peerName;
      const transaction = await endorse([key(), "peer-restarted-before-status"]);
      const commit = await transaction.submit();
      await network.stopProcess(gatewayPeer, { signal: "SIGKILL" });
      await assert.rejects(commit.getStatus({ deadline: Date.now() + 5_000 }), (e: unknown) => {
        assert.ok(e instanceof GatewayError && e.code === (grpcStatus.UNAVAILABLE as number), String(e));
        return true;
      });
      await network.startProcess(gatewayPeer);
      // The restarted peer takes the block from the orderers and then answers; no resubmission is needed. (grpc-js
      // fails calls at once until it has reconnected on its own backoff: the component's retries ride over that.)
      const reports: string[] = [];
      const status = await withRetries(
        deliveryOptions("status", ledger.gateway().address, reports),
        transaction.getTransactionId(),
        () => commit.getStatus({ deadline: Date.now() + 60_000 }),
      );
      assert.equal(status.codeName, "VALID");
      await assertCommittedOnce(network, [transaction.getTransactionId()]);
      await whole();
    });

    it("commits on both peers when the other organization's peer is down between endorsement and commit status", async () => {
      const otherPeer = network.organization("Org2MSP").peerName;
      const transaction = await endorse([key(), "other-peer-down"]);
      await network.stopProcess(otherPeer, { signal: "SIGKILL" });
      try {
        // The orderers and Org1's peer do not need Org2's peer once it has endorsed.
        const status = await (await transaction.submit()).getStatus();
        assert.equal(status.codeName, "VALID");
        // While it is down, nothing endorses (the policy needs both organizations): the gateway names Org2's peer
        // as unreachable, or — once discovery has dropped it — finds no combination of peers.
        await assert.rejects(endorse([key(), "needs-org2"]), (e: unknown) => {
          assert.ok(e instanceof EndorseError, String(e));
          if (e.code === (grpcStatus.ABORTED as number))
            assert.match(e.message, /Org2MSP@127\.0\.0\.1:\d+: .*Unavailable/);
          else assert.match(e.message, /\(gRPC 9\): no combination of peers can be derived/);
          return true;
        });
      } finally {
        await network.startProcess(otherPeer);
      }
      await assertCommittedOnce(network, [transaction.getTransactionId()]); // Org2's peer caught up
      await whole();
    });

    it("fails with UNAVAILABLE when the gateway peer is down; the retries give up naming it, and nothing reaches the ledger", async () => {
      const gatewayPeer = network.organization("Org1MSP").peerName;
      const address = ledger.gateway().address;
      await network.stopProcess(gatewayPeer, { signal: "SIGKILL" });
      const proposal = ours.newProposal({
        channelId: ledger.channel,
        chaincodeName: ledger.chaincode,
        functionName: "CreateAsset",
        args: [key(), "never"],
      });
      try {
        // Our client's error says what failed (read ECONNRESET on the open connection, then connect ECONNREFUSED),
        // not where: the component's message adds the address and what to do.
        await assert.rejects(proposal.endorse(), (e: unknown) => {
          assert.ok(e instanceof EndorseError);
          assert.equal(e.code, grpcStatus.UNAVAILABLE);
          assert.equal(e.transactionId, proposal.getTransactionId());
          return true;
        });
        const started = Date.now();
        await assert.rejects(
          withRetries({ ...deliveryOptions("LedgerTransaction x", address), graceMs: 2_000 }, undefined, (o) =>
            proposal.endorse(o),
          ),
          (e: unknown) => {
            assert.ok(e instanceof Error);
            assert.match(
              e.message,
              new RegExp(
                `^LedgerTransaction x: the gateway peer at ${address} did not answer for \\d+ s \\(UNAVAILABLE: .*` +
                  `connect ECONNREFUSED ${address}\\)\\. Nothing was submitted: start that peer or set gateway\\.address`,
              ),
            );
            return true;
          },
        );
        assert.ok(Date.now() - started >= 1_000, "it retried before giving up");
      } finally {
        await network.startProcess(gatewayPeer);
      }
      // Nothing reached the ledger: a sentinel submitted once the peer is back commits, and Org2's peer, which has its
      // block, does not know the proposal's txId.
      await assertNotOrdered(network, "Org2MSP", [proposal.getTransactionId()]);
      await whole();
    });
  });
}
