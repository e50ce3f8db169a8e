/** examples/read-only: the five data sources (read-only credentials are enough). Ids: see read-all.ts. */
import { readAll } from "./read-all";

export = async (): Promise<Record<string, unknown>> => readAll();
