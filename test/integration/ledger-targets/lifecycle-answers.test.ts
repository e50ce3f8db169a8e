/**
 * `_lifecycle`'s own answers, through the gateway and through a peer's Endorser service, word for word on every
 * target (the Fabric sandbox, real 2.5.16 and 3.1.5): its access control (a client; another organization's admin),
 * a package that does not parse, an undefined chaincode, a sequence check, a change of the committed definition and a
 * commit no organization approved. Asked about the channel's built-in chaincode (committed at sequence 1, version
 * 1.0, on every target); nothing is submitted, so shared networks stay as they were. What the library makes of these
 * answers is test/unit/ledger/lifecycle/lifecycle-errors.test.ts and chaincode-lifecycle.test.ts.
 */
import { strict as assert } from "node:assert";
import { EndorserError } from "../../../provider/errors/ledger/endorser-error";
import type { Gateway } from "../../../provider/ledger/gateway-client";
import { GatewayError } from "../../../provider/errors/ledger/gateway-error";
import { prepareDefinition } from "../../../provider/ledger/lifecycle/chaincode-definition";
import { lifecycleCodecs } from "../../../provider/ledger/lifecycle/lifecycle-codecs";
import { ledgerTargets } from "../../helpers/ledger-targets";
import type { LedgerTarget } from "../../helpers/ledger-targets";
import { lifecycleTarget } from "../../helpers/lifecycle-targets";
import type { LifecycleTarget } from "../../helpers/lifecycle-targets";
import { failure, TARGET_TEST_TIMEOUT_MS } from "./helpers";

const ORGS = ["Org1MSP", "Org2MSP"] as const;

/** The peers' own words of a refusal (each ErrorDetail of a gateway's, a peer's Endorser answer), sorted. */
async function peerWords(call: Promise<unknown>): Promise<string[]> {
  const error = await failure(call);
  if (error instanceof EndorserError) return [error.responseMessage];
  assert.ok(error instanceof GatewayError, String(error));
  return error.details.map((d) => d.message).sort();
}

const backing = (fn: string, words: string): string => `failed to invoke backing implementation of '${fn}': ${words}`;

for (const target of ledgerTargets(["2.5.16", "3.1.5"])) {
  describe(`_lifecycle's answers (${target.label})`, function () {
    this.timeout(TARGET_TEST_TIMEOUT_MS);
    let ledger: LedgerTarget;
    let lt: LifecycleTarget;
    let admin: Gateway;
    let client: Gateway;
    const lifecycle = (gateway: Gateway, functionName: string, args: Uint8Array, targetOrganizations?: string[]) =>
      gateway.evaluateTransaction({
        channelId: ledger.channel,
        chaincodeName: "_lifecycle",
        functionName,
        args: [args],
        ...(targetOrganizations === undefined ? {} : { targetOrganizations }),
      });
    const endorse = (functionName: string, args: Uint8Array, endorsingOrganizations: string[]) =>
      admin
        .newProposal({
          channelId: ledger.channel,
          chaincodeName: "_lifecycle",
          functionName,
          args: [args],
          endorsingOrganizations,
        })
        .endorse();
    /** The built-in chaincode's committed definition as the peer CLI wrote it on every target (sequence 1). */
    const builtin = () => prepareDefinition({ name: ledger.chaincode, version: "1.0", sequence: 1 }).args;

    before(async function () {
      this.timeout(900_000);
      ledger = await target.start();
      lt = lifecycleTarget(ledger);
      admin = lt.adminGateway("Org1MSP");
      client = ledger.connectOurs();
    });
    after(async () => {
      admin.close();
      client.close();
      await ledger.close();
    });

    it("refuses a client at a peer's local Admins, and a package that does not parse", async () => {
      const clientPeer = lt.endorser("Org1MSP", { identity: ledger.client("Org1MSP") });
      const adminPeer = lt.endorser("Org1MSP");
      try {
        assert.deepEqual(
          await peerWords(
            clientPeer.processProposal({
              chaincodeName: "_lifecycle",
              functionName: "QueryInstalledChaincodes",
              args: [lifecycleCodecs.QueryInstalledChaincodesArgs.encode({})],
            }),
          ),
          [
            "Failed to authorize invocation due to failed ACL check: Failed verifying that proposal's creator satisfies " +
              "local MSP principal during channelless check policy with policy [Admins]: [The identity is not an admin " +
              "under this MSP [Org1MSP]: The identity does not contain OU [ADMIN], MSP: [Org1MSP]]",
          ],
        );
        assert.deepEqual(
          await peerWords(
            adminPeer.processProposal({
              chaincodeName: "_lifecycle",
              functionName: "InstallChaincode",
              args: [lifecycleCodecs.InstallChaincodeArgs.encode({ chaincodeInstallPackage: Buffer.from("junk") })],
            }),
          ),
          [
            backing(
              "InstallChaincode",
              "could not parse as a chaincode install package: error reading as gzip stream: unexpected EOF",
            ),
          ],
        );
      } finally {
        clientPeer.close();
        adminPeer.close();
      }
    });

    it("refuses another organization's admin at a peer, and says a chaincode is not defined", async () => {
      assert.deepEqual(
        await peerWords(
          lifecycle(
            admin,
            "QueryApprovedChaincodeDefinition",
            lifecycleCodecs.QueryApprovedChaincodeDefinitionArgs.encode({ name: ledger.chaincode, sequence: 0n }),
            ["Org2MSP"],
          ),
        ),
        [
          "chaincode response 500, Failed to authorize invocation due to failed ACL check: Failed deserializing " +
            "proposal creator during channelless check policy with policy [Admins]: [expected MSP ID Org2MSP, received Org1MSP]",
        ],
      );
      assert.deepEqual(
        await peerWords(
          lifecycle(
            client,
            "QueryChaincodeDefinition",
            lifecycleCodecs.QueryChaincodeDefinitionArgs.encode({ name: "nosuchcc" }),
          ),
        ),
        ["chaincode response 404, namespace nosuchcc is not defined"],
      );
    });

    it("checks sequences, the committed definition's fields, and that a committing organization approved", async () => {
      assert.deepEqual(
        await peerWords(
          lifecycle(
            client,
            "CheckCommitReadiness",
            lifecycleCodecs.CheckCommitReadinessArgs.encode({ ...builtin(), sequence: 5n }),
          ),
        ),
        [
          `chaincode response 500, ${backing("CheckCommitReadiness", "requested sequence is 5, but new definition must be sequence 2")}`,
        ],
      );
      assert.deepEqual(
        await peerWords(
          endorse(
            "ApproveChaincodeDefinitionForMyOrg",
            lifecycleCodecs.ApproveChaincodeDefinitionForMyOrgArgs.encode({ ...builtin(), version: "9" }),
            ["Org1MSP"],
          ),
        ),
        [
          `chaincode response 500, ${backing("ApproveChaincodeDefinitionForMyOrg", `attempted to redefine the current committed sequence (1) for namespace ${ledger.chaincode} with different parameters: expected Version '1.0' does not match passed Version '9'`)}`,
        ],
      );
      assert.deepEqual(
        await peerWords(
          endorse(
            "CommitChaincodeDefinition",
            lifecycleCodecs.CommitChaincodeDefinitionArgs.encode({ ...builtin(), sequence: 2n, version: "2.0" }),
            [...ORGS],
          ),
        ),
        ORGS.map(
          (org) =>
            `chaincode response 500, ${backing("CommitChaincodeDefinition", `chaincode definition not agreed to by this org (${org})`)}`,
        ),
      );
    });
  });
}
