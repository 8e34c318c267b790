/**
 * The synthetic sample on a fresh PostgreSQL database, with SQLite's rule (README.md § PostgreSQL):
 * loaded when this start's migrations created the schema and the database holds no market data,
 * unless --no-sample. The migrations run under their advisory lock, so of several instances
 * starting together only one applies them all and loads the sample; loadSamplePg re-checks under
 * the market lock besides, so even two that both try load it once.
 */
import type { SQL } from "bun";
import { PG_MIGRATIONS } from "../../../db/pg/migrations.ts";
import type { LoadSampleResult } from "../sample-policy.ts";
import type { MarketStore } from "../store.ts";
import { marketIsEmpty } from "./pg-sample.ts";

/** True when `applied` (what this open's migratePg applied) is every migration: the schema was created now. */
export const createdSchema = (applied: number): boolean => applied > 0 && applied === PG_MIGRATIONS.length;

export async function loadSampleIfFresh(
  sql: SQL,
  store: MarketStore,
  opts: { applied: number; sample: boolean },
): Promise<LoadSampleResult | null> {
  if (!opts.sample || !createdSchema(opts.applied) || !(await marketIsEmpty(sql))) return null;
  return store.loadSample();
}
