import { strict as assert } from "node:assert";
import type { GoogleClient } from "../../../provider/google/client";
import type { ComputeOperation } from "../../../provider/operations/operation-types";
import { firewallPolicyMoveProvider, moveAndWait } from "../../../provider/resources/firewall-policy-move";
import type {
  FirewallPolicyMoveInputs,
  FirewallPolicyMoveOutputs,
} from "../../../provider/resources/firewall-policy-move";

const URN = "urn:pulumi:dev::demo::pulumi-nodejs:dynamic/compute:FirewallPolicyMove::edge";

function inputs(parentId: string, extra: Partial<FirewallPolicyMoveInputs> = {}): FirewallPolicyMoveInputs {
  return { __urn: URN, firewallPolicy: "300000000002", parentId, ...extra };
}

async function checked(
  olds: Partial<FirewallPolicyMoveInputs>,
  news: FirewallPolicyMoveInputs,
): Promise<FirewallPolicyMoveInputs> {
  const result = await firewallPolicyMoveProvider.check(olds, news);
  assert.equal(result.failures, undefined, JSON.stringify(result.failures));
  return result.inputs as FirewallPolicyMoveInputs;
}

function outputs(i: FirewallPolicyMoveInputs, parent: string): FirewallPolicyMoveOutputs {
  return { ...i, firewallPolicyId: "300000000002", parent, previousParent: "organizations/100000000001" };
}

describe("FirewallPolicyMove check", () => {
  it("derives the same requestId when a create is retried (same URN, policy, parent)", async () => {
    const first = await checked({}, inputs("folders/200000000001"));
    const retry = await checked({}, inputs("folders/200000000001"));
    assert.equal(first.__generation, 1);
    assert.equal(retry.__requestId, first.__requestId);
    assert.match(first.__requestId ?? "", /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("keeps requestId and generation while the target parent is unchanged", async () => {
    const a = await checked({}, inputs("folders/200000000001"));
    const again = await checked(a, inputs("folders/200000000001"));
    assert.deepEqual([again.__generation, again.__requestId], [a.__generation, a.__requestId]);
  });

  it("gives each change of parent a new requestId, so A→B→A→B are three distinct moves", async () => {
    const a1 = await checked({}, inputs("folders/200000000001"));
    const b1 = await checked(a1, inputs("folders/200000000002"));
    const a2 = await checked(b1, inputs("folders/200000000001"));
    const b2 = await checked(a2, inputs("folders/200000000002"));
    assert.deepEqual([a1.__generation, b1.__generation, a2.__generation, b2.__generation], [1, 2, 3, 4]);
    assert.equal(new Set([a1.__requestId, b1.__requestId, a2.__requestId, b2.__requestId]).size, 4);
  });

  it("reuses the interrupted update's requestId when the update is retried from the old state", async () => {
    const a = await checked({}, inputs("folders/200000000001"));
    const attempt1 = await checked(a, inputs("folders/200000000002"));
    const attempt2 = await checked(a, inputs("folders/200000000002"));
    assert.equal(attempt2.__requestId, attempt1.__requestId);
  });

  it("returns failures naming every bad field, without throwing", async () => {
    const result = await firewallPolicyMoveProvider.check(
      {},
      inputs("folder/9", {
        firewallPolicy: "policy-x",
        requestId: "00000000-0000-0000-0000-000000000000",
        timeouts: { create: "soon" },
      }),
    );
    assert.deepEqual(
      result.failures?.map((f) => f.property),
      ["firewallPolicy", "parentId", "requestId", "timeouts.create"],
    );
    assert.match(
      result.failures[1]?.reason ?? "",
      /'folder\/9' must be 'folders\/<digits>' or 'organizations\/<digits>'/,
    );
  });

  it("refuses a user requestId reused for a different parent (Google would ignore the second move)", async () => {
    const rid = "3f0c1e9a-5b7d-4c2e-9f61-2a8b7c4d5e6f";
    const a = await checked({}, inputs("folders/200000000001", { requestId: rid }));
    const result = await firewallPolicyMoveProvider.check(a, inputs("folders/200000000002", { requestId: rid }));
    assert.equal(result.failures?.[0]?.property, "requestId");
    assert.match(result.failures[0].reason, /already used for the move to folders\/200000000001/);
  });
});

describe("FirewallPolicyMove state written before the plumbing was hidden", () => {
  const legacy = {
    resourceUrn: URN,
    firewallPolicy: "300000000002",
    parentId: "folders/200000000001",
    generation: 2,
    requestId: "5b1e0c4a-2d3f-8e41-9a6b-7c8d9e0f1a2b",
    requestIdSource: "derived",
  } as unknown as FirewallPolicyMoveInputs;

  it("keeps the recorded requestId and generation, now under __ keys, without a user requestId", async () => {
    const next = await checked(legacy, inputs("folders/200000000001"));
    assert.deepEqual(
      [next.__generation, next.__requestId, next.requestId],
      [2, "5b1e0c4a-2d3f-8e41-9a6b-7c8d9e0f1a2b", undefined],
    );
    assert.deepEqual(
      Object.keys(next).filter((k) => ["resourceUrn", "generation", "requestIdSource"].includes(k)),
      [],
    );
  });

  it("counts on from the recorded generation when the parent changes", async () => {
    const next = await checked(legacy, inputs("folders/200000000002"));
    assert.equal(next.__generation, 3);
    assert.notEqual(next.__requestId, legacy.requestId);
  });
});

describe("FirewallPolicyMove diff", () => {
  it("treats a parent change as an in-place update, never a replace", async () => {
    const a = await checked({}, inputs("folders/200000000001"));
    const b = await checked(a, inputs("folders/200000000002"));
    const d = await firewallPolicyMoveProvider.diff("id", outputs(a, "folders/200000000001"), b);
    assert.deepEqual(d, { changes: true, replaces: [], deleteBeforeReplace: false });
  });

  it("replaces when the firewall policy changes, comparing normalized ids", async () => {
    const a = await checked({}, inputs("folders/200000000001"));
    const same = await firewallPolicyMoveProvider.diff("id", outputs(a, "folders/200000000001"), {
      ...a,
      firewallPolicy: "locations/global/firewallPolicies/300000000002",
    });
    assert.equal(same.changes, false);
    const other = await firewallPolicyMoveProvider.diff("id", outputs(a, "folders/200000000001"), {
      ...a,
      firewallPolicy: "300000000003",
    });
    assert.deepEqual(other.replaces, ["firewallPolicy"]);
  });

  it("reports drift: the observed parent differs from the desired one", async () => {
    const a = await checked({}, inputs("folders/200000000001"));
    const d = await firewallPolicyMoveProvider.diff("id", outputs(a, "folders/200000000003"), a);
    assert.equal(d.changes, true);
    assert.deepEqual(d.replaces, []);
  });
});

/** A client whose move POSTs answer from `answers` in turn (recording each requestId); nothing else is called. */
function moveClient(answers: ComputeOperation[]): { client: GoogleClient; requestIds: string[] } {
  const requestIds: string[] = [];
  const client = {
    call: (id: string, params: { requestId?: string }) => {
      assert.equal(id, "compute.firewallPolicies.move", "only move POSTs: every answer here is DONE");
      requestIds.push(params.requestId ?? "");
      const answer = answers.shift();
      assert.ok(answer, "a POST more than expected");
      return Promise.resolve(answer);
    },
  } as unknown as GoogleClient;
  return { client, requestIds };
}

const iso = (ms: number): string => new Date(ms).toISOString();
const QUOTA = { errors: [{ code: "QUOTA_EXCEEDED", message: "Quota exceeded" }] };
const MOVE_ARGS = {
  urn: URN,
  policyId: "300000000002",
  parentId: "folders/200000000003",
  requestId: "c55fa92c-62aa-8033-9184-df08795efdf1",
  deadlineMs: 60_000,
};

describe("FirewallPolicyMove moveAndWait: a failed operation replayed for an earlier run's requestId", () => {
  it("skips it with a new requestId even when it ended under a second before this run (inserted earlier)", async () => {
    const now = Date.now();
    const stale: ComputeOperation = {
      name: "operation-old",
      status: "DONE",
      insertTime: iso(now - 1_300),
      endTime: iso(now - 300),
      httpErrorStatusCode: 403,
      error: QUOTA,
    };
    const fresh: ComputeOperation = { name: "operation-new", status: "DONE", progress: 100, insertTime: iso(now) };
    const { client, requestIds } = moveClient([stale, fresh]);
    const op = await moveAndWait(client, MOVE_ARGS);
    assert.equal(op.name, "operation-new");
    assert.equal(requestIds.length, 2);
    assert.equal(requestIds[0], MOVE_ARGS.requestId);
    assert.notEqual(requestIds[1], MOVE_ARGS.requestId, "the move is sent again under a new requestId");
  });

  it("reports a failed operation this run's POST created, however fast it failed", async () => {
    const now = Date.now();
    const own: ComputeOperation = {
      name: "operation-own",
      status: "DONE",
      insertTime: iso(now),
      endTime: iso(now),
      httpErrorStatusCode: 403,
      error: QUOTA,
    };
    const { client, requestIds } = moveClient([own]);
    await assert.rejects(moveAndWait(client, MOVE_ARGS), /operation-own .*QUOTA_EXCEEDED/s);
    assert.deepEqual(requestIds, [MOVE_ARGS.requestId]);
  });
});
