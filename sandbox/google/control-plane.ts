/**
 * The HTTP control plane under /_sandbox/, mirroring the library handle. It needs no authentication: the sandbox
 * listens on 127.0.0.1 only and is a test fixture. Bad input is a 400 INVALID_ARGUMENT in Google's error shape.
 */
import { KMS_ALGORITHMS } from "./types";
import type { KmsAlgorithm } from "./types";
import type { SandboxCore } from "./core";
import { googleError, invalidField, notFound } from "./google-errors";
import { ok, type RouteResult } from "./results";
import { SandboxInputError } from "./sandbox-input-error";
import { parseSeed } from "./seed-parse";
import type {
  CreateIamOperationRequest,
  FaultRule,
  MintTokenRequest,
  MoveOutcome,
  PutInventorySourceGroupRequest,
  RateQuota,
} from "./types";

function parseJson(body: string): unknown {
  if (body.trim() === "") return {};
  try {
    return JSON.parse(body) as unknown;
  } catch {
    throw new SandboxInputError({ operation: "control plane", message: "the request body is not valid JSON" });
  }
}

function asObject(value: unknown, operation: string): Readonly<Record<string, unknown>> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new SandboxInputError({ operation, message: "the request body must be a JSON object" });
  }
  return value as Record<string, unknown>;
}

function faultRules(value: unknown): readonly FaultRule[] {
  const rules = Array.isArray(value) ? value : asObject(value, "setFaults")["rules"];
  if (!Array.isArray(rules)) {
    throw new SandboxInputError({ operation: "setFaults", message: "send a list of rules or {rules: [...]}" });
  }
  return rules as FaultRule[];
}

function rateQuotas(value: unknown): readonly RateQuota[] {
  const quotas = Array.isArray(value) ? value : asObject(value, "setRateQuotas")["quotas"];
  if (!Array.isArray(quotas)) {
    throw new SandboxInputError({ operation: "setRateQuotas", message: "send a list of quotas or {quotas: [...]}" });
  }
  return quotas as RateQuota[];
}

/**
 * Bodies are cast to the handle's request types after the object check: the core checks every field at run time
 * (it is the same code path as the library handle, which JavaScript callers can reach with anything).
 */
function dispatch(core: SandboxCore, method: string, path: string, body: string): RouteResult {
  const route = `${method} ${path}`;
  switch (route) {
    case "GET health":
      return ok({ status: "ok", url: core.url, endpoints: core.endpoints });
    case "POST reset":
      core.reset();
      return ok({});
    case "POST seed":
      core.seed(parseSeed(parseJson(body)));
      return ok({});
    case "GET audit":
      return ok({ entries: core.audit() });
    case "GET requests":
      return ok({ entries: core.requests() });
    case "POST faults":
      core.setFaults(faultRules(parseJson(body)));
      return ok({});
    case "DELETE faults":
      core.clearFaults();
      return ok({});
    case "POST rate-quotas":
      core.setRateQuotas(rateQuotas(parseJson(body)));
      return ok({});
    case "GET concurrency":
      return ok(core.concurrency());
    case "POST tokens": {
      const request = asObject(parseJson(body), "mintToken") as unknown as MintTokenRequest;
      const lifetime = request.lifetimeSeconds ?? 3600;
      return ok({ access_token: core.mintToken(request), expires_in: lifetime, token_type: "Bearer" });
    }
    case "POST move-outcome":
      core.setMoveOutcome(asObject(parseJson(body), "setMoveOutcome") as unknown as MoveOutcome);
      return ok({});
    case "POST inventory-source-groups":
      core.putInventorySourceGroup(
        asObject(parseJson(body), "putInventorySourceGroup") as unknown as PutInventorySourceGroupRequest,
      );
      return ok({});
    case "POST iam-operations":
      core.createIamOperation(asObject(parseJson(body), "createIamOperation") as unknown as CreateIamOperationRequest);
      return ok({});
  }
  const setParent = /^POST firewall-policies\/([^/]+):setParent$/.exec(route);
  if (setParent !== null) {
    const parent = asObject(parseJson(body), "setParent")["parent"];
    if (typeof parent !== "string") return invalidField("parent", "setParent: 'parent' must be a string");
    core.setParent(decodeURIComponent(setParent[1] ?? ""), parent);
    return ok({});
  }
  if (route === "POST kms-key-versions") {
    const request = asObject(parseJson(body), "createKmsKeyVersion");
    const name = request["name"];
    if (typeof name !== "string") return invalidField("name", "createKmsKeyVersion: 'name' must be a string");
    const algorithm = request["algorithm"] ?? "EC_SIGN_P256_SHA256";
    if (typeof algorithm !== "string" || !KMS_ALGORITHMS.includes(algorithm as KmsAlgorithm)) {
      return invalidField("algorithm", `createKmsKeyVersion: 'algorithm' must be one of ${KMS_ALGORITHMS.join(", ")}`);
    }
    return ok({ name, pem: core.createKmsKeyVersion(name, algorithm as KmsAlgorithm) });
  }
  const key = /^GET service-accounts\/([^/]+)\/key$/.exec(route);
  if (key !== null) return ok(core.serviceAccountKey(decodeURIComponent(key[1] ?? "")));
  return notFound(`The sandbox control plane has no route ${method} /_sandbox/${path}.`);
}

/** Answers a request under /_sandbox/. */
export function handleControlPlane(core: SandboxCore, method: string, url: URL, body: string): RouteResult {
  const path = url.pathname.replace(/^\/_sandbox\/?/, "");
  try {
    return dispatch(core, method, path, body);
  } catch (e) {
    if (e instanceof SandboxInputError) return invalidField("", e.message);
    if (e instanceof URIError) return invalidField("", "Invalid percent-encoding in the URL path.");
    const detail = e instanceof Error ? e.message : String(e);
    return googleError({ httpStatus: 500, message: `Internal error encountered (${detail}).`, reason: "backendError" });
  }
}
