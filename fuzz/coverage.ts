/**
 * Coverage feedback from V8 itself: block coverage (the Profiler domain's precise coverage, count mode, as
 * `node --experimental-test-coverage` and c8 use) read through node:inspector. An input that shows a feature never
 * seen before joins the corpus.
 */
import { Session } from "node:inspector";

interface Range {
  readonly startOffset: number;
  readonly endOffset: number;
  readonly count: number;
}
interface ScriptCoverage {
  readonly url: string;
  readonly functions: readonly { readonly ranges: readonly Range[] }[];
}

/** The module name standing for the generated decoders and encoders (scripts without a URL). */
export const GENERATED = "<generated>";

/**
 * Coverage of the scripts whose URL contains `scope` (and of generated code), fed back per execution.
 *
 * V8 merges a block into its parent when their counts are equal, so the ranges it reports for one input differ from
 * those for several: a block is identified by its source positions instead. A position is covered when a function
 * containing it ran and no range with count 0 (a block not taken) holds it; the features are the covered positions
 * and each function's call count in power-of-two buckets (as AFL and libFuzzer bucket hit counts).
 */
export class BlockCoverage {
  readonly #session = new Session();
  readonly #scope: string;
  /** Per script URL: 1 for each source position covered so far. */
  readonly #covered = new Map<string, Uint8Array>();
  /** Per script URL: the end of the last function V8 reported in it (its length once the module's wrapper is seen). */
  readonly #lengths = new Map<string, number>();
  /** Function (url:start) → the highest call-count bucket seen. */
  readonly #calls = new Map<string, number>();

  constructor(scope: string) {
    this.#scope = scope;
    this.#session.connect();
    this.#post("Profiler.enable");
    this.#post("Profiler.startPreciseCoverage", { callCount: true, detailed: true });
  }

  #post(method: string, params?: object): unknown {
    const answer: { result?: unknown; failure?: Error } = {};
    // node:inspector answers a same-thread session synchronously: the callback has run when post returns.
    this.#session.post(method, params, (error, value) => {
      if (error !== null) answer.failure = error;
      answer.result = value;
    });
    if (answer.failure !== undefined) throw answer.failure;
    return answer.result;
  }

  /**
   * Reads (and resets) the counts since the last call; true when they show a new feature. With `record` false (a
   * batch of inputs) only a position never covered counts and nothing is recorded: the batch's inputs are then run
   * again one by one and recorded with their own counts.
   */
  collect(record: boolean): boolean {
    const { result } = this.#post("Profiler.takePreciseCoverage") as { result: ScriptCoverage[] };
    let novel = false;
    for (const script of result) {
      // The decoders are generated code (new Function in wire-schema.ts): V8 reports them with an empty URL.
      if (script.url !== "" && !script.url.includes(this.#scope)) continue;
      for (const fn of script.functions) {
        const [whole, ...blocks] = fn.ranges;
        if (whole === undefined) continue;
        this.#lengths.set(script.url, Math.max(this.#lengths.get(script.url) ?? 0, whole.endOffset));
        if (whole.count === 0) continue;
        let map = this.#covered.get(script.url);
        if (map === undefined || map.length < whole.endOffset) {
          const grown = new Uint8Array(whole.endOffset);
          if (map !== undefined) grown.set(map);
          map = grown;
          this.#covered.set(script.url, map);
        }
        const skipped = blocks.filter((b) => b.count === 0);
        let next = 0;
        for (let pos = whole.startOffset; pos < whole.endOffset; pos++) {
          const gap = skipped[next];
          if (gap !== undefined && pos >= gap.startOffset) {
            pos = gap.endOffset - 1;
            next++;
            while ((skipped[next]?.endOffset ?? Infinity) <= pos + 1) next++;
            continue;
          }
          if (map[pos] === 0) {
            if (!record) return true;
            map[pos] = 1;
            novel = true;
          }
        }
        if (!record) continue;
        const key = `${script.url}:${String(whole.startOffset)}`;
        const bucket = whole.count >= 128 ? 8 : 32 - Math.clz32(whole.count);
        if ((this.#calls.get(key) ?? 0) < bucket) {
          this.#calls.set(key, bucket);
          novel = true;
        }
      }
    }
    return novel;
  }

  /** Source characters covered, and the length of the scripts, of the named files ("<generated>": generated code). */
  summary(files: readonly string[]): { covered: number; known: number } {
    let covered = 0;
    let known = 0;
    for (const [url, length] of this.#lengths) {
      const generated = url === "" && files.includes(GENERATED);
      if (!generated && !files.some((f) => url.endsWith(`/${f.replace(/\.ts$/, ".js")}`))) continue;
      known += length;
      for (const bit of this.#covered.get(url) ?? []) covered += bit;
    }
    return { covered, known };
  }

  /** Distinct features seen: covered positions and call-count buckets. */
  get features(): number {
    let n = this.#calls.size;
    for (const map of this.#covered.values()) for (const bit of map) n += bit;
    return n;
  }

  close(): void {
    this.#session.disconnect();
  }
}
