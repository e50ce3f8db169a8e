/**
 * The ledger through the resource plugin (issue 16's point 2 for `opsledger:ledger:LedgerTransaction` and the ledger
 * data sources): examples/ledger's YAML twin (test/fixtures/pulumi/ledger-yaml, test/helpers/faces.ts), served
 * by bin/pulumi-resource-opsledger and driven with the plain `pulumi` CLI, runs the component's own bodies
 * (test/helpers/ledger-component-behaviours.ts) on the Fabric sandbox — VALID with the previewed txId,
 * MVCC_READ_CONFLICT, kill -9 adoption — and VALID on the run's shared real network (2.5.16 by default; no network of
 * this file's own). After the VALID up, through the plugin (which answers Configure with acceptSecrets, so it marks
 * secret outputs itself): the transient data and the signing key are only inside Pulumi secrets — the resource's
 * `credentials` output (the key, which refresh and destroy sign with) marked secret, the transient data in no output —
 * and in no plain state, command output or file on disk. Then a YAML program reads the ledger with `fn::invoke`
 * (getTransaction, evaluate, getChainInfo) in a preview, as a reader identity (the organization's peer: a member of
 * the channel's Readers, not its Writers) signing through a key file: the answers, nothing sent to be ordered, and
 * the key in no output.
 */
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { codecs, toHex } from "../../provider/ledger";
import { adoptsAfterKill, failsOnReadConflict, submitsValid, TRANSIENT } from "../helpers/ledger-component-behaviours";
import { GATEWAY } from "../helpers/gateway-proxy";
import { startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import type { PreviewedSubmission } from "../helpers/ledger-component-valid";
import { YAML, transactionResources } from "../helpers/faces";
import { writeLedgerReadsProject } from "../helpers/ledger-reads-project";
import { ledgerTargets } from "../helpers/ledger-targets";
import { changeSummary, initProjectStack } from "../helpers/project-stack";
import type { ProjectStack } from "../helpers/project-stack";
import { plainStrings } from "../helpers/sandbox-config";
import { findSecrets, privateKeyForms, scanStackFilesAtRest, textForms } from "../helpers/secrets-scan";
import { isSecret } from "../../provider/plugin/secrets";

/** The stack's outputs as the preview registered them last (its first outputs event, at the start, has none). */
function previewOutputs(events: readonly EngineEvent[]): Record<string, unknown> {
  const stack = events.filter((e) => e.resOutputsEvent?.metadata.type === "pulumi:pulumi:Stack").at(-1);
  return (stack?.resOutputsEvent?.metadata.new?.outputs ?? {}) as Record<string, unknown>;
}

/**
 * What the plugin stored and printed for the VALID up: the key (given as a secret) and the transient data only inside
 * Pulumi secrets — `credentials` marked secret by the plugin, transient data in the secret inputs and in no output —
 * and nowhere in plain state, the commands' output or the files on disk (logs, backend).
 */
async function assertSecretsKept(t: ComponentTarget, stack: ProjectStack, s: PreviewedSubmission): Promise<void> {
  const state = await stack.exportState({ showSecrets: true });
  const [resource] = transactionResources(YAML, state);
  assert.ok(resource !== undefined);
  const outputs = resource.outputs ?? {};
  assert.ok(isSecret(outputs["credentials"]), "the plugin marked the credentials output secret");
  assert.equal(outputs["transientData"], undefined, "transient data is no output");
  assert.ok(isSecret(resource.inputs?.["transientData"]), "transient data is a secret input");
  assert.equal(outputs["txId"], s.up.outputs["ledgerTxId"]);

  const forms = [...privateKeyForms("signing key", t.identity.privateKeyPem), ...textForms("transient", TRANSIENT)];
  const disk = scanStackFilesAtRest(stack);
  for (const [name, scanned] of Object.entries(disk)) {
    assert.ok(scanned.files > 0 && scanned.bytes > 0, `${name}: ${scanned.files} files, ${scanned.bytes} bytes`);
  }
  assert.ok(disk.backend.text.includes(String(outputs["txId"])), "the on-disk scan reads the state the up wrote");
  const parts: Record<string, string> = {
    "plain state": plainStrings(state).join("\n"),
    "commands' output": [s.preview.output, s.up.output].join("\n"),
    "log files": disk.logs.text,
    "backend files": disk.backend.text,
  };
  const found = Object.entries(parts).flatMap(([where, text]) =>
    findSecrets(text, forms).map((label) => `${label} in ${where}`),
  );
  assert.deepEqual(found, []);
}

for (const target of ledgerTargets(["2.5.16"])) {
  describe(`the ledger through pulumi-resource-opsledger: examples/ledger's YAML twin (${target.label})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async () => {
      t = await startComponentTarget(target);
    });
    after(async () => {
      await t.close();
    });

    it("previews the txId, submits exactly that transaction once (VALID), keeps the key and transient data secret", () =>
      submitsValid(t, YAML, (stack, submission) => assertSecretsKept(t, stack, submission)));

    // The sandbox shows them as a real network does (test/e2e/ledger-component.test.ts runs both faces' bodies on
    // real Fabric through the component; the plugin adds no ledger logic of its own).
    if (target.kind === "sandbox") {
      it("fails with MVCC_READ_CONFLICT when another client commits the key between endorsement and submit", () =>
        failsOnReadConflict(t, YAML));
      it("adopts the committed transaction after kill -9 of pulumi up (the plugin killed): exactly one on the ledger", () =>
        adoptsAfterKill(t, YAML));
    }

    it("reads the ledger with fn::invoke in a preview as a reader identity: the answers, nothing ordered", async () => {
      const key = uniqueKey("read");
      const writer = t.ledger.connectOurs();
      const committed = await writer
        .submitTransaction({
          channelId: t.ledger.channel,
          chaincodeName: t.ledger.chaincode,
          functionName: "CreateAsset",
          args: [key, "violet"],
        })
        .finally(() => {
          writer.close();
        });
      await t.reader.settled(Number(committed.status.blockNumber));
      const reader = t.ledger.peer(t.identity.mspId);
      const project = writeLedgerReadsProject(
        {
          gateway: {
            address: t.proxy.address,
            tlsRootCertPem: t.proxyTls.rootCertPem,
            serverNameOverride: t.proxyTls.serverName,
          },
          channel: t.ledger.channel,
          identity: reader,
          trustedRootCertificates: t.ledger.caCertificates,
          txId: committed.transactionId,
          query: { chaincode: "qscc", function: "GetChainInfo", args: [t.ledger.channel] },
        },
        { yaml: true },
      );
      const stack = await initProjectStack({ projectDir: project.dir, config: project.config });
      try {
        const before = await t.reader.height();
        const mark = t.proxy.calls.length;
        const preview = await stack.preview();
        const after = await t.reader.height();
        assert.deepEqual(changeSummary(preview.events), { create: 1 });
        // Every call of the preview went through the proxy: Evaluate only, nothing to order. (The height may grow
        // meanwhile: the run's shared network serves other files' tests too.)
        assert.deepEqual([...new Set(t.proxy.paths(mark))], [GATEWAY.evaluate], "the preview only evaluated");
        const outputs = previewOutputs(preview.events);
        const tx = outputs["transaction"] as {
          validationCode: string;
          validationCodeNumber: number;
          blockNumber: string;
          creator: { mspId: string };
          chaincode: { name: string };
          function: string;
          args: { text?: string }[];
          readWriteSet: { namespace: string; writes: { key: string; value: { text?: string } }[] }[];
          endorsers: { mspId: string }[];
          verification: { ok: boolean };
        };
        assert.deepEqual(
          {
            validationCode: tx.validationCode,
            validationCodeNumber: tx.validationCodeNumber,
            blockNumber: tx.blockNumber,
            creator: tx.creator.mspId,
            chaincode: tx.chaincode.name,
            function: tx.function,
            args: tx.args.map((a) => a.text),
            writes: tx.readWriteSet.flatMap((n) =>
              n.writes.map((w) => `${n.namespace}:${w.key}=${w.value.text ?? ""}`),
            ),
            endorsers: tx.endorsers.map((e) => e.mspId).sort(),
            verified: tx.verification.ok,
          },
          {
            validationCode: "VALID",
            validationCodeNumber: 0,
            blockNumber: committed.status.blockNumber.toString(),
            creator: t.identity.mspId,
            chaincode: t.ledger.chaincode,
            function: "CreateAsset",
            args: [key, "violet"],
            writes: [`${t.ledger.chaincode}:${key}=violet`],
            endorsers: ["Org1MSP", "Org2MSP"],
            verified: true,
          },
        );
        // evaluate (qscc GetChainInfo) and getChainInfo: the same peer's height, between the heights read around the
        // preview, and the same hashes when no block was committed between the two reads.
        const info = codecs.BlockchainInfo.decode(
          Buffer.from((outputs["query"] as { base64: string }).base64, "base64"),
        );
        const chain = outputs["chainInfo"] as { height: string; currentBlockHash: string; previousBlockHash: string };
        for (const h of [info.height, BigInt(chain.height)]) {
          assert.ok(h >= BigInt(before) && h <= BigInt(after), `height ${String(h)} within ${before}..${after}`);
        }
        if (chain.height === String(info.height)) {
          assert.deepEqual(chain, {
            height: String(info.height),
            currentBlockHash: toHex(info.currentBlockHash),
            previousBlockHash: toHex(info.previousBlockHash),
          });
        }
        const forms = privateKeyForms("reader key", reader.privateKeyPem);
        assert.deepEqual(findSecrets(preview.output, forms), [], "the reader's key is in the preview's output");
      } finally {
        await stack.dispose();
        project.remove();
      }
    });
  });
}
