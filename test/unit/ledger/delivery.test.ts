/**
 * provider/ledger/delivery.ts on a simulated clock with scripted gateway answers: what is retried (a gateway or
 * endorser not answering, no Raft leader, a commit status that never comes), what is not (the orderers' refusal), that
 * a retry always sends the same signed transaction, and the message when it gives up. The same faults on real Fabric:
 * test/integration/fabric-network/faults-client.test.ts.
 */
import { strict as assert } from "node:assert";
import { status as grpcStatus } from "@grpc/grpc-js";
import { CommitStatusError } from "../../../provider/errors/ledger/commit-status-error";
import { EndorseError } from "../../../provider/errors/ledger/endorse-error";
import { LedgerError } from "../../../provider/errors/ledger/ledger-error";
import { SubmitError } from "../../../provider/errors/ledger/submit-error";
import type { Commit, CommitStatus, Transaction } from "../../../provider/ledger/gateway-objects";
import {
  DEFAULT_GATEWAY_GRACE_MS,
  DEFAULT_RESUBMIT_AFTER_MS,
  deliver,
  isAlreadyOrdered,
  transientKind,
  withRetries,
} from "../../../provider/ledger/delivery";
import type { DeliveryOptions, RetryClock } from "../../../provider/ledger/delivery";

const TX_ID = "ab".repeat(32);
const ADDRESS = "127.0.0.1:7051";
const REFUSED = "No connection established. Last error: Error: connect ECONNREFUSED 127.0.0.1:7051. Resolution note: ";

/** A clock that only moves when the code under test sleeps or a scripted call takes time. */
function simulatedClock(): RetryClock & { slept: number[]; advance(ms: number): void } {
  let now = 1_000_000;
  const slept: number[] = [];
  return {
    slept,
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
    advance: (ms) => {
      now += ms;
    },
  };
}

function submitError(code: number, message: string): SubmitError {
  return new SubmitError({ code, details: [], method: "/gateway.Gateway/Submit", message, transactionId: TX_ID });
}

function statusError(code: number, message: string): CommitStatusError {
  return new CommitStatusError({
    code,
    details: [],
    method: "/gateway.Gateway/CommitStatus",
    message,
    transactionId: TX_ID,
  });
}

const VALID: CommitStatus = { transactionId: TX_ID, code: 0, codeName: "VALID", successful: true, blockNumber: 7n };

type Answer = Error | CommitStatus | "wait";

/**
 * A Transaction whose Submit answers follow `submits` (an Error, else accepted) and whose CommitStatus answers follow
 * `statuses` ("wait": no commit before the call's deadline, which the clock jumps to). Records the deadline of every
 * call and the envelope each submission sent.
 */
function scripted(clock: ReturnType<typeof simulatedClock>, submits: (Error | "ok")[], statuses: Answer[]) {
  const calls: string[] = [];
  const commit: Commit = {
    getTransactionId: () => TX_ID,
    getBytes: () => new Uint8Array(0),
    getDigest: () => new Uint8Array(0),
    getStatus: (options) => {
      calls.push("status");
      const answer = statuses.shift() ?? "wait";
      if (answer === "wait") {
        const deadline = Number(options?.deadline);
        clock.advance(Math.max(0, deadline - clock.now()));
        return Promise.reject(statusError(grpcStatus.DEADLINE_EXCEEDED, "Deadline exceeded"));
      }
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    },
  };
  const envelope = new Uint8Array([1, 2, 3]); // signed once: every submission sends these same bytes
  const sent: Uint8Array[] = [];
  const transaction: Transaction = {
    getTransactionId: () => TX_ID,
    getBytes: () => envelope,
    getDigest: () => new Uint8Array(0),
    getResult: () => new Uint8Array(0),
    getVerification: () => undefined,
    submit: () => {
      calls.push("submit");
      sent.push(transaction.getBytes());
      const answer = submits.shift() ?? "ok";
      return answer === "ok" ? Promise.resolve(commit) : Promise.reject(answer);
    },
  };
  return { transaction, calls, sent };
}

function options(clock: RetryClock, extra: Partial<DeliveryOptions> = {}) {
  const reports: { message: string; lasting: boolean }[] = [];
  const o: DeliveryOptions = {
    subject: "LedgerTransaction asset",
    address: ADDRESS,
    deadline: clock.now() + 20 * 60_000,
    clock,
    report: (message, lasting) => reports.push({ message, lasting }),
    ...extra,
  };
  return { o, reports };
}

describe("LedgerTransaction delivery through network faults", () => {
  it("submits the same signed transaction again when no commit status comes, waiting twice as long each time", async () => {
    const clock = simulatedClock();
    const start = clock.now();
    const { transaction, calls, sent } = scripted(clock, [], ["wait", "wait", VALID]);
    const { o, reports } = options(clock);
    const delivery = await deliver(transaction, o);
    assert.deepEqual(delivery, { status: VALID, submissions: 3 });
    assert.deepEqual(calls, ["submit", "status", "submit", "status", "submit", "status"]);
    assert.ok(
      sent.every((bytes) => bytes === sent[0]),
      "one envelope, signed once",
    );
    assert.equal(clock.now() - start, DEFAULT_RESUBMIT_AFTER_MS * 3); // 10 s, then 20 s
    assert.deepEqual(
      reports.filter((r) => r.lasting).map((r) => /not committed (\d+) s after/.exec(r.message)?.[1]),
      ["10", "20"],
    );
  });

  it("retries Submit while the orderers have no leader or the gateway is down, with backoff", async () => {
    const clock = simulatedClock();
    const { transaction, calls } = scripted(
      clock,
      [
        submitError(grpcStatus.UNAVAILABLE, "no orderers could successfully process transaction"),
        submitError(grpcStatus.DEADLINE_EXCEEDED, "Deadline exceeded after 5.000s"),
        submitError(grpcStatus.UNAVAILABLE, REFUSED),
      ],
      [VALID],
    );
    const { o, reports } = options(clock);
    assert.deepEqual(await deliver(transaction, o), { status: VALID, submissions: 1 });
    assert.deepEqual(calls, ["submit", "submit", "submit", "submit", "status"]);
    assert.deepEqual(clock.slept, [250, 500, 1000]);
    assert.match(reports[0]?.message ?? "", /^gateway 127\.0\.0\.1:7051: UNAVAILABLE: no orderers could successfully/);
  });

  it("keeps waiting for the commit status while the gateway peer restarts, without resubmitting", async () => {
    const clock = simulatedClock();
    const { transaction, calls } = scripted(
      clock,
      [],
      [statusError(grpcStatus.UNAVAILABLE, "Connection dropped"), statusError(grpcStatus.UNAVAILABLE, REFUSED), VALID],
    );
    const { o } = options(clock);
    assert.deepEqual(await deliver(transaction, o), { status: VALID, submissions: 1 });
    assert.deepEqual(calls, ["submit", "status", "status", "status"]);
  });

  it("does not retry the orderers' refusal: the gateway's error is rethrown after one Submit", async () => {
    const clock = simulatedClock();
    const refused = submitError(grpcStatus.ABORTED, "received unsuccessful response from orderer: status=FORBIDDEN");
    const { transaction, calls } = scripted(clock, [refused], []);
    const { o } = options(clock);
    await assert.rejects(deliver(transaction, o), (e) => e === refused);
    assert.deepEqual(calls, ["submit"]);
  });

  it("gives up on a gateway that never answered: nothing was submitted, start the peer, run pulumi up again", async () => {
    const clock = simulatedClock();
    const down = Array.from({ length: 100 }, () => submitError(grpcStatus.UNAVAILABLE, REFUSED));
    const { transaction, calls } = scripted(clock, down, []);
    const { o } = options(clock);
    await assert.rejects(deliver(transaction, o), (e: unknown) => {
      assert.ok(e instanceof LedgerError);
      assert.equal(
        e.message,
        "LedgerTransaction asset: the gateway peer at 127.0.0.1:7051 did not answer for 20 s (UNAVAILABLE: No connection " +
          "established. last error: connect ECONNREFUSED 127.0.0.1:7051). Nothing was submitted: start that peer or " +
          "set gateway.address to a running gateway peer, then run `pulumi up` again",
      );
      return true;
    });
    assert.ok(calls.length > 5 && calls.every((c) => c === "submit"));
    assert.ok(clock.slept.reduce((a, b) => a + b, 0) <= DEFAULT_GATEWAY_GRACE_MS);
  });

  it("gives up on a commit status the gateway cannot give after the submission: outcome unknown, the re-run adopts it", async () => {
    const clock = simulatedClock();
    const down = Array.from({ length: 100 }, () => statusError(grpcStatus.UNAVAILABLE, REFUSED));
    const { transaction } = scripted(clock, [], down);
    const { o } = options(clock);
    await assert.rejects(deliver(transaction, o), (e: unknown) => {
      assert.ok(e instanceof LedgerError);
      assert.equal(e.transactionId, TX_ID);
      assert.match(
        e.message,
        new RegExp(
          `^LedgerTransaction asset: transaction ${TX_ID} was sent to the gateway, but the gateway peer at 127\\.0\\.0\\.1:7051 ` +
            "did not answer for \\d+ s \\(UNAVAILABLE: .*\\), so its outcome is unknown\\. Once it answers \\(start that peer " +
            "or set gateway.address to a running gateway peer\\), run `pulumi up` again: the re-run looks the txId up and " +
            "adopts the transaction if it committed, or submits it again \\(Fabric lets at most one transaction with a txId be VALID\\)$",
        ),
      );
      return true;
    });
  });

  it("stops at the step's deadline when no commit status ever comes", async () => {
    const clock = simulatedClock();
    const { transaction, calls } = scripted(clock, [], []);
    const { o } = options(clock, { deadline: clock.now() + 60_000 });
    await assert.rejects(
      deliver(transaction, o),
      new RegExp(
        `transaction ${TX_ID} was submitted 3 times but the gateway at 127\\.0\\.0\\.1:7051 reported no commit`,
      ),
    );
    assert.deepEqual(calls, ["submit", "status", "submit", "status", "submit", "status"]); // at 0, 10 s, 30 s; ends at 60 s
  });

  it("retries an endorsement while a restarted gateway rediscovers its peers or another organization's peer is down", async () => {
    const clock = simulatedClock();
    const endorseError = (code: number, message: string, details: { mspId: string; message: string }[] = []) =>
      new EndorseError({
        code,
        details: details.map((d) => ({ ...d, address: "127.0.0.1:9051" })),
        method: "/gateway.Gateway/Endorse",
        message,
        transactionId: TX_ID,
      });
    const answers: Error[] = [
      endorseError(
        grpcStatus.FAILED_PRECONDITION,
        "no combination of peers can be derived which satisfy the endorsement policy",
      ),
      endorseError(grpcStatus.ABORTED, "failed to collect enough transaction endorsements", [
        { mspId: "Org2MSP", message: "rpc error: code = Unavailable desc = connection error" },
      ]),
    ];
    let calls = 0;
    const { o } = options(clock);
    const result = await withRetries(o, undefined, () => {
      calls++;
      const next = answers.shift();
      return next === undefined ? Promise.resolve("endorsed") : Promise.reject(next);
    });
    assert.equal(result, "endorsed");
    assert.equal(calls, 3);
    // A chaincode error or a policy failure is an answer, not a fault: no retry.
    const policy = endorseError(grpcStatus.ABORTED, "failed to collect enough transaction endorsements", [
      { mspId: "Org2MSP", message: "chaincode response 500, the asset x already exists" },
    ]);
    assert.equal(transientKind(policy, "endorse"), undefined);
    assert.equal(
      transientKind(endorseError(grpcStatus.FAILED_PRECONDITION, "channel x not found"), "endorse"),
      undefined,
    );
    assert.equal(transientKind(new Error("plain"), "submit"), undefined);
    // A gateway whose TLS certificate does not verify is a setting to fix: no retry.
    const tls = endorseError(
      grpcStatus.UNAVAILABLE,
      "No connection established. Last error: unable to verify the first certificate",
    );
    assert.equal(transientKind(tls, "endorse"), undefined);
    assert.equal(transientKind(endorseError(grpcStatus.UNAVAILABLE, REFUSED), "endorse"), "gateway");
  });
});

/**
 * SmartBFT: the gateway submits to every orderer and fails the Submit (UNAVAILABLE) when too few accept; an orderer
 * that has already ordered the txId answers SERVICE_UNAVAILABLE "request already processed" (Fabric's gateway,
 * internal/pkg/gateway/submit.go, and /work/shared/reference/fabric.md), which means the transaction was accepted.
 */
function alreadyProcessed(): SubmitError {
  const detail = (port: number) => ({
    address: `127.0.0.1:${String(port)}`,
    mspId: "OrdererMSP",
    message:
      "received unsuccessful response from orderer: status=SERVICE_UNAVAILABLE, info=failed to submit request: " +
      "request already processed",
  });
  return new SubmitError({
    code: grpcStatus.UNAVAILABLE,
    details: [detail(7050), detail(7051)],
    method: "/gateway.Gateway/Submit",
    message: "insufficient number of orderers could successfully process transaction to satisfy quorum requirement",
    transactionId: TX_ID,
  });
}

describe("LedgerTransaction delivery: the orderers already have the transaction (SmartBFT)", () => {
  it("a resubmission answered 'request already processed' counts as accepted: the commit status decides", async () => {
    const clock = simulatedClock();
    const { transaction, calls } = scripted(clock, ["ok", alreadyProcessed()], ["wait", VALID]);
    const { o, reports } = options(clock);
    assert.deepEqual(await deliver(transaction, o), { status: VALID, submissions: 2 });
    assert.deepEqual(calls, ["submit", "status", "submit", "status"], "no retry of the refused Submit");
    assert.deepEqual(clock.slept, [], "no backoff: it is not a fault");
    assert.match(
      reports.map((r) => r.message).join("\n"),
      new RegExp(`transaction ${TX_ID}: the orderers answered that they already have it \\(UNAVAILABLE: insufficient`),
    );
  });

  it("a first Submit answered so (an envelope of this txId ordered by a killed run) waits on the txId's status", async () => {
    const clock = simulatedClock();
    const { transaction, calls } = scripted(clock, [alreadyProcessed()], []);
    const asked: string[] = [];
    const { o } = options(clock, {
      commitStatus: () => {
        asked.push("txId status");
        return Promise.resolve(VALID);
      },
    });
    assert.deepEqual(await deliver(transaction, o), { status: VALID, submissions: 1 });
    assert.deepEqual([calls, asked], [["submit"], ["txId status"]]);
  });

  it("without a commit status to ask, the answer stays a failed submission (retried as the orderers' fault)", async () => {
    const clock = simulatedClock();
    const refusals = Array.from({ length: 100 }, alreadyProcessed);
    const { transaction, calls } = scripted(clock, refusals, []);
    const { o } = options(clock);
    await assert.rejects(deliver(transaction, o), /the orderers did not accept the transaction/);
    assert.ok(calls.length > 1 && calls.every((c) => c === "submit"));
  });

  it("isAlreadyOrdered: the words in the message or in an ErrorDetail, nothing else", () => {
    assert.equal(isAlreadyOrdered(alreadyProcessed()), true);
    assert.equal(
      isAlreadyOrdered(submitError(grpcStatus.UNAVAILABLE, "no orderers could successfully process transaction")),
      false,
    );
    assert.equal(isAlreadyOrdered(new Error("request already processed")), false, "only a gateway's answer");
  });
});
