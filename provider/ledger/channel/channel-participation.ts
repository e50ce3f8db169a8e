/**
 * An orderer's channel participation API (Fabric 2.3+, the only way to create a channel in 3.x: no system channel),
 * over HTTPS with mutual TLS on the orderer's admin endpoint, as `osnadmin channel` calls it
 * (orderer/common/channelparticipation/restapi.go): list the channels, one channel's status, join with a
 * configuration block (multipart/form-data, part `config-block`), remove. Joining a channel the orderer already has
 * is adopted (HTTP 405 or 409 with "channel already exists": the orderer's status of it is returned), never an error.
 */
import * as https from "node:https";
import { codecs } from "../codec";
import type { Block } from "../messages";
import { ChannelParticipationError } from "../../errors/ledger/channel-participation-error";

export const PARTICIPATION_PATH = "/participation/v1/channels";

/** How long one request may take by default. */
export const DEFAULT_PARTICIPATION_TIMEOUT_MS = 30_000;

export interface ChannelParticipationOptions {
  /** "host:port" of the orderer's admin endpoint (Admin.ListenAddress). */
  readonly adminAddress: string;
  /** PEM: the admin endpoint's TLS CA, and the client certificate and key its Admin.TLS.ClientRootCAs trust. */
  readonly tls: {
    readonly rootCertificates: string | Uint8Array;
    readonly clientCertificate: string | Uint8Array;
    readonly clientPrivateKey: string | Uint8Array;
    readonly serverNameOverride?: string;
  };
  /** Milliseconds each request may take. @default DEFAULT_PARTICIPATION_TIMEOUT_MS */
  readonly timeoutMs?: () => number;
}

/** The orderer's view of one channel. */
export interface OrdererChannelInfo {
  readonly name: string;
  readonly url: string;
  /** "consenter", "follower", "config-tracker" or "other". */
  readonly consensusRelation: string;
  /** "active", "onboarding", "inactive" or "failed". */
  readonly status: string;
  readonly height: number;
}

interface Answer {
  readonly status: number;
  readonly body: string;
}

function request(
  options: ChannelParticipationOptions,
  method: string,
  path: string,
  body?: { contentType: string; bytes: Buffer },
): Promise<Answer> {
  const colon = options.adminAddress.lastIndexOf(":");
  const host = options.adminAddress.slice(0, colon).replace(/^\[|\]$/g, "");
  const port = Number(options.adminAddress.slice(colon + 1));
  const timeout = options.timeoutMs?.() ?? DEFAULT_PARTICIPATION_TIMEOUT_MS;
  return new Promise<Answer>((resolve, reject) => {
    const req = https.request(
      {
        host,
        port,
        method,
        path,
        ca: Buffer.from(options.tls.rootCertificates),
        cert: Buffer.from(options.tls.clientCertificate),
        key: Buffer.from(options.tls.clientPrivateKey),
        ...(options.tls.serverNameOverride === undefined ? {} : { servername: options.tls.serverNameOverride }),
        headers: {
          Accept: "application/json",
          ...(body === undefined ? {} : { "Content-Type": body.contentType, "Content-Length": body.bytes.length }),
        },
        timeout,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") });
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer within ${String(timeout)} ms`)));
    req.on("error", reject);
    req.end(body?.bytes);
  }).catch((error: unknown) => {
    throw new ChannelParticipationError({
      orderer: options.adminAddress,
      method,
      path,
      status: 0,
      error: error instanceof Error ? error.message : String(error),
      hint:
        "check the admin endpoint's address (Admin.ListenAddress, not the orderer's listen port), its TLS CA, and that " +
        "the client certificate is one its Admin.TLS.ClientRootCAs trust",
      cause: error,
    });
  });
}

function errorText(answer: Answer): string {
  try {
    const parsed = JSON.parse(answer.body) as { error?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    // not JSON: the body as it is
  }
  return answer.body.trim();
}

function refused(
  options: ChannelParticipationOptions,
  method: string,
  path: string,
  answer: Answer,
  hint: string,
): ChannelParticipationError {
  return new ChannelParticipationError({
    orderer: options.adminAddress,
    method,
    path,
    status: answer.status,
    error: errorText(answer),
    hint,
  });
}

/** The application channels the orderer has. */
export async function listOrdererChannels(options: ChannelParticipationOptions): Promise<readonly string[]> {
  const answer = await request(options, "GET", PARTICIPATION_PATH);
  if (answer.status !== 200) throw refused(options, "GET", PARTICIPATION_PATH, answer, "");
  const list = JSON.parse(answer.body) as { channels?: { name: string }[] | null };
  return (list.channels ?? []).map((c) => c.name).sort();
}

/** The orderer's status of a channel, or undefined when it does not have it. */
export async function ordererChannelInfo(
  options: ChannelParticipationOptions,
  channelId: string,
): Promise<OrdererChannelInfo | undefined> {
  const path = `${PARTICIPATION_PATH}/${encodeURIComponent(channelId)}`;
  const answer = await request(options, "GET", path);
  if (answer.status === 404) return undefined;
  if (answer.status !== 200) throw refused(options, "GET", path, answer, "");
  return JSON.parse(answer.body) as OrdererChannelInfo;
}

const ALREADY = /already exists|already joined/i;

/**
 * Joins the orderer to the channel of `block` (a genesis block, or a later configuration block to join an existing
 * channel as a follower). Resolves with the orderer's status of the channel and whether it had it already.
 */
export async function joinOrdererChannel(
  options: ChannelParticipationOptions,
  block: Block,
  channelId: string,
): Promise<{ readonly info: OrdererChannelInfo; readonly alreadyJoined: boolean }> {
  const boundary = `opsledger-${Date.now().toString(16)}${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="config-block"; filename="config.block"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const bytes = Buffer.concat([head, Buffer.from(codecs.Block.encode(block)), Buffer.from(`\r\n--${boundary}--\r\n`)]);
  const answer = await request(options, "POST", PARTICIPATION_PATH, {
    contentType: `multipart/form-data; boundary=${boundary}`,
    bytes,
  });
  if (answer.status === 201) return { info: JSON.parse(answer.body) as OrdererChannelInfo, alreadyJoined: false };
  if ((answer.status === 405 || answer.status === 409) && ALREADY.test(errorText(answer))) {
    const info = await ordererChannelInfo(options, channelId);
    if (info !== undefined) return { info, alreadyJoined: true };
  }
  throw refused(
    options,
    "POST",
    PARTICIPATION_PATH,
    answer,
    answer.status === 400 ? "the orderer found the block invalid as a join block (its words say why)" : "",
  );
}

/** Removes the channel from the orderer; resolves false when it did not have it. */
export async function removeOrdererChannel(options: ChannelParticipationOptions, channelId: string): Promise<boolean> {
  const path = `${PARTICIPATION_PATH}/${encodeURIComponent(channelId)}`;
  const answer = await request(options, "DELETE", path);
  if (answer.status === 204) return true;
  if (answer.status === 404) return false;
  throw refused(options, "DELETE", path, answer, "");
}
