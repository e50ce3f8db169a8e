/**
 * The Orderer group's values a program may declare, checked as the orderer's channelconfig checks them
 * (common/channelconfig/orderer.go validateBatchSize, validateBatchTimeout) before anything is sent, and the consenter
 * list written where the consensus keeps it: etcdraft in ConsensusType's metadata (its options kept), SmartBFT in the
 * "Orderers" value (ConsensusType untouched).
 */
import { codecs } from "../codec";
import type { ConfigGroup } from "../config-messages";
import type { BatchSizeConfig, OrdererConsenter } from "./channel-config";
import { ChannelConfigError } from "../../errors/ledger/channel-config-error";
import { VALUE, decodeValue, missing } from "./config-tree";
import { checkCertificate } from "./organization-declaration";

const UINT32_MAX = 0xffffffff;
const GO_DURATION = /^(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h))+$/;
const UNIT_MS: Readonly<Record<string, number>> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  μs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
};

/** A Go duration ("2s", "1m30s", "250ms") in milliseconds, or undefined when Go's time.ParseDuration would refuse it. */
export function goDurationMs(text: string): number | undefined {
  if (!GO_DURATION.test(text)) return undefined;
  let total = 0;
  for (const [, amount = "0", unit = "ms"] of text.matchAll(/(\d+(?:\.\d*)?|\.\d+)(ns|us|µs|μs|ms|s|m|h)/g))
    total += Number(amount) * (UNIT_MS[unit] ?? 0);
  return total;
}

/** Throws ChannelConfigError BATCH_TIMEOUT unless `timeout` is a positive Go duration. */
export function checkBatchTimeout(timeout: string, field: string): void {
  const ms = goDurationMs(timeout);
  if (ms === undefined || ms <= 0)
    throw new ChannelConfigError({
      problem: "BATCH_TIMEOUT",
      field,
      message:
        `'${timeout}' is not a positive Go duration; the orderers refuse it ("Attempted to set the batch timeout to a ` +
        "invalid value\"): write e.g. '2s', '500ms' or '1m30s'",
    });
}

/** Throws ChannelConfigError BATCH_SIZE for a batch size the orderers refuse. */
export function checkBatchSize(size: BatchSizeConfig, field: string): void {
  const fail = (at: string, message: string) =>
    new ChannelConfigError({ problem: "BATCH_SIZE", field: `${field}.${at}`, message });
  for (const key of ["maxMessageCount", "absoluteMaxBytes", "preferredMaxBytes"] as const) {
    const n = size[key];
    if (!Number.isInteger(n) || n <= 0 || n > UINT32_MAX)
      throw fail(key, `${String(n)} must be a whole number from 1 to ${String(UINT32_MAX)} (the orderers refuse 0)`);
  }
  if (size.preferredMaxBytes > size.absoluteMaxBytes)
    throw fail(
      "preferredMaxBytes",
      `${String(size.preferredMaxBytes)} is over the absolute maximum, absoluteMaxBytes ${String(size.absoluteMaxBytes)}; ` +
        "the orderers refuse a preferred size greater than the absolute one: lower preferredMaxBytes or raise absoluteMaxBytes",
    );
}

/** Checks each consenter's certificates parse (ChannelConfigError MSP_CERTIFICATE naming the field). */
export function checkConsenters(consenters: readonly OrdererConsenter[]): void {
  consenters.forEach((c, i) => {
    const at = `orderer.consenters[${String(i)}]`;
    checkCertificate(c.clientTlsCert, `${at}.clientTlsCert`, c.mspId, false);
    checkCertificate(c.serverTlsCert, `${at}.serverTlsCert`, c.mspId, false);
    if (c.identity !== undefined) checkCertificate(c.identity, `${at}.identity`, c.mspId, false);
  });
}

const pem = (text: string): Uint8Array => new TextEncoder().encode(text);

/** The values to set on the Orderer group for a declared consenter list. */
export function consensusValues(
  orderer: ConfigGroup,
  consenters: readonly OrdererConsenter[],
  path: string,
): [string, Uint8Array][] {
  const consensus = decodeValue(orderer, VALUE.CONSENSUS_TYPE, codecs.ConsensusType, path);
  if (consensus === undefined) throw missing(path, "ConsensusType value");
  consenters.forEach((c, i) => {
    if (c.host.trim() === "" || !Number.isInteger(c.port) || c.port < 1 || c.port > 65535)
      throw new ChannelConfigError({
        problem: "CONSENTER",
        field: `orderer.consenters[${String(i)}]`,
        organization: c.mspId,
        message: `'${c.host}:${String(c.port)}' needs a host and a port from 1 to 65535`,
      });
  });
  if (consensus.type === "etcdraft") {
    const metadata = codecs.EtcdRaftMetadata.decode(consensus.metadata, { path: `${path}/ConsensusType.metadata` });
    const next = codecs.EtcdRaftMetadata.encode({
      consenters: consenters.map((c) => ({
        host: c.host,
        port: c.port,
        clientTlsCert: pem(c.clientTlsCert),
        serverTlsCert: pem(c.serverTlsCert),
      })),
      ...(metadata.options === undefined ? {} : { options: metadata.options }),
    });
    return [[VALUE.CONSENSUS_TYPE, codecs.ConsensusType.encode({ ...consensus, metadata: next })]];
  }
  if (consensus.type === "BFT") {
    const ids = new Set<number>();
    consenters.forEach((c, i) => {
      if (c.id === undefined || c.mspId === undefined || c.identity === undefined || ids.has(c.id))
        throw new ChannelConfigError({
          problem: "CONSENTER",
          field: `orderer.consenters[${String(i)}]`,
          organization: c.mspId,
          message: "a SmartBFT consenter needs a unique id, its MSP id and its enrolment certificate (identity)",
        });
      ids.add(c.id);
    });
    const mapping = codecs.Orderers.encode({
      consenterMapping: consenters.map((c) => ({
        id: c.id ?? 0,
        host: c.host,
        port: c.port,
        mspId: c.mspId ?? "",
        identity: pem(c.identity ?? ""),
        clientTlsCert: pem(c.clientTlsCert),
        serverTlsCert: pem(c.serverTlsCert),
      })),
    });
    return [[VALUE.ORDERERS, mapping]];
  }
  throw new ChannelConfigError({
    problem: "CONSENTER",
    field: "orderer.consenters",
    message: `the channel's consensus is '${consensus.type}'; consenters can be declared for etcdraft and BFT only`,
  });
}
