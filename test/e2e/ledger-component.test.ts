/**
 * The LedgerTransaction component through the real engine (examples/ledger, the plain `pulumi` CLI in its directory)
 * on the Fabric sandbox, real Fabric 2.5.16 and real Fabric 3.1.5, one body per behaviour (test/helpers/
 * ledger-component-behaviours.ts, shared with ledger-component-bft.test.ts): MVCC_READ_CONFLICT from a concurrent
 * writer that commits between the component's endorsement and its submission (the gateway proxy holds the
 * endorsement's answer until the writer's transaction is committed); kill -9 of the whole `pulumi up` once the
 * transaction is committed but before the provider hears it (the proxy holds CommitStatus's answer), and the re-run
 * adopts it: one transaction on the ledger. VALID with the txId the preview
 * showed runs here on 3.1.5 (test/helpers/ledger-component-valid.ts); on 2.5.16 it is the first up of
 * ledger-component-lifecycle's stack, and on the sandbox test/e2e/ledger-signers.test.ts shows it for every signer.
 * On 3.1.5, a network of this file's own, up ends only once the other endorsing organization's peer has the
 * transaction (test/helpers/ledger-component-peers.ts; on 2.5.16 in ledger-component-peers.test.ts).
 * Everything is observed through the proxy and read back through qscc, the same way on every target.
 */
import { adoptsAfterKill, failsOnReadConflict, submitsValid } from "../helpers/ledger-component-behaviours";
import { startComponentTarget } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { waitsForEveryEndorsingPeer } from "../helpers/ledger-component-peers";
import { ledgerTargets } from "../helpers/ledger-targets";

for (const target of ledgerTargets(["2.5.16", "3.1.5"])) {
  describe(`examples/ledger: LedgerTransaction through the pulumi CLI (${target.label})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    // 3.1.5 is never the run's shared network by default; `own` keeps it so when the run shares 3.1.5
    // (OPSLEDGER_FABRIC_VERSION), since its last test freezes a peer.
    const own = target.label === "Fabric 3.1.5";
    before(async () => {
      t = await startComponentTarget(target, { own });
    });
    after(async () => {
      await t.close();
    });

    // VALID on the sandbox: test/e2e/ledger-signers.test.ts, five times; on 2.5.16: the first up of
    // test/e2e/ledger-component-lifecycle.test.ts's stack, with the same assertions.
    if (target.label === "Fabric 3.1.5") {
      it("previews the txId and the simulated result, then submits exactly that transaction once: VALID", () =>
        submitsValid(t));
    }
    it("fails with MVCC_READ_CONFLICT when another client commits the key between endorsement and submit", () =>
      failsOnReadConflict(t));
    it("adopts the committed transaction after kill -9 of pulumi up: exactly one on the ledger", () =>
      adoptsAfterKill(t));
    // Last: it freezes the other organization's peer (and resumes it, whatever happens). On 2.5.16:
    // test/e2e/ledger-component-peers.test.ts, on a network of that file's own.
    if (own) {
      it("finishes pulumi up only once the other endorsing organization's peer has committed the transaction", () =>
        waitsForEveryEndorsingPeer(t));
    }
  });
}
