/**
 * The public demo (DECISIONS §7): a fixed snapshot (or, for periods=2…10, a fixed rolling
 * series) computed from the synthetic sample at a fixed as-of with default parameters. The
 * sample is generated in memory from its seed, so the demo is byte-identical across calls,
 * restarts and installs — even one started with --no-sample or with a changed database.
 */
import { computeChart } from "../engine/chart.ts";
import { parseChartParams } from "../engine/params.ts";
import type { SeriesInput } from "../engine/types.ts";

export const DEMO_MAX_PERIODS = 10;

export class DemoService {
  /** Serialised `data` and `meta.params`/`meta.diagnostics` per periods value (1 = snapshot); at most 10 entries. */
  private readonly bodies = new Map<number, { dataJson: string; extraMeta: Record<string, unknown> }>();
  private series: SeriesInput | null = null;

  constructor(
    private readonly sampleSeries: () => SeriesInput,
    private readonly asof: string,
  ) {}

  /** `periods` as given in the query (or null); anything but an integer 2…10 means the snapshot. */
  payload(periodsRaw: string | null): { dataJson: string; extraMeta: Record<string, unknown> } {
    const n = periodsRaw !== null && /^\d{1,2}$/.test(periodsRaw) ? Number(periodsRaw) : 1;
    const periods = n >= 2 && n <= DEMO_MAX_PERIODS ? n : 1;
    let body = this.bodies.get(periods);
    if (!body) {
      body = this.compute(periods);
      this.bodies.set(periods, body);
    }
    return body;
  }

  private compute(periods: number) {
    this.series ??= this.sampleSeries();
    const q = new URLSearchParams({ asof: this.asof, periods: String(periods) });
    const parsed = parseChartParams(q, { defaultUniverse: "sample" });
    if (!parsed.ok) throw new Error(`demo parameters rejected: ${parsed.errors.join("; ")}`);
    const result = computeChart(this.series, parsed.params);
    return {
      dataJson: JSON.stringify(result.data),
      extraMeta: {
        demo: true,
        params: parsed.params,
        diagnostics: { ...result.diagnostics, n_requested: this.series.symbols.length, missing_symbols: [], data_source: "synthetic" },
      },
    };
  }
}
