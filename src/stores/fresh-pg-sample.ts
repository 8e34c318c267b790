/**
 * The synthetic sample on a fresh PostgreSQL database, with SQLite's rule (README.md § PostgreSQL):
 * loaded when this start's migrations created the schema and the database holds no market data,
 * unless --no-sample. The migrations run under their advisory lock, so of several instances
 * starting together only one applies them all and loads the sample; the sample's rule re-checks
 * under the market lock besides, so even two that both try load it once.
 */
import { PG_MIGRATIONS } from "../../db/pg/migrations.ts";
import type { LoadSampleResult } from "../market/sample-policy.ts";
import type { MarketStore } from "../market/store.ts";

/** True when `applied` (what this open's migratePg applied) is every migration: the schema was created now. */
export const createdSchema = (applied: number): boolean => applied > 0 && applied === PG_MIGRATIONS.length;

export async function loadSampleIfFresh(store: MarketStore, opts: { applied: number; sample: boolean }): Promise<LoadSampleResult | null> {
  if (!opts.sample || !createdSchema(opts.applied)) return null;
  if ((await store.listUniverses()).length > 0 || (await store.knownSymbols()).length > 0) return null;
  return store.loadSample();
}
