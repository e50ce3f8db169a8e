/**
 * The ledger through the resource plugin (the same behaviour on both faces, for `opsledger:ledger:LedgerTransaction` and the
 * ledger data sources): examples/ledger's YAML twin (test/fixtures/pulumi/ledger-yaml, test/helpers/faces.ts), served
 * by pulumi-resource-opsledger (the npm package's script and the linux-amd64 executable, test/helpers/plugin-builds.ts)
 * and driven with the plain `pulumi` CLI. The transaction's behaviours through it
 * (VALID with the previewed txId and the secrets kept, MVCC_READ_CONFLICT, kill -9 adoption) are bodies of
 * test/e2e/ledger-component.test.ts, whose TARGETS run them through this face. Here a YAML program reads the ledger
 * with `fn::invoke` (getTransaction, evaluate, getChainInfo) in a preview, as a reader identity (the organization's
 * peer: a member of the channel's Readers, not its Writers) signing through a key file: the answers, nothing sent to be
 * ordered, and the key in no output.
 */
import { strict as assert } from "node:assert";
import type { EngineEvent } from "@pulumi/pulumi/automation";
import { codecs } from "../../provider/ledger/codec";
import { toHex } from "../../provider/ledger/hash";
import { GATEWAY } from "../helpers/gateway-proxy";
import { startComponentTarget, uniqueKey } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { writeLedgerReadsProject } from "../helpers/ledger-reads-project";
import { ledgerTargets } from "../helpers/ledger-targets";
import { PLUGIN_BUILDS } from "../helpers/plugin-builds";
import { changeSummary, initProjectStack } from "../helpers/project-stack";
import { findSecretsDecoded, privateKeyForms } from "../helpers/secrets-scan";

/** The stack's outputs as the preview registered them last (its first outputs event, at the start, has none). */
function previewOutputs(events: readonly EngineEvent[]): Record<string, unknown> {
  const stack = events.filter((e) => e.resOutputsEvent?.metadata.type === "pulumi:pulumi:Stack").at(-1);
  return (stack?.resOutputsEvent?.metadata.new?.outputs ?? {}) as Record<string, unknown>;
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

    for (const build of PLUGIN_BUILDS)
      it(`reads the ledger with fn::invoke in a preview as a reader identity, through the ${build.name}: the answers, nothing ordered`, async () => {
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
          { yaml: true, pluginDir: await build.dir() },
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
          assert.deepEqual(
            findSecretsDecoded(preview.output, forms),
            [],
            "the reader's key is in the preview's output",
          );
        } finally {
          await stack.dispose();
          project.remove();
        }
      });
  });
}
