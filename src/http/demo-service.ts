/**
 * The public demo (docs/api.md § GET /v1/demo/chart): a fixed snapshot (or, for periods=2…10, a
 * fixed rolling series) computed from the synthetic sample at a fixed as-of with default
 * parameters. The sample is generated in memory from its seed, so the demo is byte-identical across
 * calls, restarts and installs — even one started with --no-sample or with a changed database. The
 * first call per periods value computes in a compute thread (generating the sample and computing
 * takes ~150 ms, which on the event loop held up every other request); every later call is answered
 * from memory, synchronously.
 */
import { parseChartParams } from "./params/params.ts";
import type { ComputePool } from "../compute/compute-pool.ts";
import { SingleFlight } from "../compute/single-flight.ts";

export const DEMO_MAX_PERIODS = 10;

export interface DemoBody {
  dataJson: string;
  extraMeta: Record<string, unknown>;
}

export class DemoService {
  /** Per periods value (1 = snapshot): at most DEMO_MAX_PERIODS entries. */
  private readonly bodies = new Map<number, DemoBody>();
  private readonly inFlight = new SingleFlight<number, DemoBody>();

  constructor(
    private readonly pool: ComputePool,
    private readonly asof: string,
  ) {}

  /** `periods` as given in the query (or null); anything but an integer 2…10 means the snapshot. */
  payload(periodsRaw: string | null): DemoBody | Promise<DemoBody> {
    const n = periodsRaw !== null && /^\d{1,2}$/.test(periodsRaw) ? Number(periodsRaw) : 1;
    const periods = n >= 2 && n <= DEMO_MAX_PERIODS ? n : 1;
    const body = this.bodies.get(periods);
    if (body) return body;
    return this.inFlight.run(
      periods,
      () => this.compute(periods),
      (b) => this.bodies.set(periods, b),
    );
  }

  private async compute(periods: number): Promise<DemoBody> {
    const q = new URLSearchParams({ asof: this.asof, periods: String(periods) });
    const parsed = parseChartParams(q, { defaultUniverse: "sample" });
    if (!parsed.ok) throw new Error(`demo parameters rejected: ${parsed.errors.join("; ")}`);
    const result = await this.pool.compute({ sample: true }, parsed.params);
    return {
      dataJson: result.body,
      extraMeta: {
        demo: true,
        params: { ...parsed.params, format: parsed.format },
        diagnostics: { ...result.diagnostics, n_requested: result.nSymbols, missing_symbols: [], data_source: "synthetic" },
      },
    };
  }
}
