/**
 * Turns observations into progress events: one event per change of status or progress, the progress never going
 * backwards (the highest valid value is kept) and out-of-spec values reported instead of shown.
 */
import { progressDecreaseAnomaly, progressRangeAnomaly } from "./anomalies";
import type { ProgressEvent } from "./waiter-options";

/** What the waiter read from one operation: the status as sent and the raw progress value. */
export interface Observation {
  readonly status: string;
  readonly progress?: unknown;
  readonly statusMessage?: string | undefined;
}

export class ProgressTracker {
  private maxProgress: number | undefined;
  private emitted: ProgressEvent | undefined;
  private latest: ProgressEvent | undefined;

  constructor(
    private readonly onProgress: ((event: ProgressEvent) => void) | undefined,
    private readonly warn: (message: string) => void,
  ) {}

  /** The last state seen, with the highest valid progress: for deadline messages. */
  get last(): ProgressEvent | undefined {
    return this.latest;
  }

  observe(observation: Observation, elapsedMs: number): void {
    const raw = observation.progress;
    if (raw !== undefined) {
      const outOfRange = progressRangeAnomaly(raw);
      if (outOfRange !== undefined) {
        this.warn(outOfRange);
      } else if (typeof raw === "number") {
        if (this.maxProgress !== undefined && raw < this.maxProgress) {
          this.warn(progressDecreaseAnomaly(this.maxProgress, raw));
        } else {
          this.maxProgress = raw;
        }
      }
    }
    const event: ProgressEvent = {
      status: observation.status,
      ...(this.maxProgress === undefined ? {} : { progress: this.maxProgress }),
      ...(observation.statusMessage === undefined ? {} : { statusMessage: observation.statusMessage }),
      elapsedMs,
    };
    this.latest = event;
    if (this.emitted?.status === event.status && this.emitted.progress === event.progress) return;
    this.emitted = event;
    this.onProgress?.({ ...event });
  }
}
