/**
 * What only the Fabric sandbox can show of its `_lifecycle` (decision 0072): a restored snapshot rebuilds every
 * approval and definition from its blocks (an approval's private data is taken from its VALID transaction), while
 * installed packages, a peer's own store, are gone; and a snapshot taken before the genesis block held the endorsement
 * policies restores onto the genesis block it was taken with (the 0.1.0 upgrade fixture).
 */
import { strict as assert } from "node:assert";
import * as fs from "node:fs";
import * as path from "node:path";
import { connectEndorser } from "../../../provider/ledger/endorser-client";
import type { Endorser } from "../../../provider/ledger/endorser-client";
import { connect } from "../../../provider/ledger/gateway-client";
import type { Gateway } from "../../../provider/ledger/gateway-client";
import { newIdentity } from "../../../provider/ledger/identity";
import { buildCcaasPackage } from "../../../provider/ledger/lifecycle/chaincode-package";
import { installChaincode, queryInstalledChaincodes } from "../../../provider/ledger/lifecycle/lifecycle-install";
import { queryCommittedDefinition } from "../../../provider/ledger/lifecycle/lifecycle-reads";
import {
  approveChaincodeDefinition,
  commitChaincodeDefinition,
} from "../../../provider/ledger/lifecycle/lifecycle-transactions";
import { newPrivateKeySigner } from "../../../provider/ledger/signing";
import { startFabricSandbox } from "../../../sandbox/fabric";
import type { FabricSandbox, FabricSandboxSnapshot } from "../../../sandbox/fabric";
import { freePorts } from "../../../sandbox/fabric-network/ports";
import { REPO_ROOT } from "../../helpers/project-stack";

const ORGS = ["Org1MSP", "Org2MSP"] as const;
const DEFINITION = {
  name: "snapcc",
  version: "1.0",
  sequence: 1,
  endorsementPolicy: "OR('Org1MSP.peer','Org2MSP.peer')",
};

/** Our clients to a sandbox as each organization's admin (insecure: loopback). */
function adminsOf(sandbox: FabricSandbox): { gateways: Gateway[]; endorsers: Endorser[]; close(): void } {
  const trustedMsps = Object.entries(sandbox.caCertificates).map(([mspId, pem]) => ({
    mspId,
    rootCertificates: [pem],
  }));
  const admins = ORGS.map((org) => sandbox.newAdminIdentity(org));
  const gateways = admins.map((a) =>
    connect({
      address: sandbox.address,
      identity: newIdentity(a.mspId, a.certificatePem),
      signer: newPrivateKeySigner(a.privateKeyPem),
      trustedMsps,
    }),
  );
  const endorsers = admins.map((a) =>
    connectEndorser({
      address: sandbox.address,
      identity: newIdentity(a.mspId, a.certificatePem),
      signer: newPrivateKeySigner(a.privateKeyPem),
    }),
  );
  return {
    gateways,
    endorsers,
    close: () => {
      for (const c of [...gateways, ...endorsers]) c.close();
    },
  };
}

describe("the Fabric sandbox's _lifecycle across a snapshot", function () {
  this.timeout(60_000);

  it("rebuilds approvals and definitions from the blocks; installed packages are the peers' own and gone", async () => {
    const first = await startFabricSandbox({ organizations: [...ORGS], endorsementPolicy: "all" });
    const clients = adminsOf(first);
    let snapshot: FabricSandboxSnapshot;
    try {
      const pkg = buildCcaasPackage({ label: "snapcc_1", connection: { address: "127.0.0.1:9999" } });
      for (const [i, org] of ORGS.entries()) {
        const endorser = clients.endorsers[i];
        const gateway = clients.gateways[i];
        assert.ok(endorser !== undefined && gateway !== undefined, org);
        await installChaincode(endorser, pkg);
        await approveChaincodeDefinition(gateway, {
          channelId: first.channel,
          definition: DEFINITION,
          packageId: pkg.packageId,
        });
      }
      const gateway = clients.gateways[0];
      assert.ok(gateway !== undefined);
      assert.equal(
        (await commitChaincodeDefinition(gateway, { channelId: first.channel, definition: DEFINITION })).outcome,
        "submitted",
      );
      snapshot = JSON.parse(JSON.stringify(first.snapshot())) as FabricSandboxSnapshot;
    } finally {
      clients.close();
      await first.close();
    }
    assert.equal(snapshot.endorsementPolicies, true);
    const restored = await startFabricSandbox({ restore: snapshot });
    const again = adminsOf(restored);
    try {
      const [gateway] = again.gateways;
      const [endorser] = again.endorsers;
      assert.ok(gateway !== undefined && endorser !== undefined);
      const committed = await queryCommittedDefinition(gateway, restored.channel, DEFINITION.name);
      assert.deepEqual(
        [committed?.sequence, committed?.endorsementPolicy, committed?.approvals],
        [1n, "OR('Org1MSP.peer','Org2MSP.peer')", { Org1MSP: true, Org2MSP: true }],
      );
      assert.deepEqual(
        (await queryInstalledChaincodes(endorser)).map((p) => p.label),
        ["assets_1.0"],
        "only the built-in chaincode's package, which every peer has from genesis",
      );
    } finally {
      again.close();
      await restored.close();
    }
  });

  it("restores a snapshot from before the genesis block held the endorsement policies (the 0.1.0 upgrade fixture)", async () => {
    const file = path.join(REPO_ROOT, "test", "fixtures", "upgrade", "0.1.0", "ledger-yaml", "fabric-sandbox.json");
    const recorded = JSON.parse(fs.readFileSync(file, "utf8")) as FabricSandboxSnapshot;
    assert.equal(recorded.endorsementPolicies, undefined);
    const [port] = await freePorts(1);
    assert.ok(port !== undefined);
    // Restored on a free port: the block hashes, which the restore checks, do not depend on it.
    const restored = await startFabricSandbox({ restore: { ...recorded, port } });
    try {
      const taken = restored.snapshot();
      assert.deepEqual([taken.lastBlockHash, taken.endorsementPolicies], [recorded.lastBlockHash, false]);
    } finally {
      await restored.close();
    }
  });
});
