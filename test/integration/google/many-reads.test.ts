import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { createGoogleClient } from "../../../provider/google/client";
import { DEFAULT_MAX_CONCURRENT_REQUESTS, resolveGoogleSettings } from "../../../provider/google/settings";
import { READ_SCOPE_SETS, readNumber } from "../../../bench/scale-reads-calls";
import { sandboxEndpoints, useSandbox } from "./helpers";

const READS = 500;
const READ_ROUTES = [
  "iam.workforcePools.getIamPolicy",
  "iam.operations.get",
  "deploymentmanager.deployments.get",
  "workspaceevents.subscriptions.get",
  "displayvideo.advertisers.creatives.get",
];

describe("Google client against the sandbox: five hundred reads at once", function () {
  this.timeout(60_000);
  const sandbox = useSandbox({ faultSeed: 5 });
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-many-reads-"));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("fetches one token per scope set, keeps each service within its concurrency limit, and absorbs 429s", async () => {
    // A share answered 429 + Retry-After, the rest served after 20 ms, so that requests overlap at the sandbox.
    sandbox().setFaults([
      ...READ_ROUTES.map((route) => ({
        route,
        kind: "status" as const,
        status: 429,
        rate: 0.05,
        retryAfterSeconds: 1,
      })),
      { kind: "latency", latencyMs: 20 },
    ]);
    const credentials = await sandbox().writeCredentialsFile(dir);
    const client = createGoogleClient({
      settings: resolveGoogleSettings({
        explicit: { ...sandboxEndpoints(sandbox()), credentials, displayVideoApiVersion: "v4" },
      }),
    });

    const results = await Promise.all(Array.from({ length: READS }, (_, i) => readNumber(client, i)));

    assert.equal(results.length, READS);
    const requests = sandbox().requests();
    const count = (route: string, status?: number): number =>
      requests.filter((r) => r.route === route && (status === undefined || r.status === status)).length;
    // external_account: one STS exchange and one impersonated access token per (credential, scope set), however many
    // reads share them at once.
    assert.equal(count("sts.token"), READ_SCOPE_SETS);
    assert.equal(count("iamcredentials.serviceAccounts.generateAccessToken"), READ_SCOPE_SETS);
    const rateLimited = READ_ROUTES.reduce((n, route) => n + count(route, 429), 0);
    assert.ok(rateLimited >= 10, `the 429 fault was hit (${rateLimited} times)`);
    assert.ok(
      requests.filter((r) => r.status === 429).every((r) => r.fault === "status:429:before"),
      "every 429 was the injected one",
    );
    assert.equal(
      READ_ROUTES.reduce((n, route) => n + count(route, 200), 0),
      READS,
      "every read answered once it was retried",
    );
    const { maxInFlight } = sandbox().concurrency();
    for (const service of ["iam", "deploymentManager", "workspaceEvents", "displayVideo"]) {
      const most = maxInFlight[service] ?? 0;
      assert.ok(
        most >= DEFAULT_MAX_CONCURRENT_REQUESTS / 2 && most <= DEFAULT_MAX_CONCURRENT_REQUESTS,
        `${service}: ${most} in flight at most`,
      );
    }
  });
});
