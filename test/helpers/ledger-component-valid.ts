/**
 * The ledger component's VALID case through the real engine (examples/ledger): `pulumi preview --diff` with
 * previewEndorse shows the txId and the simulated result and orders nothing; `pulumi up` submits exactly that
 * transaction once. Split in two so that it can run on a stack of its own (test/e2e/ledger-component.test.ts, on
 * 3.1.5) or as the first up of a stack other tests go on using (test/e2e/ledger-component-lifecycle.test.ts, on
 * 2.5.16): previewAndSubmit runs both commands and records, as each ends, what later commands would change (the
 * proxy's calls, the ledger's entries for the key, the state); assertPreviewedAndSubmittedValid asserts all of it.
 */
import { strict as assert } from "node:assert";
import { peer } from "@hyperledger/fabric-protos";
import { GATEWAY } from "./gateway-proxy";
import type { ProxiedCall } from "./gateway-proxy";
import { submits, submittedTxId } from "./ledger-component";
import type { ComponentTarget } from "./ledger-component";
import { invocationArgs } from "./ledger-reader";
import type { LedgerEntry } from "./ledger-reader";
import { TYPESCRIPT, createdByFirstPreview, transactionResources } from "./faces";
import type { Face } from "./faces";
import { changeSummary } from "./project-stack";
import type { CommandResult, ProjectStack } from "./project-stack";

/** The value examples/ledger is asked to write under the key. */
export const VALID_VALUE = "blue";

/** What a preview and the up after it showed, each read as its command ended. */
export interface PreviewedSubmission {
  /** The key of CreateAsset(key, VALID_VALUE). */
  readonly key: string;
  /** The ledger height before the preview. */
  readonly start: number;
  readonly preview: CommandResult;
  readonly up: CommandResult & { readonly outputs: Record<string, unknown> };
  /** The gateway calls of the preview, and the Submit calls among them. */
  readonly previewPaths: readonly string[];
  readonly previewSubmits: readonly ProxiedCall[];
  /** The Submit calls of the up. */
  readonly upSubmits: readonly ProxiedCall[];
  /** The ledger's entries naming the key once the preview had ended, and once the up had. */
  readonly namedAfterPreview: readonly LedgerEntry[];
  readonly namedAfterUp: readonly LedgerEntry[];
  /** ReadAsset(key) once the up had ended. */
  readonly valueAfterUp: string;
  /** The face the stack runs through. */
  readonly face: Face;
  /** The state entries holding a transaction once the up had ended. */
  readonly resourcesAfterUp: number;
}

/**
 * Runs `pulumi preview --diff` then `pulumi up` of `stack`, a new stack of examples/ledger for `t` set up with
 * CreateAsset(key, VALID_VALUE) and previewEndorse (componentStack), and records what each showed. Asserts nothing
 * but that up succeeded (it throws otherwise).
 */
export async function previewAndSubmit(
  t: ComponentTarget,
  stack: ProjectStack,
  key: string,
  start: number,
  face: Face = TYPESCRIPT,
): Promise<PreviewedSubmission> {
  const previewMark = t.proxy.calls.length;
  const preview = await stack.preview({ diff: true });
  const previewPaths = t.proxy.paths(previewMark);
  const previewSubmits = submits(t.proxy, previewMark);
  const namedAfterPreview = await t.reader.naming(key, start);
  const upMark = t.proxy.calls.length;
  const up = await stack.up();
  return {
    key,
    start,
    preview,
    up,
    previewPaths,
    previewSubmits,
    upSubmits: submits(t.proxy, upMark),
    namedAfterPreview,
    namedAfterUp: await t.reader.naming(key, start),
    valueAfterUp: await t.reader.evaluate("ReadAsset", key),
    face,
    resourcesAfterUp: transactionResources(face, await stack.exportState()).length,
  };
}

/**
 * preview showed the txId and the simulated result, endorsed and submitted nothing; up submitted exactly that
 * transaction once: VALID, in the block qscc names, endorsed by both organizations, its ProcessedTransaction output
 * the peer's own answer byte for byte. The first argument's whole story on the ledger is that one transaction.
 */
export async function assertPreviewedAndSubmittedValid(t: ComponentTarget, s: PreviewedSubmission): Promise<void> {
  // stack, component, submission; or stack and the plugin's resource
  assert.deepEqual(changeSummary(s.preview.events), { create: createdByFirstPreview(s.face) });
  const txId = /txId\s*:\s*"([0-9a-f]{64})"/.exec(s.preview.stdout)?.[1];
  assert.ok(txId, s.preview.stdout);
  assert.match(s.preview.stdout, new RegExp(`previewResult\\s*:\\s*\\{[^}]*utf8\\s*:\\s*"${VALID_VALUE}"`));
  assert.ok(s.previewPaths.includes(GATEWAY.endorse), "the preview endorsed");
  assert.deepEqual(s.previewSubmits, [], "the preview submitted nothing");
  assert.deepEqual(s.namedAfterPreview, []);

  const o = s.up.outputs;
  assert.equal(o["ledgerTxId"], txId);
  assert.equal(o["ledgerValidationCode"], "VALID");
  assert.equal(o["ledgerValidationCodeNumber"], 0);
  assert.equal(o["ledgerResult"], VALID_VALUE);
  assert.equal(o["ledgerBlockNumber"], String(await t.reader.blockOf(txId)));
  assert.deepEqual([...(o["ledgerEndorsers"] as string[])].sort(), ["Org1MSP", "Org2MSP"]);
  assert.match(s.up.output, new RegExp(`LedgerTransaction asset-transaction: submitting transaction ${txId}`));
  assert.deepEqual(s.upSubmits.map(submittedTxId), [txId], "one Submit, of the previewed txId");

  // The ProcessedTransaction in the outputs is the peer's own answer to GetTransactionByID, byte for byte.
  const exported = Buffer.from(String(o["ledgerProcessedTransaction"]), "base64");
  const processed = peer.ProcessedTransaction.deserializeBinary(exported);
  assert.equal(processed.getValidationcode(), 0);
  assert.equal(invocationArgs(processed.getTransactionenvelope()?.serializeBinary() ?? new Uint8Array(0)).txId, txId);
  const fromPeer = await t.reader.processed(txId);
  assert.ok(fromPeer);
  assert.deepEqual(exported, Buffer.from(fromPeer.serializeBinary()));

  assert.deepEqual(
    s.namedAfterUp.map((e) => [e.txId, e.codeName, ...e.args]),
    [[txId, "VALID", "CreateAsset", s.key, VALID_VALUE]],
  );
  assert.equal(s.valueAfterUp, VALID_VALUE);
  assert.equal(s.resourcesAfterUp, 1);
}
