/**
 * ledger.Channel: a channel created from a declared configuration — its genesis block built as configtxgen builds one
 * (provider/ledger/channel/genesis-block.ts) and joined to each orderer through its channel participation API over
 * mutual TLS (`osnadmin channel join`; Fabric 2.3+ and 3.x have no system channel). An orderer that has the channel
 * already is adopted. The genesis block is the same bytes on every run of the same resource (its nonce derived from
 * the URN and the channel, its time the Unix epoch: orderers and peers validate neither), so a retry after a killed
 * `pulumi up` joins the orderers it had not joined with the block the others have. The declaration is the genesis
 * only: once the channel exists, its configuration changes through the resources that own its parts
 * (ChannelOrganization, ChannelAnchorPeers, ChannelCapabilities, ChannelBatchSettings), and a changed declaration is
 * refused naming them. Destroying it sends nothing (removing a channel from its orderers destroys its ledger: do it
 * with `osnadmin channel remove` if you mean it).
 */
import * as crypto from "node:crypto";
import type * as dynamic from "@pulumi/pulumi/dynamic";
import { LedgerError } from "../../../errors";
import type { FieldFailure } from "../../../errors";
import { ChannelConfigError } from "../../../errors/ledger/channel-config-error";
import { codecs } from "../../../ledger";
import type { OrganizationDeclaration } from "../../../ledger/channel/organization-declaration";
import {
  buildChannelConfig,
  DEFAULT_BATCH_SIZE,
  DEFAULT_ETCDRAFT_OPTIONS,
  genesisBlock,
} from "../../../ledger/channel/genesis-block";
import type { ChannelDeclaration } from "../../../ledger/channel/genesis-block";
import { joinOrdererChannel, ordererChannelInfo } from "../../../ledger/channel/channel-participation";
import type { SmartBftOptions } from "../../../ledger/config-messages";
import type { Block } from "../../../ledger/messages";
import { log, status } from "../../../runtime/context";
import { checkTimeouts, nameFromUrn, timeoutMs } from "../../common";
import { canonical, hasUnknown, isRecord } from "../ledger-values";
import { nodeClientKey, nodeFailures, nodeOutputs, ordererAdminField, participationOf } from "./channel-nodes";
import type {
  ChannelNode,
  ChannelOrdererCredentials,
  ChannelOrdererStatus,
  ChannelOrganizationDeclaration,
  ChannelShape,
  ChannelSmartBftOptions,
} from "./channel-shapes";

/** The inputs as the provider gets them. */
export interface ChannelInputs extends ChannelShape {
  __urn: string;
}

/** The outputs: the declaration, the orderers by reference (their keys only under `credentials`), what was joined. */
export interface ChannelOutputs extends Omit<ChannelInputs, "orderers"> {
  orderers: Omit<ChannelNode, "clientKeyPem">[];
  /** Only ever a Pulumi secret: each orderer's client TLS key given as a value (in `orderers`' order). */
  credentials: ChannelOrdererCredentials;
  /** The genesis block every orderer has, base64 (what a ChannelPeer joins a peer with). */
  genesisBlock: string;
  joined: ChannelOrdererStatus[];
}

/** The inputs that make the genesis block: fixed once the channel exists. */
const GENESIS_KEYS = ["channel", "fabricVersion", "capabilities", "policies", "orderer", "application"] as const;

/** The first pause before asking an orderer again whether its channel is active, then doubled. */
const ACTIVE_POLL_MS = 250;
const ACTIVE_POLL_MAX_MS = 2_000;

const BIGINT_OPTIONS = [
  "requestBatchMaxCount",
  "requestBatchMaxBytes",
  "incomingMessageBufferSize",
  "requestPoolSize",
  "requestMaxBytes",
  "leaderHeartbeatCount",
  "decisionsPerLeader",
] as const;

function smartBft(o: ChannelSmartBftOptions): Partial<SmartBftOptions> {
  const out: Record<string, unknown> = { ...o };
  for (const k of BIGINT_OPTIONS) if (o[k] !== undefined) out[k] = BigInt(o[k]);
  return out;
}

const organizationOf = (o: ChannelOrganizationDeclaration): OrganizationDeclaration => ({ ...o });

/** The channel library's declaration of the inputs (configtxgen's defaults for what they leave out). */
export function declarationOf(i: ChannelShape): ChannelDeclaration {
  const o = i.orderer;
  return {
    channelId: i.channel,
    ...(i.fabricVersion === undefined ? {} : { fabricVersion: i.fabricVersion }),
    capabilities: i.capabilities,
    ...(i.policies === undefined ? {} : { policies: i.policies }),
    orderer: {
      consensus: o.consensus,
      organizations: o.organizations.map(organizationOf),
      consenters: o.consenters,
      ...(o.batchTimeout === undefined ? {} : { batchTimeout: o.batchTimeout }),
      batchSize: { ...DEFAULT_BATCH_SIZE, ...o.batchSize },
      ...(o.consensus === "etcdraft" ? { etcdRaftOptions: { ...DEFAULT_ETCDRAFT_OPTIONS, ...o.etcdRaftOptions } } : {}),
      ...(o.smartBftOptions === undefined ? {} : { smartBftOptions: smartBft(o.smartBftOptions) }),
      ...(o.policies === undefined ? {} : { policies: o.policies }),
      ...(o.addresses === undefined ? {} : { addresses: o.addresses }),
    },
    application: {
      organizations: i.application.organizations.map(organizationOf),
      ...(i.application.policies === undefined ? {} : { policies: i.application.policies }),
      ...(i.application.acls === undefined ? {} : { acls: i.application.acls }),
    },
  };
}

/** The genesis block of the inputs, the same bytes on every run of this resource (see the module comment). */
export function channelGenesisBlock(i: ChannelInputs): Block {
  const nonce = crypto
    .createHash("sha256")
    .update(`opsledger:ledger:Channel\0${i.__urn}\0${i.channel}`)
    .digest()
    .subarray(0, 24);
  return genesisBlock(i.channel, buildChannelConfig(declarationOf(i)), () => new Date(0), new Uint8Array(nonce));
}

function shapeFailures(n: Readonly<Record<string, unknown>>): FieldFailure[] {
  const failures: FieldFailure[] = [];
  const caps = n["capabilities"];
  if (
    !hasUnknown(caps) &&
    (!isRecord(caps) || ["channel", "orderer", "application"].some((l) => !Array.isArray(caps[l])))
  )
    failures.push({
      property: "capabilities",
      reason: "is required: { channel: [...], orderer: [...], application: [...] }",
    });
  const o = n["orderer"];
  if (!hasUnknown(o)) {
    if (!isRecord(o))
      failures.push({ property: "orderer", reason: "is required: { consensus, organizations, consenters, ... }" });
    else {
      if (o["consensus"] !== "etcdraft" && o["consensus"] !== "BFT" && !hasUnknown(o["consensus"]))
        failures.push({ property: "orderer.consensus", reason: "must be 'etcdraft' or 'BFT'" });
      for (const k of ["organizations", "consenters"])
        if (!hasUnknown(o[k]) && !Array.isArray(o[k]))
          failures.push({ property: `orderer.${k}`, reason: "must be a list" });
    }
  }
  const a = n["application"];
  if (!hasUnknown(a) && (!isRecord(a) || (!hasUnknown(a["organizations"]) && !Array.isArray(a["organizations"]))))
    failures.push({ property: "application", reason: "is required: { organizations: [...], policies?, acls? }" });
  const orderers = n["orderers"];
  if (!hasUnknown(orderers)) {
    if (!Array.isArray(orderers) || orderers.length === 0)
      failures.push({ property: "orderers", reason: "must list at least one orderer's admin endpoint to join" });
    else orderers.forEach((node, i) => failures.push(...nodeFailures(node, ordererAdminField(i))));
  }
  failures.push(...checkTimeouts(n["timeouts"]));
  return failures;
}

/** The input a library field names: its organizations by index in the program's lists, not by MSP id. */
function inputFieldOf(field: string, i: ChannelShape): string {
  if (field === "channelId") return "channel";
  return field.replace(/^(orderer|application)\.organizations\[([^\]]+)\]/, (whole, side: string, id: string) => {
    const index = (side === "orderer" ? i.orderer : i.application).organizations.findIndex((o) => o.mspId === id);
    return index < 0 ? whole : `${side}.organizations[${String(index)}]`;
  });
}

/** Every bad input, as failures naming the field and the fix; nothing read or sent. */
function channelFailures(news: ChannelInputs, olds: Partial<ChannelInputs>): FieldFailure[] {
  const n = news as unknown as Record<string, unknown>;
  const failures = shapeFailures(n);
  if (failures.length > 0 || hasUnknown(GENESIS_KEYS.map((k) => n[k]))) return failures;
  try {
    buildChannelConfig(declarationOf(news));
  } catch (error) {
    if (!(error instanceof ChannelConfigError)) throw error;
    const reason = error.message.startsWith(`${error.field}: `)
      ? error.message.slice(error.field.length + 2)
      : error.message;
    return [{ property: inputFieldOf(error.field, news), reason }];
  }
  const o = olds as Record<string, unknown>;
  if (olds.channel === news.channel && olds.orderers !== undefined)
    for (const key of GENESIS_KEYS)
      if (canonical(o[key]) !== canonical(n[key]))
        return [
          {
            property: key,
            reason:
              `channel '${news.channel}' exists: its declaration is its genesis and stays as it was; change its ` +
              "configuration with ledger.ChannelOrganization, ChannelAnchorPeers, ChannelCapabilities or " +
              "ChannelBatchSettings, and keep this declaration as it was",
          },
        ];
  for (const [i, node] of news.orderers.entries()) {
    const key = nodeClientKey(node, ordererAdminField(i));
    if ("failures" in key) failures.push(...key.failures);
  }
  return failures;
}

/** Waits, bounded by `deadline`, until the orderer says the channel is active there. */
async function awaitActive(node: ChannelNode, key: string | undefined, channel: string, deadline: number) {
  const options = participationOf(node, key);
  for (let pause = ACTIVE_POLL_MS; ; pause = Math.min(pause * 2, ACTIVE_POLL_MAX_MS)) {
    const info = await ordererChannelInfo(options, channel);
    if (info?.status === "active") return info;
    if (Date.now() + pause > deadline)
      throw new LedgerError({
        message: `orderer ${node.address} has channel '${channel}' ${info === undefined ? "not at all" : `in status '${info.status}'`}, not active, at the deadline`,
      });
    await new Promise((resolve) => setTimeout(resolve, pause));
  }
}

/** Joins every orderer not joined yet, and waits until each says the channel is active. */
async function joinOrderers(i: ChannelInputs, step: "create" | "update"): Promise<ChannelOrdererStatus[]> {
  const subject = `Channel ${nameFromUrn(i.__urn)}`;
  const block = channelGenesisBlock(i);
  const deadline = Date.now() + timeoutMs(i.timeouts, step);
  const joined: ChannelOrdererStatus[] = [];
  for (const [n, node] of i.orderers.entries()) {
    const key = nodeClientKey(node, ordererAdminField(n));
    if ("failures" in key)
      throw new LedgerError({
        message: `${subject}: ${key.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
      });
    status(i.__urn, `${subject}: joining orderer ${node.address} to channel '${i.channel}'`);
    const result = await joinOrdererChannel(participationOf(node, key.key), block, i.channel);
    const info = await awaitActive(node, key.key, i.channel, deadline);
    if (result.alreadyJoined)
      log("info", `${subject}: orderer ${node.address} had channel '${i.channel}' already: adopted`, i.__urn);
    joined.push({
      address: node.address,
      consensusRelation: info.consensusRelation,
      status: info.status,
      alreadyJoined: result.alreadyJoined,
    });
  }
  return joined;
}

function outputsOf(i: ChannelInputs, joined: ChannelOrdererStatus[]): ChannelOutputs {
  const keys = i.orderers.map((o) => o.clientKeyPem ?? "");
  return {
    ...i,
    orderers: i.orderers.map(nodeOutputs),
    credentials: keys.some((k) => k !== "") ? { orderers: keys } : {},
    genesisBlock: Buffer.from(codecs.Block.encode(channelGenesisBlock(i))).toString("base64"),
    joined,
  };
}

function inputsOf(o: ChannelOutputs): ChannelInputs {
  const { credentials, genesisBlock: _g, joined: _j, ...rest } = o;
  return {
    ...rest,
    orderers: o.orderers.map((node, i) => {
      const key = credentials.orderers?.[i];
      return key === undefined || key === "" ? node : { ...node, clientKeyPem: key };
    }),
  };
}

export const channelProvider = {
  check(olds: Partial<ChannelInputs>, news: ChannelInputs): Promise<dynamic.CheckResult> {
    const failures = channelFailures(news, olds);
    return Promise.resolve(failures.length > 0 ? { failures } : { inputs: news });
  },
  diff(_id: string, olds: ChannelOutputs, news: ChannelInputs): Promise<dynamic.DiffResult> {
    const before = inputsOf(olds);
    const replaces = canonical(olds.channel) !== canonical(news.channel) ? ["channel"] : [];
    const changes =
      replaces.length > 0 ||
      canonical(olds.orderers) !== canonical(news.orderers.map(nodeOutputs)) ||
      canonical(before.orderers) !== canonical(news.orderers) ||
      canonical(olds.timeouts) !== canonical(news.timeouts);
    return Promise.resolve({ changes, replaces, deleteBeforeReplace: false });
  },
  async create(inputs: ChannelInputs): Promise<dynamic.CreateResult> {
    return { id: inputs.channel, outs: outputsOf(inputs, await joinOrderers(inputs, "create")) };
  },
  async update(_id: string, _olds: ChannelOutputs, news: ChannelInputs): Promise<dynamic.UpdateResult> {
    return { outs: outputsOf(news, await joinOrderers(news, "update")) };
  },
  async read(id: string, props: ChannelOutputs): Promise<dynamic.ReadResult> {
    const inputs = inputsOf(props);
    const joined: ChannelOrdererStatus[] = [];
    for (const [n, node] of inputs.orderers.entries()) {
      const key = nodeClientKey(node, ordererAdminField(n));
      if ("failures" in key)
        throw new LedgerError({
          message: `Channel ${nameFromUrn(props.__urn)}: ${key.failures.map((f) => `${f.property} ${f.reason}`).join("; ")}`,
        });
      const info = await ordererChannelInfo(participationOf(node, key.key), inputs.channel);
      if (info !== undefined)
        joined.push({
          address: node.address,
          consensusRelation: info.consensusRelation,
          status: info.status,
          alreadyJoined: props.joined.find((j) => j.address === node.address)?.alreadyJoined ?? false,
        });
    }
    if (joined.length === 0) return { id: "" };
    return { id, props: { ...props, joined } };
  },
  delete(_id: string, props: ChannelOutputs): Promise<void> {
    log(
      "info",
      `Channel ${nameFromUrn(props.__urn)}: channel '${props.channel}' stays on its orderers and peers (removing it destroys its ledger: \`osnadmin channel remove\` does that); nothing was sent`,
      props.__urn,
    );
    return Promise.resolve();
  },
};
