/** Opening the SQLite file: the synthetic sample is loaded when this open creates it. */
import { openDatabase, type OpenedDb } from "../../db/sqlite/open.ts";
import type { Config } from "../config.ts";
import type { Logger } from "../logger.ts";
import { loadSample } from "../market/index.ts";
import type { LoadSampleResult } from "../market/sample-policy.ts";

/** The server's lock wait: short, because a wait blocks the event loop (see db/sqlite/open.ts). */
export const SERVER_BUSY_TIMEOUT_MS = 1000;

/** Opens the database (loading the sample when it creates the file); returns it and the sample it loaded, if any. */
export function prepareDatabase(
  config: Config,
  logger: Logger,
  busyTimeoutMs?: number,
): { opened: OpenedDb; sample: LoadSampleResult | null } {
  const opened = openDatabase(config.db, { busyTimeoutMs });
  if (!opened.created || !config.sample) return { opened, sample: null };
  const t0 = performance.now();
  const sample = loadSample(opened);
  logger.info({ ...sample, ms: Math.round(performance.now() - t0) }, "loaded the synthetic sample universe");
  return { opened, sample };
}
