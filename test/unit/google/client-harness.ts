/**
 * A Google client over a scripted transport with a recording sleep, a seeded jitter, a fixed clock and counting
 * tokens: what it requested, how long it waited, the retries it reported and the tokens it asked for.
 */
import { createGoogleClient } from "../../../provider/google/client";
import type { GoogleClientOptions } from "../../../provider/google/client";
import type { RetryInfoEvent } from "../../../provider/google/retry";
import { countingTokens, recordingSleep, scriptedAxios, seededRandom, testSettings } from "./helpers";
import type { Scripted } from "./helpers";

const NOW = Date.parse("2026-01-01T00:00:00Z");

export function harness(script: readonly Scripted[], extra: Partial<GoogleClientOptions> = {}) {
  const transport = scriptedAxios(script);
  const sleeper = recordingSleep();
  const retries: RetryInfoEvent[] = [];
  const tokens = countingTokens();
  const client = createGoogleClient({
    settings: testSettings(),
    axios: transport.axios,
    sleep: sleeper.sleep,
    random: seededRandom(7),
    now: () => NOW,
    onRetry: (info) => retries.push(info),
    tokenSource: tokens,
    ...extra,
  });
  return { client, requests: transport.requests, delays: sleeper.delays, retries, tokens };
}
