/**
 * The synthetic sample universe (src/market/README.md § The synthetic sample): a deterministic
 * factor model — market + sector + idiosyncratic log returns — giving daily bars over several years
 * and 1-minute bars for the last trading days. Every run on every machine produces the same bars
 * (fixed seed and dates).
 */
import type { Bar } from "./bar.ts";
import { Prng } from "./prng.ts";
import { SAMPLE_LATE_LISTING, SAMPLE_SECTORS } from "./sample-symbols.ts";

export const SAMPLE_UNIVERSE = "sample";
/** Bumped whenever the generated bars change, so existing databases reload the sample. */
export const SAMPLE_GENERATOR_VERSION = 1;
/** The settings key holding the loaded sample's generator version, on either database. */
export const SAMPLE_VERSION_KEY = "sample_generator_version";
export const SAMPLE_SEED = 20250930;
export const SAMPLE_START_DATE = "2022-01-03";
export const SAMPLE_END_DATE = "2025-09-30";
/** Indian exchange time, +05:30. */
export const SAMPLE_OFFSET_MIN = 330;
export const SAMPLE_MINUTE_DAYS = 10;
/** 09:15 to 15:30 local: 375 one-minute bars per session. */
export const SAMPLE_SESSION_OPEN_MIN = 9 * 60 + 15;
export const SAMPLE_SESSION_MINUTES = 375;

export interface SampleSeries {
  symbol: string;
  sector: string;
  daily: Bar[];
  minute: Bar[];
}

export interface Sample {
  universe: string;
  symbols: string[];
  series: SampleSeries[];
}

const DAY_MS = 86_400_000;
const MARKET_VOL = 0.007;
const SECTOR_VOL = 0.011;
const MARKET_DRIFT = 0.0003;

/** Local midnights (as UTC ms) of the weekdays from `start` to `end` inclusive. */
export function sampleTradingDays(start = SAMPLE_START_DATE, end = SAMPLE_END_DATE): number[] {
  const shift = SAMPLE_OFFSET_MIN * 60_000;
  const days: number[] = [];
  for (let d = Date.parse(`${start}T00:00:00Z`); d <= Date.parse(`${end}T00:00:00Z`); d += DAY_MS) {
    const wd = new Date(d).getUTCDay();
    if (wd !== 0 && wd !== 6) days.push(d - shift);
  }
  return days;
}

const round2 = (x: number) => Math.max(0.01, Math.round(x * 100) / 100);

interface Stock {
  symbol: string;
  sector: number;
  beta: number;
  load: number;
  idio: number;
  price: number;
  volume: number;
}

/** Generates the whole sample. Pure and deterministic. */
export function generateSample(): Sample {
  const rng = new Prng(SAMPLE_SEED);
  const stocks: Stock[] = [];
  SAMPLE_SECTORS.forEach((sec, k) => {
    for (const symbol of sec.symbols) {
      stocks.push({
        symbol,
        sector: k,
        beta: rng.between(0.6, 1.4),
        load: rng.between(0.5, 1.2),
        idio: rng.between(0.006, 0.014),
        price: round2(Math.exp(rng.between(Math.log(50), Math.log(3000)))),
        volume: Math.round(Math.exp(rng.between(Math.log(2e5), Math.log(2e7)))),
      });
    }
  });
  const days = sampleTradingDays();
  const minuteFrom = days.length - SAMPLE_MINUTE_DAYS;
  const listedAt = Date.parse(`${SAMPLE_LATE_LISTING.date}T00:00:00Z`) - SAMPLE_OFFSET_MIN * 60_000;
  const series: SampleSeries[] = stocks.map((s) => ({ symbol: s.symbol, sector: SAMPLE_SECTORS[s.sector]!.sector, daily: [], minute: [] }));
  const last = stocks.map((s) => s.price);

  for (let di = 0; di < days.length; di++) {
    const day = days[di]!;
    const m = MARKET_DRIFT + MARKET_VOL * rng.normal();
    const sec = SAMPLE_SECTORS.map(() => SECTOR_VOL * rng.normal());
    const intraday = di < minuteFrom ? null : minuteFactors(rng);
    stocks.forEach((s, i) => {
      const r = s.beta * m + s.load * sec[s.sector]! + s.idio * rng.normal();
      const bar = intraday
        ? minuteSession(rng, day, last[i]!, 0.3 * r, s, intraday, series[i]!.minute)
        : dailyBar(rng, day, last[i]!, r, s.volume);
      last[i] = bar.close;
      if (s.symbol !== SAMPLE_LATE_LISTING.symbol || day >= listedAt) series[i]!.daily.push(bar);
    });
  }
  return { universe: SAMPLE_UNIVERSE, symbols: stocks.map((s) => s.symbol), series };
}

function dailyBar(rng: Prng, ts: number, prev: number, r: number, baseVolume: number): Bar {
  const open = round2(prev * Math.exp(0.3 * r + 0.002 * rng.normal()));
  const close = round2(prev * Math.exp(r));
  const high = round2(Math.max(open, close) * Math.exp(0.004 * Math.abs(rng.normal())));
  const low = round2(Math.min(open, close) * Math.exp(-0.004 * Math.abs(rng.normal())));
  const volume = Math.round(baseVolume * Math.exp(0.3 * rng.normal()) * (1 + 20 * Math.abs(r)));
  return { ts, offsetMin: SAMPLE_OFFSET_MIN, open, high, low, close, volume };
}

/** Per-minute market and sector returns of one session (the intraday factors). */
interface MinuteFactors {
  market: Float64Array;
  sector: Float64Array[];
}

function minuteFactors(rng: Prng): MinuteFactors {
  const n = SAMPLE_SESSION_MINUTES;
  const draw = (vol: number, drift: number) => Float64Array.from({ length: n }, () => drift + vol * rng.normal());
  return {
    market: draw(MARKET_VOL / Math.sqrt(n), MARKET_DRIFT / n),
    sector: SAMPLE_SECTORS.map(() => draw(SECTOR_VOL / Math.sqrt(n), 0)),
  };
}

/**
 * One session of 1-minute bars from the intraday factors plus the overnight `gap`; returns the
 * day's bar aggregated from them, so the stored daily bar equals the 1m bars resampled to 1d.
 */
function minuteSession(rng: Prng, day: number, prev: number, gap: number, s: Stock, f: MinuteFactors, out: Bar[]): Bar {
  const n = SAMPLE_SESSION_MINUTES;
  const idio = s.idio / Math.sqrt(n);
  const start = day + SAMPLE_SESSION_OPEN_MIN * 60_000;
  let logp = Math.log(prev) + gap + 0.002 * rng.normal();
  let price = round2(Math.exp(logp));
  let dayBar: Bar | null = null;
  for (let k = 0; k < n; k++) {
    logp += s.beta * f.market[k]! + s.load * f.sector[s.sector]![k]! + idio * rng.normal();
    const open = price;
    const close = round2(Math.exp(logp));
    const wiggle = idio * 0.5;
    const high = round2(Math.max(open, close) * Math.exp(wiggle * Math.abs(rng.normal())));
    const low = round2(Math.min(open, close) * Math.exp(-wiggle * Math.abs(rng.normal())));
    const u = (k + 0.5) / n - 0.5;
    // U-shaped intraday volume: busier at the open and the close.
    const volume = Math.round((s.volume / n) * (0.6 + 9.6 * u * u) * Math.exp(0.4 * rng.normal()));
    const bar: Bar = { ts: start + k * 60_000, offsetMin: SAMPLE_OFFSET_MIN, open, high, low, close, volume };
    out.push(bar);
    if (!dayBar) dayBar = { ...bar, ts: day };
    else {
      dayBar.high = Math.max(dayBar.high, high);
      dayBar.low = Math.min(dayBar.low, low);
      dayBar.close = close;
      dayBar.volume += volume;
    }
    price = close;
  }
  return dayBar!;
}
