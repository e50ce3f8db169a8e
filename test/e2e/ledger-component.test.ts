/**
 * The LedgerTransaction component through the real engine (examples/ledger, the plain `pulumi` CLI in its directory)
 * on the Fabric sandbox, real Fabric 2.5.16 and real Fabric 3.1.5, one body per behaviour (test/helpers/
 * ledger-component-behaviours.ts): VALID with the txId the preview showed; MVCC_READ_CONFLICT from a concurrent writer that commits
 * between the component's endorsement and its submission (the gateway proxy holds the endorsement's answer until the
 * writer's transaction is committed); kill -9 of the whole `pulumi up` once the transaction is committed but before
 * the provider hears it (the proxy holds CommitStatus's answer), and the re-run adopts it: one transaction on the ledger.
 * Everything is observed through the proxy and read back through qscc, the same way on every target.
 */
import { adoptsAfterKill, failsOnReadConflict, submitsValid } from "../helpers/ledger-component-behaviours";
import { startComponentTarget } from "../helpers/ledger-component";
import type { ComponentTarget } from "../helpers/ledger-component";
import { ledgerTargets } from "../helpers/ledger-targets";

for (const target of ledgerTargets(["2.5.16", "3.1.5"])) {
  describe(`examples/ledger: LedgerTransaction through the pulumi CLI (${target.label})`, function () {
    this.timeout(600_000);
    let t: ComponentTarget;
    before(async () => {
      t = await startComponentTarget(target);
    });
    after(async () => {
      await t.close();
    });

    it("previews the txId and the simulated result, then submits exactly that transaction once: VALID", () =>
      submitsValid(t));
    it("fails with MVCC_READ_CONFLICT when another client commits the key between endorsement and submit", () =>
      failsOnReadConflict(t));
    it("adopts the committed transaction after kill -9 of pulumi up: exactly one on the ledger", () =>
      adoptsAfterKill(t));
  });
}
