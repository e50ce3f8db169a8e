/**
 * The one-shot Fabric tools the network is built with, as an administrator runs them: cryptogen, configtxgen, osnadmin
 * (the channel participation API, mutual TLS with the orderer organization's admin certificate) and the peer CLI with
 * an organization admin's identity (channel join, chaincode lifecycle). Each call names its inputs explicitly; the
 * peer CLI reads the target peer's generated core.yaml (FABRIC_CFG_PATH) with CORE_PEER_* on top, as Fabric's docs do.
 */
import { join } from "node:path";
import { runTool } from "./processes";
import type { NodeTls } from "./topology";

export class AdminTools {
  constructor(
    readonly fabricHome: string,
    private readonly logSpec: string = "warning",
  ) {}

  private bin(name: string): string {
    return join(this.fabricHome, "bin", name);
  }

  async cryptogen(config: string, output: string): Promise<void> {
    await runTool([this.bin("cryptogen"), "generate", `--config=${config}`, `--output=${output}`]);
  }

  async configtxgen(configDir: string, profile: string, channel: string, block: string): Promise<void> {
    await runTool(
      [
        this.bin("configtxgen"),
        "-configPath",
        configDir,
        "-profile",
        profile,
        "-channelID",
        channel,
        "-outputBlock",
        block,
      ],
      { env: { FABRIC_LOGGING_SPEC: this.logSpec } },
    );
  }

  private osnadmin(args: readonly string[], adminAddress: string, ca: string, client: NodeTls): Promise<string> {
    return runTool([
      this.bin("osnadmin"),
      ...args,
      "-o",
      adminAddress,
      "--ca-file",
      ca,
      "--client-cert",
      client.cert,
      "--client-key",
      client.key,
    ]).then((r) => r.stdout + r.stderr);
  }

  /** Joins the orderer at `adminAddress` to the channel of `block`. */
  async joinOrderer(adminAddress: string, ca: string, client: NodeTls, channel: string, block: string): Promise<void> {
    await this.osnadmin(["channel", "join", "--channelID", channel, "--config-block", block], adminAddress, ca, client);
  }

  /** The orderer's view of the channel: {status, consensusRelation, height}, from `osnadmin channel list`. */
  async ordererChannel(
    adminAddress: string,
    ca: string,
    client: NodeTls,
    channel: string,
  ): Promise<{ status: string; consensusRelation: string; height: number }> {
    const out = await this.osnadmin(["channel", "list", "--channelID", channel], adminAddress, ca, client);
    const json = out.slice(out.indexOf("{"));
    return JSON.parse(json) as { status: string; consensusRelation: string; height: number };
  }

  /** Runs the peer CLI as an organization's admin against one peer. */
  peer(args: readonly string[], as: PeerAdmin): Promise<string> {
    return runTool([this.bin("peer"), ...args], {
      env: {
        FABRIC_CFG_PATH: as.configDir,
        FABRIC_LOGGING_SPEC: this.logSpec,
        CORE_PEER_LOCALMSPID: as.mspId,
        CORE_PEER_MSPCONFIGPATH: as.mspDir,
        CORE_PEER_ADDRESS: as.peerAddress,
        CORE_PEER_TLS_ENABLED: "true",
        CORE_PEER_TLS_ROOTCERT_FILE: as.peerTlsCa,
        // Read only when the peer's core.yaml requires client certificates (mutual TLS): the admin's TLS pair.
        CORE_PEER_TLS_CLIENTCERT_FILE: as.tls.cert,
        CORE_PEER_TLS_CLIENTKEY_FILE: as.tls.key,
      },
    }).then((r) => r.stdout + r.stderr);
  }
}

/** Who runs a peer CLI command, and against which peer. */
export interface PeerAdmin {
  readonly mspId: string;
  readonly mspDir: string;
  readonly peerAddress: string;
  readonly peerTlsCa: string;
  /** The folder of the peer's core.yaml. */
  readonly configDir: string;
  /** The admin's TLS client certificate and key (presented when the peer requires client certificates). */
  readonly tls: { readonly cert: string; readonly key: string };
}
