/**
 * What denoise=mp&spectrum=true adds to a whole rolling-30 NIFTY-50 request: the real server in
 * this process over a SQLite file holding the NIFTY-50 bars, through its handler (no socket), with
 * the result cache off so each request computes; plain and filtered alternate in blocks of 5, and
 * the figure is the median of the blocks' ratios. signal-noise.bench.ts prints it beside the
 * engine-only row.
 */
import { mintToken } from "../src/auth/index.ts";
import { systemClock } from "../src/clock.ts";
import { loadConfig } from "../src/config.ts";
import { createLogger } from "../src/logger.ts";
import { startServer } from "../src/server.ts";
import { niftyDb } from "../test/support/http/harness.ts";
import { median } from "./median.ts";

const SECRET = "bench-secret-0123456789abcdef";

export interface FiltersRequest {
  plain: number[];
  filtered: number[];
  ratios: number[];
  bytes: { plain: number; filtered: number };
}

export async function filtersOnRequest(asof: string, blocks = 15): Promise<FiltersRequest> {
  const config = loadConfig(
    {
      port: "0",
      host: "127.0.0.1",
      db: niftyDb(),
      jwtSecret: SECRET,
      defaultUniverse: "nifty50",
      sample: false,
      cacheMb: "0",
      ratePerMinute: "1000000",
      ratePerDay: "100000000",
    },
    {},
  );
  const server = await startServer(config, createLogger("silent"), {});
  const token = (await mintToken({ secret: SECRET, userId: "bench", ttlSeconds: 86_400, clock: systemClock })).token;
  const url = (extra: string) => `http://127.0.0.1/v1/graph-stats/chart?lookback=60&asof=${asof}&periods=30${extra}`;
  const once = async (u: string): Promise<[ms: number, bytes: number]> => {
    const t = performance.now();
    const res = await server.handle(new Request(u, { headers: { Authorization: `Bearer ${token}` } }));
    const body = await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`answered ${res.status}: ${new TextDecoder().decode(body).slice(0, 300)}`);
    return [performance.now() - t, body.byteLength];
  };
  try {
    const plainUrl = url("");
    const filteredUrl = url("&denoise=mp&spectrum=true");
    const bytes = { plain: (await once(plainUrl))[1], filtered: (await once(filteredUrl))[1] };
    for (let i = 0; i < 20; i++) {
      await once(plainUrl);
      await once(filteredUrl);
    }
    const out: FiltersRequest = { plain: [], filtered: [], ratios: [], bytes };
    for (let b = 0; b < blocks; b++) {
      const p: number[] = [];
      const f: number[] = [];
      for (let i = 0; i < 5; i++) p.push((await once(plainUrl))[0]);
      for (let i = 0; i < 5; i++) f.push((await once(filteredUrl))[0]);
      out.plain.push(...p);
      out.filtered.push(...f);
      out.ratios.push(median(f) / median(p));
    }
    return out;
  } finally {
    await server.stop();
  }
}
