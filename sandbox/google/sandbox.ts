/**
 * The library face: `startGoogleSandbox(options)` starts the core behind a node:http server on 127.0.0.1 and
 * returns the handle. Options get their defaults here and nowhere else.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { KeyRing } from "./auth/key-ring";
import { systemClock } from "./clock";
import { SandboxCore } from "./core";
import { DEFAULT_FAULT_SEED } from "./faults";
import { DEFAULT_SEED } from "./fixture";
import { createRequestListener } from "./http-server";
import type { GoogleSandbox, GoogleSandboxOptions } from "./types";

/** How long a firewall policy move runs. */
export const DEFAULT_MOVE_DURATION_MS = 3000;
/** The universe the sandbox serves unless told otherwise: Google's public one. */
export const DEFAULT_SANDBOX_UNIVERSE_DOMAIN = "googleapis.com";
/** How long completed operations stay readable. */
export const DEFAULT_OPERATION_RETENTION_MS = 900_000;

function listen(server: Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve, reject) => {
    server.close((e) => {
      if (e === undefined) resolve();
      else reject(e);
    });
    server.closeAllConnections();
  });
}

export async function startGoogleSandbox(options: GoogleSandboxOptions = {}): Promise<GoogleSandbox> {
  const seed = options.seed ?? DEFAULT_SEED;
  const moveDurationMs = options.moveDurationMs ?? DEFAULT_MOVE_DURATION_MS;
  const operationRetentionMs = options.operationRetentionMs ?? DEFAULT_OPERATION_RETENTION_MS;
  const clock = options.clock ?? systemClock;
  const faultSeed = options.faultSeed ?? DEFAULT_FAULT_SEED;
  const rateQuotas = options.rateQuotas ?? [];
  const universeDomain = options.universeDomain ?? DEFAULT_SANDBOX_UNIVERSE_DOMAIN;
  if (!/^(?:[a-z0-9-]+\.)+[a-z0-9-]+$/.test(universeDomain)) {
    throw new RangeError(`universeDomain '${universeDomain}' must be a lowercase domain name such as googleapis.com`);
  }
  if (!Number.isFinite(moveDurationMs) || moveDurationMs < 0) throw new RangeError("moveDurationMs must be >= 0");
  if (!Number.isFinite(operationRetentionMs) || operationRetentionMs < 0) {
    throw new RangeError("operationRetentionMs must be >= 0");
  }
  const keys = await KeyRing.create(seed.serviceAccounts.map((sa) => sa.email));
  const server = createServer({ keepAlive: true });
  const port = await listen(server, options.port ?? 0);
  const core = new SandboxCore({
    url: `http://127.0.0.1:${port}`,
    seed,
    moveDurationMs,
    operationRetentionMs,
    clock,
    faultSeed,
    keys,
    rateQuotas,
    universeDomain,
  });
  server.on("request", createRequestListener(core));
  let closing: Promise<void> | undefined;
  return {
    url: core.url,
    endpoints: core.endpoints,
    universeDomain,
    mintToken: (request) => core.mintToken(request),
    writeCredentialsFile: (dir, fileOptions) => core.writeCredentialsFile(dir, fileOptions),
    serviceAccountKey: (email) => core.serviceAccountKey(email),
    issueSubjectToken: (subject) => core.issueSubjectToken(subject),
    reset: () => {
      core.reset();
    },
    seed: (next) => {
      core.seed(next);
    },
    audit: () => core.audit(),
    requests: () => core.requests(),
    onRequest: (listener) => core.onRequest(listener),
    setFaults: (rules) => {
      core.setFaults(rules);
    },
    clearFaults: () => {
      core.clearFaults();
    },
    setRateQuotas: (quotas) => {
      core.setRateQuotas(quotas);
    },
    concurrency: () => core.concurrency(),
    setMoveOutcome: (outcome) => {
      core.setMoveOutcome(outcome);
    },
    setParent: (id, parent) => {
      core.setParent(id, parent);
    },
    putInventorySourceGroup: (group) => {
      core.putInventorySourceGroup(group);
    },
    createIamOperation: (request) => {
      core.createIamOperation(request);
    },
    createKmsKeyVersion: (name, algorithm) => core.createKmsKeyVersion(name, algorithm),
    close: () => (closing ??= closeServer(server)),
  };
}
