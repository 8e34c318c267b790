/**
 * GET /dashboard/api/universes and /dashboard/api/universes/:name: the Data panel's reads, for the
 * signed-in session. They answer from the very catalogue `GET /v1/universes` serves (AppDeps'
 * UniverseCatalogue, held in memory per data version), so the panel and the API cannot disagree;
 * the list adds each universe's newest bar time (as /metrics reports it) and the server's clock,
 * from which the page tells each universe's freshness. Read-only, so no CSRF token; not metered.
 */
import type { DashboardHandler } from "../../http/context.ts";
import { RawJson } from "../../http/envelope.ts";
import { HttpError } from "../../http/http-error.ts";
import { storeFailure } from "../../market/store-errors.ts";
import { isValidUniverseName } from "../../market/symbols.ts";
import type { DashboardContext } from "./context.ts";

export const dataUniverses =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireSession(request);
    state.userId = session.userId;
    const catalogue = c.d.app.universes;
    let list: string;
    let lastBars: unknown;
    try {
      [list, lastBars] = await Promise.all([catalogue.list().then((a) => a.json), catalogue.lastBars()]);
    } catch (err) {
      throw storeFailure(err);
    }
    // The catalogue's serialised `{"universes":[…]}` with two members added, not parsed again.
    const json = `${list.slice(0, -1)},"last_bars":${JSON.stringify(lastBars)},"checked_at":${c.d.app.clock.now()}}`;
    return c.json(request, state, new RawJson(json));
  };

export const dataUniverse =
  (c: DashboardContext): DashboardHandler =>
  async (request, state) => {
    const { session } = await c.requireSession(request);
    state.userId = session.userId;
    const name = state.params.name ?? "";
    let found: string | null;
    try {
      found = isValidUniverseName(name) ? ((await c.d.app.universes.detail(name))?.json ?? null) : null;
    } catch (err) {
      throw storeFailure(err);
    }
    if (found === null)
      throw new HttpError(404, "NOT_FOUND", `unknown universe '${name.slice(0, 64)}'; reload the dashboard for the current list`);
    return c.json(request, state, new RawJson(found));
  };
