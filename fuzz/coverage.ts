/**
 * Coverage feedback from V8 itself: block coverage (the Profiler domain's precise coverage, count mode, as
 * `node --experimental-test-coverage` and c8 use) read through node:inspector after every execution. Each block of
 * provider/ with its hit count rounded to a power-of-two bucket (as AFL and libFuzzer do) is a feature; an input that
 * shows a feature never seen before joins the corpus.
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

/** Block coverage of the scripts whose URL contains `scope`, fed back per execution. */
export class BlockCoverage {
  readonly #session = new Session();
  readonly #scope: string;
  /** Block key → the highest count bucket seen. */
  readonly #features = new Map<string, number>();
  /** Block key (url:start-end) → covered at least once. */
  readonly #blocks = new Map<string, boolean>();

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
   * Reads (and resets) the counts since the last call; true when they show a new feature. With `record` false the
   * features are only compared (a batch is checked, then its inputs are run again one by one and recorded).
   */
  collect(record: boolean): boolean {
    const { result } = this.#post("Profiler.takePreciseCoverage") as { result: ScriptCoverage[] };
    let novel = false;
    for (const script of result) {
      // The decoders are generated code (new Function in wire-schema.ts): V8 reports them with an empty URL.
      if (script.url !== "" && !script.url.includes(this.#scope)) continue;
      for (const fn of script.functions)
        for (const r of fn.ranges) {
          const key = `${script.url}:${String(r.startOffset)}-${String(r.endOffset)}`;
          if (r.count === 0) {
            if (!this.#blocks.has(key)) this.#blocks.set(key, false);
            continue;
          }
          const bucket = r.count >= 128 ? 8 : 32 - Math.clz32(r.count);
          if ((this.#features.get(key) ?? 0) < bucket) {
            novel = true;
            if (!record) return true;
            this.#features.set(key, bucket);
            this.#blocks.set(key, true);
          }
        }
    }
    return novel;
  }

  /** Blocks covered and blocks known (V8 reports a function's blocks once it has run) per script file name. */
  summary(files: readonly string[]): { covered: number; known: number } {
    let covered = 0;
    let known = 0;
    for (const [key, hit] of this.#blocks) {
      const url = key.slice(0, key.lastIndexOf(":"));
      const generated = url === "" && files.includes(GENERATED);
      if (!generated && !files.some((f) => url.endsWith(`/${f.replace(/\.ts$/, ".js")}`))) continue;
      known++;
      if (hit) covered++;
    }
    return { covered, known };
  }

  get features(): number {
    return this.#features.size;
  }

  close(): void {
    this.#session.disconnect();
  }
}
