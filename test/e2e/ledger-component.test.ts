/**
 * The LedgerTransaction's behaviours through the real engine and the plain `pulumi` CLI, one body per behaviour, each
 * run on the targets and faces TARGETS names for it: examples/ledger (TypeScript: the SDK's component), its YAML twin
 * and examples/python's ledger transaction through pulumi-resource-opsledger's executable (test/helpers/faces.ts), on
 * the Fabric sandbox and on real Fabric 2.5.16 and 3.1.5, Raft or SmartBFT ordering. Everything is observed through
 * the gateway proxy and read back through qscc, the same way on every target and face. The SmartBFT network is the
 * run's shared one of that kind (test/helpers/fabric-network-fixture.ts). VALID through the component on the sandbox is
 * test/e2e/ledger-signers.test.ts's, for every signer; an Ed25519 client on SmartBFT, test/e2e/
 * ledger-capabilities-fabric.test.ts's. The behaviour that needs a network of its own (a peer frozen) is in
 * test/e2e/ledger-component-peers.test.ts.
 */
import { strict as assert } from "node:assert";
import { isSecret } from "../../provider/plugin/secrets";
import { peer } from "@hyperledger/fabric-protos";
import { PYTHON, TYPESCRIPT, YAML, createdByFirstPreview, isProvider, transactionResources } from "../helpers/faces";
import type { Face } from "../helpers/faces";
import { GATEWAY } from "../helpers/gateway-proxy";
import { isRunning, killCommand } from "../helpers/kill-stack";
import {
  commitStatusOf,
  componentStack,
  runUntilHeld,
  runWithConcurrentWriter,
  startComponentTarget,
  submits,
  submittedTxId,
  uniqueKey,
} from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { invocationArgs } from "../helpers/ledger-reader";
import { ledgerTargets } from "../helpers/ledger-targets";
import type { TargetStartOptions } from "../helpers/ledger-targets";
import { changeSummary } from "../helpers/project-stack";
import type { CommandResult, ProjectStack } from "../helpers/project-stack";
import { plainStrings } from "../helpers/sandbox-config";
import { findSecretsDecoded, privateKeyForms, scanStackFilesAtRest, textForms } from "../helpers/secrets-scan";

/** The transient data (`{ note }`) of the VALID and kill bodies' stacks. */
const TRANSIENT = "transient-value-never-in-state";

/** The value CreateAsset writes in the VALID body. */
const VALID_VALUE = "blue";

/** What a command printed, and the stack's outputs after an up. */
type Ran = CommandResult & { readonly outputs?: Record<string, unknown> };

/**
 * `pulumi preview --diff` with previewEndorse shows the txId and the simulated result, endorses and submits nothing;
 * `pulumi up` submits exactly that transaction once: VALID, in the block qscc names, endorsed by both organizations, its
 * ProcessedTransaction output the peer's own answer byte for byte; the key's whole story on the ledger is that one
 * transaction. Through the plugin (YAML, Python), the key and the transient data then stay inside Pulumi secrets.
 */
async function submitsValid(t: ComponentTarget, face: Face): Promise<void> {
  const key = uniqueKey("valid");
  const start = await t.reader.height();
  const args = { fn: "CreateAsset", args: [key, VALID_VALUE], transientNote: TRANSIENT, previewEndorse: true };
  const stack = await componentStack(t, args, face);
  try {
    const previewMark = t.proxy.calls.length;
    const preview = await stack.preview({ diff: true });
    // stack, component, submission; or stack and the plugin's resource
    assert.deepEqual(changeSummary(preview.events), { create: createdByFirstPreview(face) });
    const txId = /txId\s*:\s*"([0-9a-f]{64})"/.exec(preview.stdout)?.[1];
    assert.ok(txId, preview.stdout);
    assert.match(preview.stdout, new RegExp(`previewResult\\s*:\\s*\\{[^}]*utf8\\s*:\\s*"${VALID_VALUE}"`));
    assert.ok(t.proxy.paths(previewMark).includes(GATEWAY.endorse), "the preview endorsed");
    assert.deepEqual(submits(t.proxy, previewMark), [], "the preview submitted nothing");
    assert.deepEqual(await t.reader.naming(key, start), []);

    const upMark = t.proxy.calls.length;
    const up = await stack.up();
    const o = up.outputs;
    assert.equal(o["ledgerTxId"], txId);
    assert.equal(o["ledgerValidationCode"], "VALID");
    assert.equal(o["ledgerValidationCodeNumber"], 0);
    assert.equal(o["ledgerResult"], VALID_VALUE);
    assert.equal(o["ledgerBlockNumber"], String(await t.reader.blockOf(txId)));
    assert.deepEqual([...(o["ledgerEndorsers"] as string[])].sort(), ["Org1MSP", "Org2MSP"]);
    assert.match(up.output, new RegExp(`LedgerTransaction asset-transaction: submitting transaction ${txId}`));
    assert.deepEqual(submits(t.proxy, upMark).map(submittedTxId), [txId], "one Submit, of the previewed txId");

    // The ProcessedTransaction in the outputs is the peer's own answer to GetTransactionByID, byte for byte.
    const exported = Buffer.from(String(o["ledgerProcessedTransaction"]), "base64");
    const processed = peer.ProcessedTransaction.deserializeBinary(exported);
    assert.equal(processed.getValidationcode(), 0);
    const envelope = processed.getTransactionenvelope()?.serializeBinary() ?? new Uint8Array(0);
    assert.equal(invocationArgs(envelope).txId, txId);
    const fromPeer = await t.reader.processed(txId);
    assert.ok(fromPeer);
    assert.deepEqual(exported, Buffer.from(fromPeer.serializeBinary()));

    assert.deepEqual(
      (await t.reader.naming(key, start)).map((e) => [e.txId, e.codeName, ...e.args]),
      [[txId, "VALID", "CreateAsset", key, VALID_VALUE]],
    );
    assert.equal(await t.reader.evaluate("ReadAsset", key), VALID_VALUE);
    assert.equal(transactionResources(face, await stack.exportState()).length, 1);
    if (face === YAML) await pluginKeepsSecrets(t, stack, preview, up);
    if (face === PYTHON) await pythonKeepsSecrets(t, stack, preview, up);
  } finally {
    await stack.dispose();
  }
}

/**
 * What the plugin stored and printed for the VALID up of the YAML twin: the key (given as a secret) and the transient
 * data only inside Pulumi secrets — `credentials` marked secret by the plugin (it answers Configure with acceptSecrets),
 * transient data in the secret inputs and in no output — and nowhere in plain state, the commands' output or the files
 * on disk (logs, backend).
 */
async function pluginKeepsSecrets(t: ComponentTarget, stack: ProjectStack, preview: Ran, up: Ran): Promise<void> {
  const state = await stack.exportState({ showSecrets: true });
  const [resource] = transactionResources(YAML, state);
  assert.ok(resource !== undefined);
  const outputs = resource.outputs ?? {};
  assert.ok(isSecret(outputs["credentials"]), "the plugin marked the credentials output secret");
  assert.equal(outputs["transientData"], undefined, "transient data is no output");
  assert.ok(isSecret(resource.inputs?.["transientData"]), "transient data is a secret input");
  assert.equal(outputs["txId"], up.outputs?.["ledgerTxId"]);

  const forms = [...privateKeyForms("signing key", t.identity.privateKeyPem), ...textForms("transient", TRANSIENT)];
  const disk = scanStackFilesAtRest(stack);
  for (const [name, scanned] of Object.entries(disk)) {
    assert.ok(scanned.files > 0 && scanned.bytes > 0, `${name}: ${scanned.files} files, ${scanned.bytes} bytes`);
  }
  assert.ok(disk.backend.text.includes(String(outputs["txId"])), "the on-disk scan reads the state the up wrote");
  const parts: Record<string, string> = {
    "plain state": plainStrings(state).join("\n"),
    "commands' output": [preview.output, up.output].join("\n"),
    "log files": disk.logs.text,
    "backend files": disk.backend.text,
  };
  const found = Object.entries(parts).flatMap(([where, text]) =>
    findSecretsDecoded(text, forms).map((label) => `${label} in ${where}`),
  );
  assert.deepEqual(found, []);
}

/** The Python program's VALID up: the transient data a secret input, neither it nor the key in plain state or output. */
async function pythonKeepsSecrets(t: ComponentTarget, stack: ProjectStack, preview: Ran, up: Ran): Promise<void> {
  const state = await stack.exportState({ showSecrets: true });
  const [resource] = transactionResources(PYTHON, state);
  assert.ok(resource !== undefined);
  assert.equal(resource.outputs?.["txId"], up.outputs?.["ledgerTxId"]);
  assert.ok(isSecret(resource.inputs?.["transientData"]), "transient data is a secret input");
  const plain = plainStrings(await stack.exportState()).join("\n");
  for (const [name, text] of [
    ["plain state", plain],
    ["commands' output", `${preview.output}${up.output}`],
  ] as const) {
    assert.ok(!text.includes(TRANSIENT), `the transient data is in ${name}`);
    assert.ok(!text.includes(t.identity.privateKeyPem.split("\n")[1] ?? "-"), `the key is in ${name}`);
  }
}

/**
 * The UpdateAsset is endorsed against the key's current version; before it is submitted, another organization's client
 * commits its own update of the key (the proxy holds the endorsement's answer until then); the transaction is then
 * committed as MVCC_READ_CONFLICT and the update fails with that code. The next `up` submits a new transaction, VALID.
 */
async function failsOnReadConflict(t: ComponentTarget, face: Face): Promise<void> {
  const key = uniqueKey("mvcc");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "UpdateAsset", args: [key, "green"] }, face);
  try {
    const run = await runWithConcurrentWriter(t, key, () => stack.up({ allowFailure: true }));
    const { result: failed, created, concurrent, submitted } = run;
    assert.notEqual(failed.code, 0);
    const [conflicted] = submitted;
    assert.ok(conflicted !== undefined && submitted.length === 1, "the component submitted its transaction once");
    assert.match(
      failed.stdout,
      new RegExp(
        `transaction ${conflicted} was committed in block \\d+ with validation code MVCC_READ_CONFLICT \\(11\\): ` +
          "a key read during simulation was changed by a transaction committed in between",
      ),
    );
    assert.deepEqual(
      (await t.reader.naming(key, start)).map((e) => [e.txId, e.codeName, ...e.args]),
      [
        [created, "VALID", "CreateAsset", key, "white"],
        [concurrent, "VALID", "UpdateAsset", key, "yellow"],
        [conflicted, "MVCC_READ_CONFLICT", "UpdateAsset", key, "green"],
      ],
    );
    assert.equal(await t.reader.evaluate("ReadAsset", key), "yellow");

    // The invalid transaction changed nothing and burnt its txId: the next up submits a new one.
    await t.reader.settled(await t.reader.blockOf(conflicted));
    const up = await stack.up();
    assert.equal(up.outputs["ledgerValidationCode"], "VALID");
    assert.match(
      up.stdout,
      new RegExp(`transaction ${conflicted} was committed earlier as MVCC_READ_CONFLICT; submitting a new transaction`),
    );
    const entries = await t.reader.naming(key, start);
    assert.deepEqual(
      entries.slice(3).map((e) => [e.txId, e.codeName, ...e.args]),
      [[up.outputs["ledgerTxId"], "VALID", "UpdateAsset", key, "green"]],
    );
    assert.equal(await t.reader.evaluate("ReadAsset", key), "green");
  } finally {
    await stack.dispose();
  }
}

/**
 * kill -9 of the whole `pulumi up` (CLI, language host and program, provider) when the transaction is committed but
 * the provider has not heard it — the proxy holds CommitStatus's answer, so the engine cannot have written the
 * resource. `pulumi cancel`, `refresh --clear-pending-creates` and `up` then adopt the committed transaction: nothing
 * is submitted again, and the ledger holds exactly one transaction with that txId.
 */
async function adoptsAfterKill(t: ComponentTarget, face: Face): Promise<void> {
  const key = uniqueKey("kill");
  const start = await t.reader.height();
  const stack = await componentStack(t, { fn: "CreateAsset", args: [key, "violet"], transientNote: TRANSIENT }, face);
  try {
    const held = t.proxy.hold(GATEWAY.commitStatus);
    const mark = t.proxy.calls.length;
    let cliPid: number | undefined;
    const { call, command } = await runUntilHeld(
      stack.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) }),
      held,
      "the commit status of the submitted transaction",
    );
    const [submitted] = submits(t.proxy, mark);
    assert.ok(submitted !== undefined);
    assert.equal(submitted.status, 0, "the orderer accepted the transaction");
    const txId = submittedTxId(submitted);
    const committed = commitStatusOf(call);
    assert.equal(committed.code, 0, "the peer reports it committed VALID");
    assert.ok(cliPid !== undefined);
    const kill = killCommand(cliPid, "tree");
    // (the dynamic-provider plugin's launcher and its Node process; or pulumi-resource-opsledger)
    const providers = kill.killed.filter((p) => isProvider(face, p));
    assert.ok(providers.length > 0, "the provider process, waiting for the held answer, was killed");
    const interrupted = await command;
    assert.equal(interrupted.signal, "SIGKILL");
    // SIGKILL is delivered asynchronously: a multi-threaded Node process takes a moment to tear down.
    await kill.gone();
    assert.deepEqual(
      providers.filter((p) => isRunning(p)),
      [],
    );
    held.release(); // its client is gone: nothing to answer
    assert.equal((await stack.exportState()).pending_operations?.length, 1, "the create is pending in the state");

    const locked = await stack.run(["up", "--yes", "--skip-preview"], { allowFailure: true });
    assert.match(locked.output, /delete the lock file with `pulumi cancel`/);
    await stack.run(["cancel", "--yes"]);
    const after = t.proxy.calls.length;
    await stack.refresh({ clearPendingCreates: true });
    assert.deepEqual((await stack.exportState()).pending_operations ?? [], []);
    const { outputs, stdout } = await stack.up();
    assert.equal(outputs["ledgerTxId"], txId);
    assert.equal(outputs["ledgerValidationCode"], "VALID");
    assert.equal(outputs["ledgerResult"], "violet");
    assert.equal(outputs["ledgerBlockNumber"], String(committed.block));
    assert.match(
      stdout,
      new RegExp(`adopted transaction ${txId}, already committed in block ${String(committed.block)} \\(VALID\\)`),
    );
    assert.deepEqual(submits(t.proxy, after), [], "nothing was submitted after the kill");
    assert.deepEqual(
      (await t.reader.entries(start)).filter((e) => e.txId === txId).map((e) => [e.codeName, ...e.args]),
      [["VALID", "CreateAsset", key, "violet"]],
      "exactly one transaction with that txId on the ledger",
    );
  } finally {
    await stack.dispose();
  }
}

/** Each body: its test's title through a face, and how it runs there. */
const BODIES = {
  valid: {
    title: (face: Face) =>
      face === TYPESCRIPT
        ? "previews the txId and the simulated result, then submits exactly that transaction once: VALID"
        : "previews the txId, submits exactly that transaction once (VALID), keeps the key and transient data secret",
    run: submitsValid,
  },
  readConflict: {
    title: () => "fails with MVCC_READ_CONFLICT when another client commits the key between endorsement and submit",
    run: failsOnReadConflict,
  },
  adoptsAfterKill: {
    title: (face: Face) =>
      `adopts the committed transaction after kill -9 of pulumi up${face === TYPESCRIPT ? "" : " (the plugin killed)"}: exactly one on the ledger`,
    run: adoptsAfterKill,
  },
} as const satisfies Record<
  string,
  { title: (face: Face) => string; run: (t: ComponentTarget, face: Face) => Promise<void> }
>;
type Body = keyof typeof BODIES;

/** A target, started once for its `describe`, and the bodies that run on it in order, each through a face. */
interface Target {
  readonly describe: string;
  readonly fabric: "sandbox" | "2.5.16" | "3.1.5";
  /** How the target starts: `own` for a network of this file's own (a body freezes a node of it). */
  readonly start?: TargetStartOptions;
  readonly bodies: readonly (readonly [Face, Body])[];
}

const through = (face: Face, ...bodies: Body[]): (readonly [Face, Body])[] => bodies.map((b) => [face, b] as const);
const COMPONENT = "examples/ledger: LedgerTransaction through the pulumi CLI";
const PLUGIN = "the ledger through pulumi-resource-opsledger: examples/ledger's YAML twin";
const PYTHON_SDK = "the ledger from examples/python through the Python SDK and the plugin";

const TARGETS: readonly Target[] = [
  {
    describe: `${COMPONENT} (Fabric sandbox)`,
    fabric: "sandbox",
    bodies: through(TYPESCRIPT, "readConflict", "adoptsAfterKill"),
  },
  {
    describe: `${COMPONENT} (Fabric 2.5.16)`,
    fabric: "2.5.16",
    bodies: through(TYPESCRIPT, "valid", "readConflict", "adoptsAfterKill"),
  },
  {
    describe: `${COMPONENT} (Fabric 3.1.5)`,
    fabric: "3.1.5",
    bodies: through(TYPESCRIPT, "valid", "readConflict", "adoptsAfterKill"),
  },
  {
    describe: `${COMPONENT} (Fabric 3.1.5, SmartBFT ordering)`,
    fabric: "3.1.5",
    start: { shared: "3.1.5 SmartBFT" },
    bodies: through(TYPESCRIPT, "valid", "readConflict", "adoptsAfterKill"),
  },
  {
    describe: `${PLUGIN} (Fabric sandbox)`,
    fabric: "sandbox",
    bodies: through(YAML, "valid", "readConflict", "adoptsAfterKill"),
  },
  { describe: `${PLUGIN} (Fabric 2.5.16)`, fabric: "2.5.16", bodies: through(YAML, "valid") },
  { describe: `${PYTHON_SDK} (Fabric sandbox)`, fabric: "sandbox", bodies: through(PYTHON, "valid") },
  { describe: `${PYTHON_SDK} (Fabric 2.5.16)`, fabric: "2.5.16", bodies: through(PYTHON, "valid") },
];

const FACTORIES = ledgerTargets(["2.5.16", "3.1.5"]);

for (const target of TARGETS) {
  describe(target.describe, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async () => {
      const label = target.fabric === "sandbox" ? "Fabric sandbox" : `Fabric ${target.fabric}`;
      const factory = FACTORIES.find((f) => f.label === label);
      assert.ok(factory !== undefined, label);
      t = await startComponentTarget(factory, target.start);
      if (target.start?.shared === "3.1.5 SmartBFT") {
        const network = t.ledger.network;
        assert.ok(network !== undefined);
        assert.equal(network.consensus, "BFT");
        assert.equal(network.orderers.length, 4);
        assert.ok((await network.leader()) !== undefined, "a BFT leader every orderer names");
      }
    });
    after(async () => {
      await t.close();
    });

    for (const [face, body] of target.bodies) {
      it(BODIES[body].title(face), () => BODIES[body].run(t, face));
    }
  });
}
