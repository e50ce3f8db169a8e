import { strict as assert } from "node:assert";
import { requestNetwork, startNetworkService } from "../../helpers/shared-network-service";
import type { NetworkService, ServedNetwork } from "../../helpers/shared-network-service";
import { waitFor } from "../../helpers/wait-for";

/** A start the test settles by hand, and what the service did with the network it gave. */
interface PendingStart {
  readonly name: string;
  resolve(): void;
  reject(error: Error): void;
}

/** A service over NAMES whose starts wait for the test; every start and close is recorded. */
async function fakeService(): Promise<{ service: NetworkService; starts: PendingStart[]; closed: string[] }> {
  const starts: PendingStart[] = [];
  const closed: string[] = [];
  const service = await startNetworkService(NAMES, (name) => {
    return new Promise<ServedNetwork>((resolve, reject) => {
      starts.push({
        name,
        resolve: () => {
          const close = (): Promise<void> => {
            closed.push(name);
            return Promise.resolve();
          };
          resolve({ networkFile: `/tmp/${name}/network.json`, close });
        },
        reject,
      });
    });
  });
  return { service, starts, closed };
}

const NAMES = ["2.5.16", "3.1.5 SmartBFT"];
const MINUTE = 60_000;

/** Resolves once `count` starts have been asked for: a request reaches the service asynchronously. */
async function startsAsked(starts: readonly PendingStart[], count: number): Promise<void> {
  await waitFor({
    what: `${String(count)} starts asked for`,
    read: () => starts.length,
    until: (n) => n >= count,
    timeoutMs: 10_000,
  });
  assert.equal(starts.length, count, "starts asked for");
}

describe("the shared Fabric networks' service (test/helpers/shared-network-service.ts)", () => {
  let fake: Awaited<ReturnType<typeof fakeService>>;
  beforeEach(async () => (fake = await fakeService()));
  afterEach(async () => {
    for (const s of fake.starts) s.resolve();
    await fake.service.close();
  });

  it("starts a network on its first request only and answers every asker, then and later, with it", async () => {
    let answered = 0;
    const asks = [1, 2, 3].map(() =>
      requestNetwork(fake.service.url, "3.1.5 SmartBFT", MINUTE).then((file) => {
        answered++;
        return file;
      }),
    );
    await startsAsked(fake.starts, 1);
    assert.equal(answered, 0, "no answer before the network is up");
    fake.starts[0]?.resolve();
    assert.deepEqual(await Promise.all(asks), Array(3).fill("/tmp/3.1.5 SmartBFT/network.json"));
    assert.equal(await requestNetwork(fake.service.url, "3.1.5 SmartBFT", MINUTE), "/tmp/3.1.5 SmartBFT/network.json");
    assert.deepEqual(
      fake.starts.map((s) => s.name),
      ["3.1.5 SmartBFT"],
    );
    assert.deepEqual(fake.service.started(), ["3.1.5 SmartBFT"]);
  });

  it("answers every asker of a failed start with its error, and does not start it again", async () => {
    const asks = [1, 2].map(() => requestNetwork(fake.service.url, "2.5.16", MINUTE).catch((e: unknown) => e));
    await startsAsked(fake.starts, 1);
    fake.starts[0]?.reject(new Error("orderer0.example.com did not become ready in 180000 ms"));
    const again = await requestNetwork(fake.service.url, "2.5.16", MINUTE).catch((e: unknown) => e);
    for (const error of [...(await Promise.all(asks)), again]) {
      assert.ok(error instanceof Error);
      assert.equal(
        error.message,
        'shared Fabric network "2.5.16": orderer0.example.com did not become ready in 180000 ms',
      );
    }
    assert.equal(fake.starts.length, 1);
  });

  it("refuses a name it does not serve, naming those it does, and starts nothing", async () => {
    const error = await requestNetwork(fake.service.url, "3.1.5 Raft", MINUTE).catch((e: unknown) => e);
    assert.ok(error instanceof Error);
    assert.equal(
      error.message,
      'shared Fabric network "3.1.5 Raft": no shared network "3.1.5 Raft"; known: 2.5.16, 3.1.5 SmartBFT',
    );
    assert.deepEqual([fake.starts.length, fake.service.started()], [0, []]);
  });

  it("gives up on an answer after the asker's timeout, naming the network and the service", async () => {
    const error = await requestNetwork(fake.service.url, "2.5.16", 300).catch((e: unknown) => e);
    assert.ok(error instanceof Error);
    assert.equal(error.message, `shared Fabric network "2.5.16": no answer from ${fake.service.url} in 300 ms`);
    assert.equal(fake.starts.length, 1, "the start it waited for was asked");
  });

  it("closes every network it started, waiting for one still starting, and none it never started", async () => {
    const first = requestNetwork(fake.service.url, "2.5.16", MINUTE);
    await startsAsked(fake.starts, 1);
    fake.starts[0]?.resolve();
    await first;
    const second = requestNetwork(fake.service.url, "3.1.5 SmartBFT", MINUTE).catch((e: unknown) => e);
    await startsAsked(fake.starts, 2);
    let closed = false;
    const closing = fake.service.close().then(() => (closed = true));
    assert.ok((await second) instanceof Error, "the waiting asker's connection is closed");
    assert.deepEqual([closed, fake.closed], [false, []], "nothing closed while a start is running");
    fake.starts[1]?.resolve();
    await closing;
    assert.deepEqual(fake.closed.sort(), ["2.5.16", "3.1.5 SmartBFT"]);
  });
});
