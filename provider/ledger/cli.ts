/**
 * `opsledger-ledger`: the tool people reach for when a transaction fails.
 *
 *     opsledger-ledger decode <file> [--type <MessageType>]
 *     opsledger-ledger verify <file> [--trusted-ca [MSPID=]<pem file> ...] [--at <ISO time>]
 *
 * <file> holds binary protobuf or its base64 text (for example the ProcessedTransaction output of a
 * LedgerTransaction, or what qscc's GetTransactionByID, GetBlockByNumber and GetChainInfo return). `verify` of a
 * Block verifies each of its endorser transactions next to the code the block records for it. Output is JSON on stdout; transient data is never printed (keys only).
 * Exit codes: 0 success / verified, 1 verification failed, 2 usage, I/O or decoding error.
 */
import { UsageError } from "../errors/ledger/usage-error";
import { promises as fs } from "node:fs";
import type { TrustedMsp } from "./cert-chain";
import { channelConfigView } from "./channel/config-view";
import { codecs } from "./codec";
import type { CodecName } from "./codec";
import { detectMessage, renderMessage } from "./json-view";
import type { DetectedType } from "./json-view";
import type { Envelope } from "./messages";
import { verifySignedTransaction } from "./signed-transaction";
import { validationCodeMeaning, validationCodeName } from "../errors/ledger/validation-codes";
import { VerificationError } from "../errors/ledger/verification-error";
import { verifyTransactionEnvelope } from "./verify";

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly readFile: (path: string) => Promise<Uint8Array>;
}

const DEFAULT_IO: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  readFile: async (path) => new Uint8Array(await fs.readFile(path)),
};

export const USAGE = `usage:
  opsledger-ledger decode <file> [--type <MessageType>]
  opsledger-ledger verify <file> [--trusted-ca [MSPID=]<pem file> ...] [--at <ISO time>]
<file>: binary protobuf or base64 text of a ProcessedTransaction, Envelope, PreparedTransaction,
ProposedTransaction, SignedTransaction, Transaction, Block or BlockchainInfo (qscc GetTransactionByID,
GetBlockByNumber, GetChainInfo); a configuration block, ConfigUpdate, ConfigUpdateEnvelope or CONFIG_UPDATE
envelope (decode adds channelConfig / configUpdate: the readable configuration, or the update's read and write
sets with their values and its signers).
`;

const HEADER_ENDORSER_TRANSACTION = 3;
const BLOCK_METADATA_TRANSACTIONS_FILTER = 2;

interface Parsed {
  readonly command: "decode" | "verify";
  readonly file: string;
  readonly type: string | undefined;
  readonly trustedCas: readonly string[];
  readonly at: string | undefined;
}

function parseArgs(argv: readonly string[]): Parsed {
  const [command, ...rest] = argv;
  if (command !== "decode" && command !== "verify")
    throw new UsageError({ message: `unknown command '${command ?? ""}'` });
  const positional: string[] = [];
  const trustedCas: string[] = [];
  let type: string | undefined;
  let at: string | undefined;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] ?? "";
    const value = (): string => {
      const v = rest[++i];
      if (v === undefined) throw new UsageError({ message: `${arg} needs a value` });
      return v;
    };
    if (arg === "--type") type = value();
    else if (arg === "--trusted-ca") trustedCas.push(value());
    else if (arg === "--at") at = value();
    else if (arg.startsWith("--")) throw new UsageError({ message: `unknown option ${arg}` });
    else positional.push(arg);
  }
  const [file, ...extra] = positional;
  if (file === undefined || extra.length > 0) throw new UsageError({ message: "exactly one <file> is required" });
  if (command === "decode" && trustedCas.length > 0)
    throw new UsageError({ message: "--trusted-ca applies to verify only" });
  return { command, file, type, trustedCas, at };
}

/** The file as binary protobuf, then (when it is base64 text) its decoded form. */
function candidates(raw: Uint8Array): Uint8Array[] {
  const text = Buffer.from(raw).toString("latin1").trim();
  if (text.length > 0 && /^[A-Za-z0-9+/=\s_-]+$/.test(text)) {
    const decoded = Buffer.from(text.replace(/\s+/g, ""), "base64");
    if (decoded.length > 0) return [raw, new Uint8Array(decoded)];
  }
  return [raw];
}

/** Picks the bytes and the message type: the forced --type, or the first detected one. */
function resolve(raw: Uint8Array, forced: string | undefined): { bytes: Uint8Array; type: CodecName } {
  const all = candidates(raw);
  if (forced !== undefined) {
    if (!Object.hasOwn(codecs, forced))
      throw new UsageError({ message: `unknown --type '${forced}' (one of ${Object.keys(codecs).join(", ")})` });
    const type = forced as CodecName;
    const bytes = all.find((b) => {
      try {
        codecs[type].decode(b);
        return true;
      } catch {
        return false;
      }
    });
    return { bytes: bytes ?? raw, type };
  }
  for (const bytes of all) {
    const type = detectMessage(bytes);
    if (type !== undefined) return { bytes, type };
  }
  throw new UsageError({ message: "the file is not a recognizable ledger message; name it with --type <MessageType>" });
}

async function trustedMsps(specs: readonly string[], io: CliIo): Promise<TrustedMsp[]> {
  const byMsp = new Map<string, Uint8Array[]>();
  for (const spec of specs) {
    const eq = spec.indexOf("=");
    const mspId = eq > 0 ? spec.slice(0, eq) : "*";
    const path = eq > 0 ? spec.slice(eq + 1) : spec;
    const list = byMsp.get(mspId) ?? [];
    list.push(await io.readFile(path));
    byMsp.set(mspId, list);
  }
  return [...byMsp].map(([mspId, rootCertificates]) => ({ mspId, rootCertificates }));
}

function envelopeOf(
  type: DetectedType | CodecName,
  bytes: Uint8Array,
): { envelope: Envelope; recorded?: number } | undefined {
  if (type === "Envelope") return { envelope: codecs.Envelope.decode(bytes) };
  if (type === "PreparedTransaction") {
    const env = codecs.PreparedTransaction.decode(bytes).envelope;
    return env === undefined ? undefined : { envelope: env };
  }
  if (type === "ProcessedTransaction") {
    const p = codecs.ProcessedTransaction.decode(bytes);
    return p.transactionEnvelope === undefined
      ? undefined
      : { envelope: p.transactionEnvelope, recorded: p.validationCode };
  }
  return undefined;
}

function failureJson(error: VerificationError): Record<string, unknown> {
  return {
    mismatch: error.mismatch,
    validationCode: error.validationCode,
    validationCodeName: error.validationCodeName,
    meaning: validationCodeMeaning(error.validationCode),
    message: error.message,
    passedChecks: error.passedChecks,
  };
}

async function verify(parsed: Parsed, bytes: Uint8Array, type: CodecName, io: CliIo): Promise<number> {
  const trusted = parsed.trustedCas.length === 0 ? undefined : await trustedMsps(parsed.trustedCas, io);
  const at = parsed.at === undefined ? undefined : new Date(parsed.at);
  if (at !== undefined && Number.isNaN(at.getTime()))
    throw new UsageError({ message: `--at '${parsed.at ?? ""}' is not an ISO time` });
  try {
    if (type === "SignedTransaction") {
      const info = await verifySignedTransaction(bytes);
      io.stdout(
        `${JSON.stringify({ type, ok: true, creatorMspId: info.creatorMspId, actions: info.actionCount }, null, 2)}\n`,
      );
      return 0;
    }
    if (type === "Block") return await verifyBlock(bytes, trusted, at, io);
    const found = envelopeOf(type, bytes);
    if (found === undefined)
      throw new UsageError({
        message: `verify needs an Envelope, PreparedTransaction, ProcessedTransaction, SignedTransaction or Block, not ${type}`,
      });
    const report = await verifyTransactionEnvelope(found.envelope, {
      ...(trusted === undefined ? {} : { trustedMsps: trusted }),
      ...(at === undefined ? {} : { now: () => at }),
      allowUnsigned: type === "PreparedTransaction",
    });
    const recorded =
      found.recorded === undefined
        ? {}
        : { recordedValidationCode: found.recorded, recordedValidationCodeName: validationCodeName(found.recorded) };
    const { response, ...rest } = report;
    const json = {
      type,
      ok: true,
      ...recorded,
      ...rest,
      response: renderMessage("ChaincodeResponse", response as unknown as Record<string, unknown>),
    };
    io.stdout(`${JSON.stringify(json, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2)}\n`);
    return 0;
  } catch (error) {
    if (!(error instanceof VerificationError)) throw error;
    io.stdout(
      `${JSON.stringify({ type, ok: false, transactionId: error.transactionId ?? "", failure: failureJson(error) }, null, 2)}\n`,
    );
    return 1;
  }
}

/**
 * Verifies each endorser transaction of a block as a committer would, next to the code the block records for it
 * (TRANSACTIONS_FILTER); configuration transactions are listed, not verified. Exit 1 when any does not verify.
 */
async function verifyBlock(
  bytes: Uint8Array,
  trusted: TrustedMsp[] | undefined,
  at: Date | undefined,
  io: CliIo,
): Promise<number> {
  const block = codecs.Block.decode(bytes);
  const filter = block.metadata?.metadata[BLOCK_METADATA_TRANSACTIONS_FILTER] ?? new Uint8Array(0);
  const transactions: Record<string, unknown>[] = [];
  for (const [index, data] of (block.data?.data ?? []).entries()) {
    const recorded = filter[index];
    const entry: Record<string, unknown> = {
      index,
      ...(recorded === undefined ? {} : { recordedValidationCodeName: validationCodeName(recorded) }),
    };
    const envelope = codecs.Envelope.decode(data);
    const headerType = channelHeaderType(envelope.payload);
    if (headerType !== HEADER_ENDORSER_TRANSACTION) {
      transactions.push({ ...entry, verified: false, headerType });
      continue;
    }
    try {
      const report = await verifyTransactionEnvelope(envelope, {
        ...(trusted === undefined ? {} : { trustedMsps: trusted }),
        ...(at === undefined ? {} : { now: () => at }),
      });
      transactions.push({ ...entry, transactionId: report.transactionId, verified: true, ok: true });
    } catch (error) {
      if (!(error instanceof VerificationError)) throw error;
      transactions.push({
        ...entry,
        transactionId: error.transactionId ?? "",
        verified: true,
        ok: false,
        failure: failureJson(error),
      });
    }
  }
  const ok = transactions.every((t) => t.ok !== false);
  const json = { type: "Block", ok, number: (block.header?.number ?? 0n).toString(), transactions };
  io.stdout(`${JSON.stringify(json, null, 2)}\n`);
  return ok ? 0 : 1;
}

function channelHeaderType(payloadBytes: Uint8Array): number | undefined {
  try {
    const header = codecs.Payload.decode(payloadBytes).header;
    return header === undefined ? undefined : codecs.ChannelHeader.decode(header.channelHeader).type;
  } catch {
    return undefined;
  }
}

/**
 * Runs the CLI; resolves with the exit code of a verification, rejects with what stopped it (UsageError, a
 * LedgerDecodeError, ...): `main` prints that. Exported for the fuzz targets, which check what it rejects with.
 */
export async function runCli(argv: readonly string[], io: CliIo = DEFAULT_IO): Promise<number> {
  if (argv.length === 0 || argv[0] === "--help" || argv[0] === "-h") {
    io.stdout(USAGE);
    return argv.length === 0 ? 2 : 0;
  }
  const parsed = parseArgs(argv);
  const { bytes, type } = resolve(await io.readFile(parsed.file), parsed.type);
  if (parsed.command === "verify") return await verify(parsed, bytes, type, io);
  const message = codecs[type].decode(bytes) as unknown as Record<string, unknown>;
  const readable = channelConfigView(type, bytes) ?? {};
  const json = { type, ...readable, message: renderMessage(type, message) };
  io.stdout(`${JSON.stringify(json, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v), 2)}\n`);
  return 0;
}

/** Runs the CLI; resolves with the exit code. Never prints key material or transient values. */
export async function main(argv: readonly string[], io: CliIo = DEFAULT_IO): Promise<number> {
  try {
    return await runCli(argv, io);
  } catch (error) {
    const text = error instanceof Error ? error.message : String(error);
    io.stderr(`opsledger-ledger: ${text}\n${error instanceof UsageError ? USAGE : ""}`);
    return 2;
  }
}
