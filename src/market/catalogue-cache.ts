/**
 * The universe catalogue held in memory per data version, serialised once: `GET /v1/universes`,
 * `GET /v1/universes/{name}` and /metrics' freshness gauge answer from it with one version read,
 * and the next read after an import, a removal or a metadata change builds it again. It holds the
 * list and the detail of each universe asked for (only universes that exist), so it is bounded by
 * the catalogue itself.
 */
import type { MarketStore } from "./store.ts";
import type { LastBar } from "./universe-catalogue.ts";

/** A serialised `data` member and the data version it was read at (its ETag). */
export interface CatalogueAnswer {
  version: number;
  json: string;
}

interface Entry {
  version: number;
  listing: Promise<{ json: string; names: Set<string>; lastBars: LastBar[] }>;
  details: Map<string, Promise<string | null>>;
}

export class UniverseCatalogue {
  private entry: Entry | null = null;

  constructor(private readonly store: MarketStore) {}

  private async current(): Promise<Entry> {
    const version = await this.store.dataVersion();
    if (this.entry?.version !== version) {
      const listing = this.store.catalogue(version).then(({ universes, lastBars }) => ({
        json: JSON.stringify({ universes }),
        names: new Set(universes.map((u) => u.name)),
        lastBars,
      }));
      const entry: Entry = { version, listing, details: new Map() };
      // A failed read (database down) is not kept: the next request reads again.
      listing.catch(() => {
        if (this.entry === entry) this.entry = null;
      });
      this.entry = entry;
    }
    return this.entry;
  }

  /** The list's `data`, serialised. */
  async list(): Promise<CatalogueAnswer> {
    const e = await this.current();
    return { version: e.version, json: (await e.listing).json };
  }

  /** One universe's `data`, serialised, or null when no universe has that name. */
  async detail(name: string): Promise<CatalogueAnswer | null> {
    const e = await this.current();
    if (!(await e.listing).names.has(name)) return null;
    let p = e.details.get(name);
    if (!p) {
      p = this.store.universeDetail(name, e.version).then((d) => (d ? JSON.stringify(d) : null));
      e.details.set(name, p);
      p.catch(() => e.details.delete(name));
    }
    const json = await p;
    return json === null ? null : { version: e.version, json };
  }

  /** Every universe's name, alphabetical. */
  async names(): Promise<string[]> {
    return [...(await (await this.current()).listing).names];
  }

  /** The newest bar of each universe at each interval it stores. */
  async lastBars(): Promise<LastBar[]> {
    return (await (await this.current()).listing).lastBars;
  }
}
