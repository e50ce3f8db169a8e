/**
 * Many moves under a rate quota, with the plain `pulumi` CLI in a user-like project against the sandbox: the sandbox
 * accepts a few compute writes per window and rejects the rest with 429 RATE_LIMIT_EXCEEDED; `pulumi up` must finish
 * with every move made once and no failed resource, the waiting resources saying why on their rows. (The 1,000-move
 * run is `npm run bench -- quota`.)
 */
import { strict as assert } from "node:assert";
import { writeBenchProject } from "../../bench/generated-project";
import type { BenchProject } from "../../bench/generated-project";
import { DEFAULT_SEED, fixture, startGoogleSandbox } from "../../sandbox/google";
import type { GoogleSandbox } from "../../sandbox/google";
import { changeSummary, diagnostics, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { deployerConfig } from "../helpers/sandbox-config";

const MOVES = 12;
const LIMIT = 4;
const WINDOW_MS = 2000;
const FIRST = 830_000_000_000;
const TO = `folders/${fixture.FIXTURE_FOLDER_IDS.platform}`;

describe("many FirewallPolicyMoves under a compute write quota (pulumi CLI, sandbox)", function () {
  this.timeout(600_000);
  let sandbox: GoogleSandbox;
  let project: BenchProject;
  let stack: ProjectStack;

  before(async () => {
    sandbox = await startGoogleSandbox({
      moveDurationMs: 300,
      rateQuotas: [{ group: "computeWrites", limit: LIMIT, windowMs: WINDOW_MS }],
    });
    sandbox.seed({
      ...DEFAULT_SEED,
      firewallPolicies: [
        ...DEFAULT_SEED.firewallPolicies,
        ...Array.from({ length: MOVES }, (_, i) => ({
          id: String(FIRST + i),
          shortName: `quota-${i}`,
          parent: `folders/${fixture.FIXTURE_FOLDER_IDS.engineering}`,
          creationTimestamp: "2026-01-01T00:00:00Z",
        })),
      ],
    });
    project = writeBenchProject("moves");
    stack = await initProjectStack({
      projectDir: project.dir,
      config: {
        ...deployerConfig(sandbox),
        count: { value: String(MOVES) },
        firstPolicy: { value: String(FIRST) },
        parentId: { value: TO },
      },
    });
  });
  after(async () => {
    await stack.dispose();
    project.dispose();
    await sandbox.close();
  });

  it("finishes with every move made once, pacing to the quota instead of failing, and says why resources wait", async () => {
    const { events } = await stack.run(["up", "--yes", "--skip-preview", "--parallel", String(MOVES)]);

    assert.deepEqual(changeSummary(events), { create: MOVES + 1 });
    const moved = sandbox.audit().filter((e) => e.kind === "firewallPolicies.move");
    assert.deepEqual(
      moved.map((e) => e.target).sort(),
      Array.from({ length: MOVES }, (_, i) => `firewallPolicies/${FIRST + i}`).sort(),
      "each policy moved once",
    );
    const rejected = sandbox.requests().filter((r) => r.route === "compute.firewallPolicies.move" && r.status === 429);
    assert.ok(rejected.length > 0, "the quota was met");

    const said = diagnostics(events);
    const paced = said.filter(
      (d) =>
        d.ephemeral &&
        /^waiting \d+ s for the compute\.googleapis\.com\/write_requests quota \(WriteRequestsPerMinutePerProject, 4 per 2 s\): pacing requests to the quota$/.test(
          d.message.trim(),
        ),
    );
    assert.ok(paced.length > 0, `statuses: ${JSON.stringify(said.map((d) => d.message))}`);
    assert.ok(paced.every((d) => d.urn.includes("pulumi-nodejs:dynamic/compute:FirewallPolicyMove::move-")));
    const notices = said.filter((d) => !d.ephemeral && d.message.includes("is used up for now"));
    assert.equal(notices.length, 1, "one diagnostic per quota");
    assert.ok(said.every((d) => d.severity !== "error"));
  });
});
