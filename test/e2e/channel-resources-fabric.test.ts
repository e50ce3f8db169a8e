/**
 * The channel resources through the plain `pulumi` CLI on a real Fabric network (the TypeScript face: a program of the
 * SDK's classes), on a channel of the test's own (decision 0075), one `describe` per target in TARGETS, its bodies in
 * order: the channel created from a declared configuration (ledger.Channel, osnadmin join over mutual TLS) and each
 * peer joined (ledger.ChannelPeer, cscc JoinChain; Org2's admin key in an HSM); Org2's peer adopted, no JoinChain
 * sent, when its ChannelPeer's state is lost (`pulumi state delete`); the batch timeout changed by a
 * ChannelBatchSettings — preview shows before → after and sends nothing, up sends one update, the next up none,
 * getChannelConfig reads the new value; a batch timeout changed with the peer CLI by another admin refused until
 * `pulumi refresh` shows it with who signed it, then set back by one update; Org3 added — refused in preview naming
 * Org2MSP when only Org1's admin signs, then signed by Org1's key file and Org2's HSM key — its peer joined, its anchor
 * peer set, and a LedgerTransaction endorsed by Org3 alone committed VALID; kill -9 of a whole `pulumi up` once the
 * orderer accepted its update (the proxy holds the answer), and the next up adopting it; examples/channel's README block run as
 * written on the same channel; a YAML program through each build of the plugin (the npm package's script, the
 * linux-amd64 executable) changing the batch timeout and reading it back; last, where the channel starts below V3_0,
 * the channel capability raised to V3_0 by a ChannelCapabilities, an Ed25519 client's transaction refused before it
 * and VALID after it, with nothing declared about algorithms or capabilities. Every Broadcast the programs send goes
 * through a proxy in front of the orderer, which counts them; every call to Org2's peer through another.
 */
import { strict as assert } from "node:assert";
import * as crypto from "node:crypto";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { FabricNetwork } from "../../sandbox/fabric-network";
import { startJoiningOrganization } from "../../sandbox/fabric-network";
import type { FabricJoiningOrganization } from "../../sandbox/fabric-network";
import {
  GATEWAY,
  ORDERER,
  broadcasts,
  callsOf,
  channelArgs,
  defineAssetsChaincode,
  openChannelAdmins,
  org3Msp,
  peerCliSetsBatchTimeout,
} from "../helpers/channel-admins";
import type { ChannelAdmins } from "../helpers/channel-admins";
import { channelProject, ref } from "../helpers/channel-project";
import { newClientOf } from "../helpers/ledger-key-types";
import { proposalsSent } from "../helpers/peer-proposals";
import type { ChannelProgram, ChannelProject, ProgramResource } from "../helpers/channel-project";
import { sharedFabricNetwork } from "../helpers/fabric-network-fixture";
import { PLUGIN_BUILDS } from "../helpers/plugin-builds";
import type { SharedNetworkName } from "../helpers/fabric-network-fixture";
import { killCommand } from "../helpers/kill-stack";
import { initProjectStack, pulumiBinDir, stripAnsi } from "../helpers/project-stack";
import { fabricUserEnv, runReadmeCommands } from "../helpers/readme-commands";
import type { ProjectStack } from "../helpers/project-stack";

/** Each network, the capabilities its channel starts with, and the batch timeouts this file sets. */
const TARGETS: readonly {
  readonly network: SharedNetworkName;
  readonly capabilities: { channel: string[]; orderer: string[]; application: string[] };
  /** What the program declares, then what another admin sets with the peer CLI. */
  readonly timeouts: readonly [string, string];
  /**
   * Whether the last body raises the channel capability V2_0 → V3_0: only on a Fabric 3 channel that starts below it
   * (2.5.16's binaries know no V3_0; the SmartBFT channel starts at V3_0, as BFT requires).
   */
  readonly raisesToV3: boolean;
}[] = [
  {
    network: "2.5.16",
    capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_0"] },
    timeouts: ["3s", "4s"],
    raisesToV3: false,
  },
  {
    network: "3.1.5",
    capabilities: { channel: ["V2_0"], orderer: ["V2_0"], application: ["V2_5"] },
    timeouts: ["3s", "4s"],
    raisesToV3: true,
  },
  {
    network: "3.1.5 SmartBFT",
    capabilities: { channel: ["V3_0"], orderer: ["V2_0"], application: ["V2_5"] },
    timeouts: ["3s", "4s"],
    raisesToV3: false,
  },
];

const STEP_TIMEOUT_MS = 10 * 60_000;

/** The program's outputs (test/helpers/channel-project.ts exports them as one stack output). */
const out = (r: { readonly outputs: Record<string, unknown> }): Record<string, unknown> =>
  (r.outputs["outputs"] ?? {}) as Record<string, unknown>;

/** Whitespace collapsed: the CLI wraps a diagnostic's lines. */
const flat = (text: string): string => stripAnsi(text).replace(/\s+/g, " ");

for (const target of TARGETS) {
  describe(`the channel resources through the pulumi CLI (Fabric ${target.network})`, function () {
    this.timeout(STEP_TIMEOUT_MS);
    const channel = `chres-${crypto.randomBytes(3).toString("hex")}`;
    const [declared, byPeerCli] = target.timeouts;
    /** The capability raise's update, in the sequences the bodies after it assert. */
    const raised = target.raisesToV3 ? 1 : 0;
    let network: FabricNetwork;
    let admins: ChannelAdmins;
    let project: ChannelProject;
    let stack: ProjectStack;
    /** The batch timeout the channel was created with (the network's own channel's). */
    let genesisTimeout: string;
    let org3: FabricJoiningOrganization;

    const base = (): ProgramResource[] => [
      { name: "chan", kind: "Channel", args: channelArgs(network, channel, target.capabilities, admins.ordererAdmins) },
      ...(["Org1MSP", "Org2MSP"] as const).map((mspId, i): ProgramResource => ({
        name: `peer${String(i + 1)}`,
        kind: "ChannelPeer",
        args: {
          channel,
          peer: admins.peer(mspId),
          identity: i === 0 ? admins.identities.org1 : admins.identities.org2Hsm,
          genesisBlock: ref("chan.genesisBlock"),
        },
      })),
    ];
    const batch = (): ProgramResource => ({
      name: "batch",
      kind: "ChannelBatchSettings",
      args: { channel, orderer: admins.orderer, identity: admins.identities.orderer, batchTimeout: declared },
      dependsOn: ["peer1", "peer2"],
    });
    /** Org3 added (signed by Org1's admin, key file, and `signers`), its peer joined, its anchor peer set. */
    const org3Resources = (signers: readonly Readonly<Record<string, unknown>>[]): ProgramResource[] => [
      {
        name: "org3",
        kind: "ChannelOrganization",
        args: {
          channel,
          orderer: admins.orderer,
          identity: admins.identities.org1,
          signers,
          organization: org3Msp(network),
        },
        dependsOn: ["batch"],
      },
      {
        name: "peer3",
        kind: "ChannelPeer",
        args: { channel, peer: admins.peer("Org3MSP"), identity: admins.identities.org3, orderer: admins.orderer },
        dependsOn: ["org3"],
      },
      {
        name: "anchors3",
        kind: "ChannelAnchorPeers",
        args: {
          channel,
          orderer: admins.orderer,
          identity: admins.identities.org3,
          mspId: "Org3MSP",
          anchorPeers: [org3.anchorPeer],
        },
        dependsOn: ["org3"],
      },
    ];
    const read = { name: "config", fn: "getChannelConfig" as const, args: {} as Record<string, unknown> };
    const program = (withBatch: boolean, more: readonly ProgramResource[] = []): ChannelProgram => ({
      resources: [...base(), ...(withBatch ? [batch()] : []), ...more],
      reads: [{ ...read, args: { channel, node: admins.orderer, identity: admins.identities.orderer } }],
      outputs: {
        sequence: "config.sequence",
        timeout: "config.orderer.batchTimeout",
        organizations: "config.application.organizations",
        ...(withBatch ? { batchSequence: "batch.configSequence" } : {}),
      },
    });

    before(async function () {
      this.timeout(20 * 60_000);
      network = await sharedFabricNetwork(target.network);
      org3 = await startJoiningOrganization(network);
      admins = await openChannelAdmins(network, `chres-${crypto.randomBytes(3).toString("hex")}`);
      project = channelProject();
      stack = await initProjectStack({ projectDir: project.dir, env: admins.env, transpileOnly: true });
    });

    after(async () => {
      await stack.dispose();
      project.remove();
      await admins.close();
    });

    it("creates the channel through the orderers' participation API and joins Org1's and Org2's peers", async () => {
      project.write({ resources: base(), outputs: { joined: "chan.joined", peer2: "peer2.alreadyJoined" } });
      const peerMark = admins.org2Proxy.calls.length;
      const up = await stack.up();
      const joined = out(up)["joined"] as { address: string; status: string; alreadyJoined: boolean }[];
      assert.deepEqual(
        joined.map((j) => [j.address, j.status, j.alreadyJoined]),
        network.orderers.map((o) => [o.adminAddress, "active", false]),
      );
      assert.equal(out(up)["peer2"], false, "Org2's peer joined by its admin's HSM key");
      assert.deepEqual(proposalsSent(admins.org2Proxy, peerMark), ["cscc GetChannels", "cscc JoinChain"]);
      // The read needs the channel: it joins the program now.
      project.write(program(false));
      const again = await stack.up();
      const organizations = out(again)["organizations"] as { mspId: string }[];
      assert.deepEqual([out(again)["sequence"], organizations.map((o) => o.mspId)], [0, ["Org1MSP", "Org2MSP"]]);
      genesisTimeout = String(out(again)["timeout"]);
      assert.notEqual(genesisTimeout, declared);
    });

    it("adopts Org2's peer, already joined, when its ChannelPeer's state is lost: the next up sends no JoinChain", async () => {
      const before = await stack.exportState();
      const peer2 = before.resources?.find((r) => r.urn.endsWith("::peer2"));
      assert.ok(peer2 !== undefined);
      await stack.run(["state", "delete", peer2.urn, "--yes"]);
      const written = program(false);
      project.write({ ...written, outputs: { ...written.outputs, peer2: "peer2.alreadyJoined" } });
      const peerMark = admins.org2Proxy.calls.length;
      const mark = admins.proxy.calls.length;
      const up = await stack.up();
      const organizations = out(up)["organizations"] as { mspId: string }[];
      assert.deepEqual(
        [out(up)["peer2"], out(up)["sequence"], organizations.map((o) => o.mspId), broadcasts(admins.proxy, mark)],
        [true, 0, ["Org1MSP", "Org2MSP"], 0],
      );
      // GetChannels found the channel: JoinChain, which Fabric answers "ledger [...] already exists", never sent.
      assert.deepEqual(proposalsSent(admins.org2Proxy, peerMark), ["cscc GetChannels"]);
      const adopted = (await stack.exportState()).resources?.find((r) => r.urn === peer2.urn);
      assert.deepEqual([adopted?.id, adopted?.outputs?.["channel"]], [peer2.id, channel]);
    });

    it("changes the batch timeout: preview shows before → after and sends nothing, up sends one update, the next none", async () => {
      project.write(program(true));
      let mark = admins.proxy.calls.length;
      const preview = await stack.preview();
      assert.ok(
        flat(preview.output).includes(
          `ChannelBatchSettings batch: channel '${channel}' at config sequence 0 (block 0): batchTimeout "${genesisTimeout}" → "${declared}". ` +
            "The update modifies [Value] /Channel/Orderer/BatchTimeout (mod_policy /Channel/Orderer/Admins: MAJORITY Admins) approved by OrdererMSP",
        ),
        preview.output,
      );
      assert.equal(broadcasts(admins.proxy, mark), 0, "preview sends nothing");
      mark = admins.proxy.calls.length;
      const up = await stack.up();
      assert.deepEqual([out(up)["batchSequence"], broadcasts(admins.proxy, mark)], [1, 1]);
      mark = admins.proxy.calls.length;
      const again = await stack.up();
      assert.deepEqual(
        [out(again)["sequence"], out(again)["timeout"], broadcasts(admins.proxy, mark)],
        [1, declared, 0],
      );
    });

    it("refuses a batch timeout another admin changed with the peer CLI until refresh shows it, then sets it back", async () => {
      await peerCliSetsBatchTimeout(network, channel, byPeerCli);
      let mark = admins.proxy.calls.length;
      const refused = await stack.preview({ allowFailure: true });
      assert.notEqual(refused.code, 0);
      assert.ok(
        flat(refused.output).includes(
          `channel '${channel}' has batchTimeout "${declared}" → "${byPeerCli}" since this stack last recorded it (now at config sequence 2 (block 2), last changed by an update signed by OrdererMSP`,
        ),
        refused.output,
      );
      assert.equal(broadcasts(admins.proxy, mark), 0);
      const refresh = await stack.refresh();
      assert.equal(refresh.code, 0);
      assert.match(
        flat(refresh.output),
        new RegExp(
          `ChannelBatchSettings batch: channel '${channel}' has batchTimeout "${declared}" → "${byPeerCli}" \\(config sequence 2 \\(block 2\\), last changed by an update signed by OrdererMSP \\(CN=Admin@`,
        ),
      );
      const state = await stack.exportState();
      const recorded = state.resources?.find((r) => r.urn.endsWith("::batch"))?.outputs?.["batchTimeout"];
      assert.equal(recorded, byPeerCli, "refresh recorded what the channel has");
      mark = admins.proxy.calls.length;
      const up = await stack.up();
      assert.deepEqual([out(up)["batchSequence"], broadcasts(admins.proxy, mark)], [3, 1]);
    });

    it("adds Org3: a signature set short of the policy refused in preview naming Org2MSP; signed by Org1's key file and Org2's HSM key, its peer joined and its anchor peer set", async () => {
      project.write(program(true, org3Resources([])));
      let mark = admins.proxy.calls.length;
      const refused = await stack.preview({ allowFailure: true });
      assert.notEqual(refused.code, 0);
      assert.ok(
        flat(refused.output).includes(
          `the configuration update of channel '${channel}' was not sent: [Group] /Channel/Application needs its ` +
            "mod_policy Admins (/Channel/Application/Admins: MAJORITY Admins), signed by Org1MSP: 1 more of Org2MSP must sign",
        ),
        refused.output,
      );
      assert.equal(broadcasts(admins.proxy, mark), 0, "nothing was sent");
      project.write(program(true, org3Resources([admins.identities.org2Hsm])));
      mark = admins.proxy.calls.length;
      await stack.up();
      assert.equal(broadcasts(admins.proxy, mark), 2, "the organization and its anchor peers: one update each");
      project.write({
        ...program(true, org3Resources([admins.identities.org2Hsm])),
        outputs: { ...program(true).outputs, peer3: "peer3.alreadyJoined" },
      });
      mark = admins.proxy.calls.length;
      const again = await stack.up();
      const organizations = out(again)["organizations"] as { mspId: string; anchorPeers: unknown[] }[];
      assert.deepEqual(
        [
          organizations.map((o) => [o.mspId, o.anchorPeers.length]),
          out(again)["peer3"],
          broadcasts(admins.proxy, mark),
        ],
        [
          [
            ["Org1MSP", 1],
            ["Org2MSP", 1],
            ["Org3MSP", 1],
          ],
          false,
          0,
        ],
      );
      const anchors = organizations.find((o) => o.mspId === "Org3MSP")?.anchorPeers;
      assert.deepEqual(anchors, [org3.anchorPeer]);
    });

    it("commits a transaction endorsed by Org3's peer alone, VALID", async () => {
      await defineAssetsChaincode(network, channel);
      const key = `org3-${crypto.randomBytes(4).toString("hex")}`;
      project.write({
        resources: [
          ...program(true, org3Resources([admins.identities.org2Hsm])).resources,
          {
            name: "tx",
            kind: "LedgerTransaction",
            args: {
              gateway: admins.peer("Org3MSP"),
              identity: admins.identities.org3,
              channel,
              chaincode: "assets",
              function: "CreateAsset",
              args: [key, "green"],
              endorsingOrganizations: ["Org3MSP"],
              trustedRootCertificates: { Org3MSP: org3.caCertificatePem },
            },
            dependsOn: ["peer3"],
          },
        ],
        outputs: { code: "tx.validationCode", endorsers: "tx.endorsers" },
      });
      const up = await stack.up();
      assert.deepEqual([out(up)["code"], out(up)["endorsers"]], ["VALID", ["Org3MSP"]]);
    });

    if (target.raisesToV3)
      it("raises the channel capability V2_0 → V3_0: an Ed25519 client's transaction, refused before, commits VALID after with nothing declared", async () => {
        const client = await newClientOf(network, "ed25519");
        const keyFile = path.join(project.dir, "ed25519-client-key.pem");
        fs.writeFileSync(keyFile, client.privateKeyPem, { mode: 0o600 });
        const key = `ed25519-${crypto.randomBytes(4).toString("hex")}`;
        // Org1's client by key file; endorsed by Org2 through the proxy that sees every gateway call.
        const edTx: ProgramResource = {
          name: "edTx",
          kind: "LedgerTransaction",
          args: {
            gateway: admins.peer("Org2MSP"),
            identity: { mspId: "Org1MSP", certificatePem: client.certificatePem, keyFile },
            channel,
            chaincode: "assets",
            function: "CreateAsset",
            args: [key, "blue"],
            endorsingOrganizations: ["Org2MSP"],
            trustedRootCertificates: { Org2MSP: network.organization("Org2MSP").caCertificatePem },
          },
        };
        const caps: ProgramResource = {
          name: "caps",
          kind: "ChannelCapabilities",
          args: {
            channel,
            orderer: admins.orderer,
            identity: admins.identities.orderer,
            // /Channel/Admins: a majority of the Orderer's and the Application's Admins (2 of Org1, Org2, Org3).
            signers: [admins.identities.org1, admins.identities.org2Hsm],
            capabilities: { channel: ["V3_0"] },
            fabricVersion: network.version,
          },
          dependsOn: ["anchors3"],
        };
        const written = (more: readonly ProgramResource[]): ChannelProgram => {
          const p = program(true, [...org3Resources([admins.identities.org2Hsm]), ...more]);
          return {
            ...p,
            outputs: {
              ...p.outputs,
              capabilities: "config.capabilities",
              ...(more.includes(caps) ? { capsSequence: "caps.configSequence" } : {}),
              ...(more.some((r) => r.name === "edTx")
                ? { code: "edTx.validationCode", endorsers: "edTx.endorsers" }
                : {}),
            },
          };
        };

        project.write(written([edTx]));
        let mark = admins.proxy.calls.length;
        let peerMark = admins.org2Proxy.calls.length;
        const refused = await stack.up({ allowFailure: true });
        assert.notEqual(refused.code, 0);
        const reason =
          `has an Ed25519 key, and this identity was refused even a read of channel '${channel}''s configuration ` +
          `(qscc GetChainInfo; Fabric: access denied: channel [${channel}] creator org [Org1MSP]): a Fabric 3 peer ` +
          "answers so when the channel lacks the capability V3_0, whose MSPs refuse Ed25519 identities ('Ed25519 is " +
          "not supported'; or when the certificate is not one of the organization's). Fabric shows an identity it " +
          "refuses nothing of the channel's configuration, and nothing was endorsed or submitted. Use an ECDSA P-256 " +
          "or P-384 identity here, or a Fabric 3 channel with V3_0";
        const text = flat(refused.output);
        const field = text.indexOf("identity.certificatePem");
        assert.ok(field >= 0 && text.indexOf(reason, field) > field, refused.output);
        assert.deepEqual(
          [broadcasts(admins.proxy, mark), callsOf(admins.org2Proxy, GATEWAY.endorse, peerMark)],
          [0, 0],
          "nothing endorsed or ordered",
        );
        assert.equal(callsOf(admins.org2Proxy, GATEWAY.submit, peerMark), 0);

        project.write(written([caps]));
        mark = admins.proxy.calls.length;
        const preview = await stack.preview();
        assert.ok(
          flat(preview.output).includes(
            `ChannelCapabilities caps: channel '${channel}' at config sequence 5 (block 5): capabilities.channel ["V2_0"] → ["V3_0"]. ` +
              "The update modifies [Value] /Channel/Capabilities (mod_policy /Channel/Admins: MAJORITY Admins) approved by Org1MSP, Org2MSP, OrdererMSP",
          ),
          preview.output,
        );
        assert.equal(broadcasts(admins.proxy, mark), 0, "preview sends nothing");
        mark = admins.proxy.calls.length;
        const up = await stack.up();
        assert.deepEqual([out(up)["capsSequence"], broadcasts(admins.proxy, mark)], [6, 1]);
        mark = admins.proxy.calls.length;
        const again = await stack.up();
        assert.deepEqual(
          [
            out(again)["sequence"],
            (out(again)["capabilities"] as { channel: string[] }).channel,
            broadcasts(admins.proxy, mark),
          ],
          [6, ["V3_0"], 0],
        );

        project.write(written([caps, { ...edTx, dependsOn: ["caps"] }]));
        mark = admins.proxy.calls.length;
        peerMark = admins.org2Proxy.calls.length;
        const committed = await stack.up();
        assert.deepEqual(
          [out(committed)["code"], out(committed)["endorsers"], broadcasts(admins.proxy, mark)],
          ["VALID", ["Org2MSP"], 0],
        );
        assert.deepEqual(
          [callsOf(admins.org2Proxy, GATEWAY.endorse, peerMark), callsOf(admins.org2Proxy, GATEWAY.submit, peerMark)],
          [1, 1],
        );
      });

    it("adopts its own update after kill -9 of the whole pulumi up once the orderer accepted it: the next up sends nothing", async () => {
      const size: ProgramResource = {
        name: "size",
        kind: "ChannelBatchSettings",
        args: {
          channel,
          orderer: admins.orderer,
          identity: admins.identities.orderer,
          batchSize: { maxMessageCount: 20 },
        },
        dependsOn: ["batch"],
      };
      const written = program(true, [...org3Resources([admins.identities.org2Hsm]), size]);
      project.write({ ...written, outputs: { ...written.outputs, sizeSequence: "size.configSequence" } });
      const held = admins.proxy.hold(ORDERER.broadcast);
      let cliPid = 0;
      const interrupted = stack.up({
        allowFailure: true,
        onSpawn: (pid) => {
          cliPid = pid;
        },
      });
      const accepted = await held.reached;
      assert.equal(accepted.status, 0, "the orderer accepted the update");
      const killed = killCommand(cliPid, "tree");
      await killed.gone();
      held.release();
      assert.notEqual((await interrupted).code, 0);
      assert.equal((await stack.exportState()).pending_operations?.length ?? 0, 1, "the create in flight is pending");
      await stack.run(["cancel", "--yes"]);
      await stack.refresh({ clearPendingCreates: true });
      const mark = admins.proxy.calls.length;
      const again = await stack.up();
      assert.deepEqual([out(again)["sizeSequence"], broadcasts(admins.proxy, mark)], [6 + raised, 0]);
      assert.equal((out(again)["organizations"] as unknown[]).length, 3, "the rest of the program as it was");
    });

    it("runs examples/channel's README as written, on this channel: the batch timeout read, then changed by one update", async () => {
      const env = fabricUserEnv(pulumiBinDir());
      const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "opsledger-channel-readme-"));
      try {
        const output = await runReadmeCommands("channel", env, tmp, {
          marker: "fabric-up-commands",
          stack: "channel",
          edit: (block) =>
            block
              .replace("NET=/tmp/opsledger-fabric/network.json", `NET=${network.networkFile}`)
              .replace("pulumi config set channel opsledger", `pulumi config set channel ${channel}`)
              .replace("pulumi config set batchTimeout 3s", "pulumi config set batchTimeout 5s"),
        });
        const text = flat(output);
        assert.ok(text.includes(`batchTimeout "${declared}" → "5s"`), output);
        assert.match(
          text,
          new RegExp(`configSequence : ${String(7 + raised)} `),
          "genesis, 3 batch timeouts, Org3, its anchor peers, the capabilities if raised, the batch size, this one",
        );
        assert.match(output, /^\s+2 unchanged$/m);
      } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
      }
    });

    for (const [i, build] of PLUGIN_BUILDS.entries()) {
      const [was, now] = i === 0 ? ["5s", "6s"] : ["6s", "7s"];
      it(`through the plugin's ${build.name} build (a YAML program): the batch timeout changed by one update and read back with getChannelConfig`, async () => {
        const yaml = channelProject({ yamlPluginDir: await build.dir() });
        const yamlStack = await initProjectStack({ projectDir: yaml.dir, env: admins.env });
        const settings = { channel, orderer: admins.orderer, identity: admins.identities.orderer };
        yaml.write({
          resources: [{ name: "yamlBatch", kind: "ChannelBatchSettings", args: { ...settings, batchTimeout: now } }],
          reads: [
            {
              name: "config",
              fn: "getChannelConfig",
              args: { channel, node: admins.orderer, identity: settings.identity },
            },
          ],
          outputs: {
            sequence: "config.sequence",
            timeout: "config.orderer.batchTimeout",
            applied: "yamlBatch.configSequence",
          },
        });
        try {
          let mark = admins.proxy.calls.length;
          const preview = await yamlStack.preview();
          assert.ok(flat(preview.output).includes(`batchTimeout "${was}" → "${now}"`), preview.output);
          assert.equal(broadcasts(admins.proxy, mark), 0, "preview sends nothing");
          mark = admins.proxy.calls.length;
          const up = await yamlStack.up();
          assert.deepEqual([up.outputs["applied"], broadcasts(admins.proxy, mark)], [8 + raised + i, 1]);
          mark = admins.proxy.calls.length;
          const again = await yamlStack.up();
          assert.deepEqual(
            [again.outputs["sequence"], again.outputs["timeout"], broadcasts(admins.proxy, mark)],
            [8 + raised + i, now, 0],
          );
        } finally {
          await yamlStack.dispose();
          yaml.remove();
        }
      });
    }
  });
}
