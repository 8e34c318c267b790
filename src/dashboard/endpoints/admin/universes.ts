/**
 * GET /dashboard/api/admin/universes: each stored universe, its members and intervals, its newest
 * bar and whether it is stale — judged as the dashboard's Data panel judges it (web/data-model.ts),
 * from the catalogue `GET /v1/universes` serves.
 */
import type { DashboardHandler } from "../../../http/context.ts";
import { isoTime } from "../../../clock.ts";
import { storeFailure } from "../../../market/store-errors.ts";
import type { LastBar, UniverseListing } from "../../../market/universe-catalogue.ts";
import { freshness } from "../../web/data-model.ts";
import type { DashboardContext } from "../context.ts";

export const adminUniverses =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireAdmin(request, false);
    state.userId = session.userId;
    let universes: UniverseListing[];
    let lastBars: LastBar[];
    try {
      const [list, bars] = await Promise.all([c.d.app.universes.list(), c.d.app.universes.lastBars()]);
      universes = (JSON.parse(list.json) as { universes: UniverseListing[] }).universes;
      lastBars = bars;
    } catch (err) {
      throw storeFailure(err);
    }
    const now = c.d.app.clock.now();
    return c.json(request, state, {
      universes: universes.map((u) => {
        const newest = lastBars.filter((b) => b.universe === u.name).reduce((t, b) => Math.max(t, b.ts), Number.NEGATIVE_INFINITY);
        const f = freshness(u, lastBars, now);
        return {
          name: u.name,
          symbols: u.symbols,
          intervals: u.intervals,
          last_bar: Number.isFinite(newest) ? isoTime(newest) : null,
          stale: f.state === "stale",
          freshness: f.text,
          data_source: u.data_source,
        };
      }),
      checked_at: isoTime(now),
    });
  };
