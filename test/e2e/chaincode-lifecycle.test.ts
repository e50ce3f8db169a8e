/**
 * A second chaincode deployed on a real Fabric network entirely from a Pulumi program, through the plain `pulumi` CLI:
 * examples/chaincode, acting for both organizations, packages a chaincode-as-a-service for each organization's own
 * chaincode server (sandbox/fabric-network/chaincode-server.ts, started for the package id computed here), installs
 * each package on its organization's peer, approves as each organization's admin, commits once the channel's
 * LifecycleEndorsement policy is met and submits a transaction on the new chaincode: VALID. Run again, every resource
 * is unchanged (no step runs, so nothing is sent). A client reads the definition; a peer's identity is refused by the
 * Writers ACL. Then an upgrade by a changed endorsement policy: sequence 2, both organizations approve again, one
 * commit, and a transaction only Org1MSP endorses is VALID under the new policy. Then drift: another admin approves and
 * commits another version with the peer CLI; refresh reports it field by field, and the next up restores the declared
 * definition at the next sequence. Refusals at preview, and kill -9 of the whole `pulumi up` once an approval is
 * committed (its CommitStatus answer held by a proxy): the next up adopts it and sends nothing again. On one target, a
 * third chaincode deployed by a YAML program through the plugin's linux-amd64 executable (the schema's face), read back
 * with getChaincodeDefinition. One describe per target of TARGETS, on the run's shared networks (decision 0051).
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { LifecycleError } from "../../provider/errors/ledger/lifecycle-error";
import { readChaincodeDefinition } from "../../provider/resources/ledger/chaincode/chaincode-reads";
import { newMember, newOrg } from "../unit/ledger/fixtures";
import { buildCcaasPackage } from "../../provider/ledger/lifecycle/chaincode-package";
import { ledgerTargets } from "../helpers/ledger-targets";
import type { LedgerTarget, LedgerTargetFactory, TargetStartOptions } from "../helpers/ledger-targets";
import { lifecycleTarget } from "../helpers/lifecycle-targets";
import { readNetworkFile } from "../../sandbox/fabric-network/network-file";
import type { LifecycleTarget, TargetChaincodeServer } from "../helpers/lifecycle-targets";
import { changeSummary, exampleDir, initProjectStack } from "../helpers/project-stack";
import { channelProject, ref, secret } from "../helpers/channel-project";
import type { ProgramResource } from "../helpers/channel-project";
import { pluginExecutableDir } from "../helpers/plugin-builds";
import { findSecretsDecoded, privateKeyForms, scanStackFilesAtRest } from "../helpers/secrets-scan";
import { SECRET_SIG, SECRET_SIG_KEY } from "../../scripts/lib/stack-checkpoint";
import { GATEWAY } from "../helpers/gateway-proxy";
import {
  commitStatusOf,
  runUntilHeld,
  startComponentTarget,
  submits,
  submittedTxId,
} from "../helpers/ledger-component";
import { killCommand } from "../helpers/kill-stack";
import type { ConfigValues, ProjectStack } from "../helpers/project-stack";

const [, FABRIC_2_5, FABRIC_3_1] = ledgerTargets(["2.5.16", "3.1.5"]) as [
  LedgerTargetFactory,
  LedgerTargetFactory,
  LedgerTargetFactory,
];

/** Where the body runs: a real network, and how it is started. */
const TARGETS: readonly {
  readonly label: string;
  readonly factory: LedgerTargetFactory;
  readonly start: TargetStartOptions;
  /** Whether a YAML program through the plugin's executable deploys a chaincode here too (one target: the face). */
  readonly yaml?: boolean;
}[] = [
  { label: `${FABRIC_2_5.label} (Raft)`, factory: FABRIC_2_5, start: {} },
  { label: `${FABRIC_3_1.label} (Raft)`, factory: FABRIC_3_1, start: {}, yaml: true },
  { label: `${FABRIC_3_1.label} (SmartBFT)`, factory: FABRIC_3_1, start: { shared: "3.1.5 SmartBFT" } },
];

const ORGS = ["Org1MSP", "Org2MSP"] as const;
const FIRST_POLICY = "AND('Org1MSP.peer','Org2MSP.peer')";
const SECOND_POLICY = "OR('Org1MSP.peer','Org2MSP.peer')";

for (const target of TARGETS) {
  describe(`a chaincode deployed from examples/chaincode with the pulumi CLI (${target.label})`, function () {
    this.timeout(900_000);
    let ledger: LedgerTarget;
    let lt: LifecycleTarget;
    let stack: ProjectStack;
    let keyDir: string;
    const servers: TargetChaincodeServer[] = [];
    const packageIds: Record<string, string> = {};
    const name = `cc${crypto.randomBytes(4).toString("hex")}`;

    /** An organization's admin as the resources take it: its certificate and its key's file (the state keeps the path). */
    function adminIdentity(mspId: string): { mspId: string; certificatePem: string; keyFile: string } {
      const keyFile = path.join(keyDir, `${mspId}-admin-key.pem`);
      fs.writeFileSync(keyFile, lt.admin(mspId).privateKeyPem, { mode: 0o600 });
      return { mspId, certificatePem: lt.admin(mspId).certificatePem, keyFile };
    }

    /** An organization's gateway peer as the resources take it. */
    function gatewayArgs(mspId: string): Record<string, string> {
      const g = ledger.gateway(mspId);
      return {
        address: g.address,
        tlsRootCertPem: g.tlsRootCertPem,
        ...(g.serverNameOverride === undefined ? {} : { serverNameOverride: g.serverNameOverride }),
      };
    }

    /** The example's settings for both organizations, the definition's policy and the transaction to submit. */
    function config(policy: string, invoke: { args: string[]; endorsingOrganizations: string[] }): ConfigValues {
      const gateways: Record<string, unknown> = {};
      const admins: Record<string, unknown> = {};
      for (const mspId of ORGS) {
        gateways[mspId] = gatewayArgs(mspId);
        const { certificatePem, keyFile } = adminIdentity(mspId);
        admins[mspId] = { certificatePem, keyFile };
      }
      const connections = Object.fromEntries(ORGS.map((o, i) => [o, servers[i]?.connection]));
      return {
        organizations: { value: JSON.stringify(ORGS) },
        commit: { value: "true" },
        channel: { value: ledger.channel },
        chaincodeName: { value: name },
        gateways: { value: JSON.stringify(gateways) },
        admins: { value: JSON.stringify(admins) },
        trustedRootCertificates: { value: JSON.stringify(ledger.caCertificates) },
        chaincodeServers: { value: JSON.stringify(connections), secret: true },
        endorsementPolicy: { value: policy },
        invoke: { value: JSON.stringify({ function: "CreateAsset", ...invoke }) },
      };
    }

    before(async function () {
      this.timeout(1_200_000);
      ledger = await target.factory.start(target.start);
      lt = lifecycleTarget(ledger);
      keyDir = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-cc-admins-"));
      // Each organization's chaincode server is started first, for the package id its package will have.
      for (const mspId of ORGS) {
        const server = await lt.chaincodeServer(mspId, name);
        servers.push(server);
        packageIds[mspId] = buildCcaasPackage({ label: `${name}_1`, connection: server.connection }).packageId;
        await server.start(packageIds[mspId] ?? "");
      }
      stack = await initProjectStack({
        projectDir: exampleDir("chaincode"),
        stackName: `c${crypto.randomBytes(5).toString("hex")}`,
        config: config(FIRST_POLICY, { args: ["cc-1", "blue"], endorsingOrganizations: [...ORGS] }),
      });
    });
    after(async () => {
      for (const s of servers) await s.stop();
      fs.rmSync(keyDir, { recursive: true, force: true });
      await ledger.close();
    });

    it("deploys it entirely from the program (package, install, approve ×2, commit), a transaction VALID; run again sends nothing", async () => {
      const first = await stack.up();
      assert.deepEqual(first.outputs["packageIds"], packageIds);
      assert.equal(first.outputs["committedSequence"], 1);
      assert.equal(first.outputs["committedPolicy"], FIRST_POLICY);
      assert.deepEqual(first.outputs["committedApprovals"], { Org1MSP: true, Org2MSP: true });
      assert.equal(first.outputs["invokeValidationCode"], "VALID");
      assert.deepEqual([...(first.outputs["invokeEndorsers"] as string[])].sort(), [...ORGS]);

      // Every resource unchanged: no create or update ran, so nothing was installed, endorsed or ordered again.
      const again = await stack.up();
      assert.match(again.stdout, /^\s+10 unchanged$/m);
      assert.deepEqual(again.outputs, first.outputs);
    });

    it("reads it as a client (a channel Writer) with getChaincodeDefinition; a peer's identity (Readers only) is refused naming the ACL", async () => {
      const gateway = ledger.gateway("Org1MSP");
      const reader = { address: gateway.address, tlsRootCertPem: gateway.tlsRootCertPem };
      const read = await readChaincodeDefinition({
        gateway: {
          ...reader,
          ...(gateway.serverNameOverride === undefined ? {} : { serverNameOverride: gateway.serverNameOverride }),
        },
        channel: ledger.channel,
        identity: ledger.client("Org1MSP"),
        name,
      });
      assert.deepEqual(
        [read.committed?.sequence, read.committed?.approvals, read.approval],
        [1, { Org1MSP: true, Org2MSP: true }, undefined],
      );
      await assert.rejects(
        readChaincodeDefinition({
          gateway: {
            ...reader,
            ...(gateway.serverNameOverride === undefined ? {} : { serverNameOverride: gateway.serverNameOverride }),
          },
          channel: ledger.channel,
          identity: ledger.peer("Org1MSP"),
          name,
        }),
        (e: LifecycleError) => {
          assert.equal(e.problem, "NOT_A_WRITER");
          assert.match(
            e.message,
            /The channel's ACL _lifecycle\/QueryChaincodeDefinition names \/Channel\/Application\/Writers/,
          );
          return true;
        },
      );
    });

    it("upgrades by a changed endorsement policy: sequence 2, both re-approve, one commit, a transaction Org1MSP alone endorses VALID", async () => {
      await stack.setConfig(config(SECOND_POLICY, { args: ["cc-2", "green"], endorsingOrganizations: ["Org1MSP"] }));
      const upgraded = await stack.up();
      assert.equal(upgraded.outputs["committedSequence"], 2);
      assert.equal(upgraded.outputs["committedPolicy"], SECOND_POLICY);
      assert.deepEqual(upgraded.outputs["approvedSequences"], { Org1MSP: 2, Org2MSP: 2 });
      assert.equal(upgraded.outputs["invokeValidationCode"], "VALID");
      assert.deepEqual(upgraded.outputs["invokeEndorsers"], ["Org1MSP"]);
    });

    it("finds drift another admin made with the peer CLI on refresh, and the next up restores the declared definition at the next sequence", async () => {
      const peerCli = lt.peerCli;
      const network = ledger.network;
      assert.ok(peerCli !== undefined && network !== undefined);
      const description = readNetworkFile(network.networkFile);
      const orderer = description.orderers[0];
      assert.ok(orderer !== undefined);
      const ordererArgs = ["-o", orderer.address, "--tls", "--cafile", description.ordererTlsRootCertPath];
      const theirs = [
        "-C",
        ledger.channel,
        "-n",
        name,
        "-v",
        "9.9",
        "--sequence",
        "3",
        "--signature-policy",
        SECOND_POLICY,
      ];
      for (const mspId of ORGS) {
        await peerCli(mspId, [
          ...["lifecycle", "chaincode", "approveformyorg", ...ordererArgs, ...theirs],
          ...["--package-id", packageIds[mspId] ?? "", "--ordererTLSHostnameOverride", orderer.tlsServerName],
        ]);
      }
      const peers = ORGS.flatMap((o) => [
        ...["--peerAddresses", network.organization(o).gatewayAddress],
        ...["--tlsRootCertFiles", network.organization(o).tlsRootCertPath],
      ]);
      await peerCli("Org1MSP", [
        ...["lifecycle", "chaincode", "commit", ...ordererArgs, ...theirs, ...peers],
        ...["--ordererTLSHostnameOverride", orderer.tlsServerName],
      ]);

      const refreshed = await stack.refresh();
      assert.match(
        refreshed.stdout,
        new RegExp(
          `the definition of ${name} committed on channel '${ledger.channel}' differs from the declared one \\(version "1\\.0" \\(declared\\) vs "9\\.9"; sequence 2 \\(declared\\) vs 3\\)`,
        ),
      );
      assert.match(
        refreshed.stdout,
        /Org2MSP's newest approval of \S+ differs from the declared definition \(version "1\.0" \(declared\) vs "9\.9"/,
      );
      const restored = await stack.up();
      assert.equal(restored.outputs["committedSequence"], 4);
      assert.equal(restored.outputs["committedPolicy"], SECOND_POLICY);
      assert.deepEqual(restored.outputs["approvedSequences"], { Org1MSP: 4, Org2MSP: 4 });
    });

    it("refuses at preview, naming the field, a policy that does not parse and an admin of an organization the channel does not know", async () => {
      const settings = config(FIRST_POLICY, { args: [], endorsingOrganizations: [] });
      const base = Object.fromEntries(Object.entries(settings).filter(([k]) => !["commit", "invoke"].includes(k)));
      const badPolicy = await initProjectStack({
        projectDir: exampleDir("chaincode"),
        stackName: `r${crypto.randomBytes(5).toString("hex")}`,
        config: {
          ...base,
          organizations: { value: JSON.stringify(["Org1MSP"]) },
          endorsementPolicy: { value: "AND('Org1MSP.peer'" },
        },
      });
      try {
        const preview = await badPolicy.preview({ allowFailure: true });
        assert.notEqual(preview.code, 0);
        assert.match(
          preview.output,
          /property definition\.endorsementPolicy value .* has a problem: at column 19 of "AND\('Org1MSP\.peer'": expected ',' or '\)' after the first rule of AND, found the end of the policy/,
        );
      } finally {
        await badPolicy.dispose();
      }
      const org9 = await newOrg("Org9MSP");
      const stranger = await newMember(org9, "Admin@org9msp", { ou: "admin" });
      const strangerKey = path.join(keyDir, "Org9MSP-admin-key.pem");
      fs.writeFileSync(strangerKey, stranger.privateKeyPem, { mode: 0o600 });
      const g = ledger.gateway("Org1MSP");
      const unknown = await initProjectStack({
        projectDir: exampleDir("chaincode"),
        stackName: `r${crypto.randomBytes(5).toString("hex")}`,
        config: {
          ...base,
          organizations: { value: JSON.stringify(["Org9MSP"]) },
          gateways: {
            value: JSON.stringify({
              Org9MSP: {
                address: g.address,
                tlsRootCertPem: g.tlsRootCertPem,
                serverNameOverride: g.serverNameOverride,
              },
            }),
          },
          admins: {
            value: JSON.stringify({
              Org9MSP: {
                certificatePem: Buffer.from(stranger.identity.credentials).toString("utf8"),
                keyFile: strangerKey,
              },
            }),
          },
          trustedRootCertificates: { value: JSON.stringify({ ...ledger.caCertificates, Org9MSP: org9.caPem }) },
          chaincodeServers: { value: JSON.stringify({ Org9MSP: servers[0]?.connection }), secret: true },
        },
      });
      try {
        const preview = await unknown.preview({ allowFailure: true });
        assert.notEqual(preview.code, 0);
        assert.match(
          preview.output,
          // The installation, the first step, is refused by the peer (a channelless call): before anything is sent.
          /property identity\.certificatePem value .* has a problem: QueryInstalledChaincodes on the peer at [\d.:]+: the peer does not know the identity of Org9MSP it was signed with \(Fabric: error validating proposal: access denied: channel \[\] creator org unknown/,
        );
      } finally {
        await unknown.dispose();
      }
    });

    it("kill -9 of pulumi up once Org1MSP's approval is committed: the next up adopts it, nothing is sent twice", async () => {
      // A proxy in front of Org1MSP's gateway holds the approval's CommitStatus answer: the peer has committed the
      // approval, the provider has not heard it, so the engine cannot have recorded the resource.
      const t = await startComponentTarget(target.factory, target.start);
      const settings = config(FIRST_POLICY, { args: [], endorsingOrganizations: [] });
      const killed = await initProjectStack({
        projectDir: exampleDir("chaincode"),
        stackName: `k${crypto.randomBytes(5).toString("hex")}`,
        config: {
          ...Object.fromEntries(Object.entries(settings).filter(([k]) => !["commit", "invoke"].includes(k))),
          organizations: { value: JSON.stringify(["Org1MSP"]) },
          chaincodeName: { value: `k${name}` },
          gateways: {
            value: JSON.stringify({
              Org1MSP: {
                address: t.proxy.address,
                tlsRootCertPem: t.proxyTls.rootCertPem,
                serverNameOverride: t.proxyTls.serverName,
              },
            }),
          },
        },
      });
      try {
        const held = t.proxy.hold(GATEWAY.commitStatus);
        const mark = t.proxy.calls.length;
        let cliPid: number | undefined;
        const { call, command } = await runUntilHeld(
          killed.up({ allowFailure: true, onSpawn: (pid) => (cliPid = pid) }),
          held,
          "the commit status of Org1MSP's approval",
        );
        const [submitted, ...more] = submits(t.proxy, mark);
        assert.ok(submitted !== undefined);
        assert.deepEqual([submitted.status, more.length], [0, 0], "one Submit, accepted by the orderer");
        const txId = submittedTxId(submitted);
        assert.equal(commitStatusOf(call).code, 0, "the peer reports the approval committed VALID");
        assert.ok(cliPid !== undefined);
        const kill = killCommand(cliPid, "tree");
        assert.equal((await command).signal, "SIGKILL");
        await kill.gone();
        held.release(); // its client is gone: nothing to answer

        await killed.run(["cancel", "--yes"]);
        const after = t.proxy.calls.length;
        await killed.refresh({ clearPendingCreates: true });
        const { outputs } = await killed.up();
        assert.deepEqual(outputs["approvedSequences"], { Org1MSP: 1 });
        assert.deepEqual(submits(t.proxy, after), [], "nothing was submitted after the kill");
        const approval = (await killed.exportState()).resources?.find((r) => r.urn.endsWith("::org1-approval"));
        assert.deepEqual(
          [approval?.outputs?.["outcome"], approval?.outputs?.["txId"]],
          ["adopted", txId],
          "the approval committed before the kill, adopted under its txId",
        );
      } finally {
        await killed.dispose();
        await t.close();
      }
    });

    if (target.yaml === true)
      it("deploys a third chaincode from a YAML program through the plugin's linux-amd64 executable, a transaction VALID; run again sends nothing and getChaincodeDefinition reads it", async () => {
        const yamlName = `y${name}`;
        const yamlServers: TargetChaincodeServer[] = [];
        const project = channelProject({ yamlPluginDir: await pluginExecutableDir() });
        const yamlStack = await initProjectStack({ projectDir: project.dir, eventLog: true });
        try {
          const channel = ledger.channel;
          const trustedRootCertificates = ledger.caCertificates;
          const definition = { name: yamlName, version: "1.0", endorsementPolicy: SECOND_POLICY };
          const resources: ProgramResource[] = [];
          const expectedIds: Record<string, string> = {};
          for (const mspId of ORGS) {
            const server = await lt.chaincodeServer(mspId, yamlName);
            yamlServers.push(server);
            expectedIds[mspId] = buildCcaasPackage({ label: `${yamlName}_1`, connection: server.connection }).packageId;
            await server.start(expectedIds[mspId] ?? "");
            const org = mspId.replace(/MSP$/, "").toLowerCase();
            const identity = adminIdentity(mspId);
            resources.push(
              {
                name: `${org}Package`,
                kind: "ChaincodePackage",
                args: { label: `${yamlName}_1`, connection: secret(server.connection) },
              },
              {
                name: `${org}Installation`,
                kind: "ChaincodeInstallation",
                args: { peer: gatewayArgs(mspId), identity, packageBase64: ref(`${org}Package.packageBase64`) },
              },
              {
                name: `${org}Approval`,
                kind: "ChaincodeApproval",
                args: {
                  gateway: gatewayArgs(mspId),
                  channel,
                  identity,
                  trustedRootCertificates,
                  definition,
                  packageId: ref(`${org}Installation.packageId`),
                },
              },
            );
          }
          const org1 = { gateway: gatewayArgs("Org1MSP"), channel, identity: adminIdentity("Org1MSP") };
          resources.push(
            {
              name: "definition",
              kind: "ChaincodeDefinition",
              args: { ...org1, trustedRootCertificates, definition },
              dependsOn: ["org1Approval", "org2Approval"],
            },
            {
              name: "tx",
              kind: "LedgerTransaction",
              args: {
                ...org1,
                trustedRootCertificates,
                chaincode: yamlName,
                function: "CreateAsset",
                args: [`yaml-${crypto.randomBytes(4).toString("hex")}`, "yellow"],
                endorsingOrganizations: ["Org2MSP"],
              },
              dependsOn: ["definition"],
            },
          );
          const outputs = {
            packageIds: "org1Installation.packageId",
            packageIds2: "org2Installation.packageId",
            sequence: "definition.committed.sequence",
            approvals: "definition.committed.approvals",
            code: "tx.validationCode",
            endorsers: "tx.endorsers",
          };
          project.write({ resources, outputs });
          const up = await yamlStack.up();
          assert.deepEqual(
            [up.outputs["packageIds"], up.outputs["packageIds2"], up.outputs["sequence"], up.outputs["approvals"]],
            [expectedIds["Org1MSP"], expectedIds["Org2MSP"], 1, { Org1MSP: true, Org2MSP: true }],
          );
          assert.deepEqual([up.outputs["code"], up.outputs["endorsers"]], ["VALID", ["Org2MSP"]]);
          // The package carries the chaincode server's client TLS key: given as fn::secret, kept as ciphertext only.
          const state = await yamlStack.exportState();
          const pkg = state.resources?.find((r) => r.urn.endsWith("::org1Package"))?.outputs ?? {};
          for (const field of ["connection", "packageBase64"])
            assert.equal((pkg[field] as Record<string, unknown> | undefined)?.[SECRET_SIG_KEY], SECRET_SIG, field);
          const clientKey = yamlServers[0]?.connection.clientKey ?? "";
          assert.ok(clientKey.includes("PRIVATE KEY"));
          assert.deepEqual(
            findSecretsDecoded(scanStackFilesAtRest(yamlStack).backend.text, privateKeyForms("client key", clientKey)),
            [],
          );

          // The same resources with a read: no step runs, so nothing is installed, endorsed or ordered again.
          project.write({
            resources,
            reads: [
              {
                name: "read",
                fn: "getChaincodeDefinition",
                args: { ...org1, trustedRootCertificates, name: yamlName },
              },
            ],
            outputs: {
              ...outputs,
              readSequence: "read.committed.sequence",
              readPolicy: "read.committed.endorsementPolicy",
            },
          });
          const again = await yamlStack.up();
          // Every resource and the stack itself unchanged.
          assert.deepEqual(changeSummary(again.events), { same: resources.length + 1 });
          assert.deepEqual(
            [again.outputs["readSequence"], again.outputs["readPolicy"], again.outputs["code"]],
            [1, SECOND_POLICY, "VALID"],
          );
        } finally {
          await yamlStack.dispose();
          project.remove();
          for (const s of yamlServers) await s.stop();
        }
      });
  });
}
