/**
 * Deprecation warnings, emitted once per process (per version) through the caller's onWarning callback.
 */
import type { DisplayVideoApiVersion } from "./endpoint-types";

/** Google's sunset dates of the Display & Video 360 versions (Google's Display & Video 360 deprecation schedule). */
export const DISPLAY_VIDEO_SUNSET_DATES: Readonly<Partial<Record<DisplayVideoApiVersion, string>>> = {
  v1: "2023-09-14",
  v2: "2024-09-03",
  v3: "2025-10-07",
};

const warned = new Set<string>();

/** The warning text for a sunset DV360 version, or undefined for the current one. */
export function displayVideoDeprecation(version: DisplayVideoApiVersion): string | undefined {
  const sunset = DISPLAY_VIDEO_SUNSET_DATES[version];
  return sunset === undefined
    ? undefined
    : `Display & Video 360 API ${version} is deprecated (sunset ${sunset} per Google); ` +
        `set opsledger:displayVideoApiVersion=v4 (same shapes)`;
}

/** Calls `onWarning` with the version's deprecation the first time this process reports it; later calls do nothing. */
export function warnDisplayVideoVersionOnce(
  version: DisplayVideoApiVersion,
  onWarning: ((message: string) => void) | undefined,
): void {
  const message = displayVideoDeprecation(version);
  // Without a listener nothing is consumed, so a later client that listens still hears about it.
  if (message === undefined || onWarning === undefined || warned.has(version)) return;
  warned.add(version);
  onWarning(message);
}

/** Forgets which warnings were emitted (tests only). */
export function resetDeprecationWarnings(): void {
  warned.clear();
}
