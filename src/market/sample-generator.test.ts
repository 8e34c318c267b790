import { describe, expect, test } from "bun:test";
import { formatLocal } from "./timestamps.ts";
import {
  generateSample,
  sampleTradingDays,
  SAMPLE_END_DATE,
  SAMPLE_MINUTE_DAYS,
  SAMPLE_SESSION_MINUTES,
  SAMPLE_START_DATE,
} from "./sample-generator.ts";
import { SAMPLE_LATE_LISTING, SAMPLE_SECTORS } from "./sample-symbols.ts";
import { isValidSymbol } from "./symbols.ts";

const sample = generateSample();
const local = (ts: number) => formatLocal(ts, 330);

function logReturns(closes: number[]): number[] {
  return closes.slice(1).map((c, i) => Math.log(c / closes[i]!));
}
function corr(a: number[], b: number[]): number {
  const n = Math.min(a.length, b.length);
  const [x, y] = [a.slice(-n), b.slice(-n)];
  const mx = x.reduce((s, v) => s + v, 0) / n;
  const my = y.reduce((s, v) => s + v, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (let i = 0; i < n; i++) {
    sxy += (x[i]! - mx) * (y[i]! - my);
    sxx += (x[i]! - mx) ** 2;
    syy += (y[i]! - my) ** 2;
  }
  return sxy / Math.sqrt(sxx * syy);
}

describe("generateSample", () => {
  test("is deterministic: two generations are identical", () => {
    expect(generateSample()).toEqual(sample);
  });

  test("has 50 distinct valid symbols in 8 sectors, universe order = sector order", () => {
    expect(sample.symbols.length).toBe(50);
    expect(new Set(sample.symbols).size).toBe(50);
    expect(SAMPLE_SECTORS.length).toBe(8);
    expect(sample.symbols).toEqual(SAMPLE_SECTORS.flatMap((s) => s.symbols));
    expect(sample.symbols.every(isValidSymbol)).toBe(true);
  });

  test("daily bars: every weekday from the start date to the fixed end date, at local midnight", () => {
    const days = sampleTradingDays();
    expect(local(days[0]!)).toBe(`${SAMPLE_START_DATE}T00:00:00+05:30`);
    expect(local(days.at(-1)!)).toBe(`${SAMPLE_END_DATE}T00:00:00+05:30`);
    expect(days.length).toBeGreaterThanOrEqual(3 * 52 * 5);
    for (const s of sample.series) {
      const listed = s.symbol === SAMPLE_LATE_LISTING.symbol ? days.findIndex((d) => local(d).startsWith(SAMPLE_LATE_LISTING.date)) : 0;
      expect(s.daily.map((b) => b.ts)).toEqual(days.slice(listed));
      for (const b of s.daily) expect(new Date(b.ts + 330 * 60_000).getUTCDay() % 6).not.toBe(0);
    }
  });

  test("minute bars: 10 sessions of 375 bars from 09:15 to 15:29 local, ending on the end date", () => {
    const days = sampleTradingDays()
      .slice(-SAMPLE_MINUTE_DAYS)
      .map((d) => local(d).slice(0, 10));
    for (const s of sample.series) {
      expect(s.minute.length).toBe(SAMPLE_MINUTE_DAYS * SAMPLE_SESSION_MINUTES);
      for (let d = 0; d < SAMPLE_MINUTE_DAYS; d++) {
        expect(local(s.minute[d * 375]!.ts)).toBe(`${days[d]}T09:15:00+05:30`);
        expect(local(s.minute[d * 375 + 374]!.ts)).toBe(`${days[d]}T15:29:00+05:30`);
      }
    }
    expect(days.at(-1)).toBe(SAMPLE_END_DATE);
  });

  test("every bar is a plausible OHLCV bar", () => {
    const bad: string[] = [];
    for (const s of sample.series) {
      for (const b of [...s.daily, ...s.minute]) {
        const ok =
          b.low > 0 &&
          b.high >= Math.max(b.open, b.close) &&
          b.low <= Math.min(b.open, b.close) &&
          Number.isInteger(b.volume) &&
          b.volume >= 0 &&
          b.offsetMin === 330;
        if (!ok) bad.push(`${s.symbol} ${local(b.ts)} ${JSON.stringify(b)}`);
      }
    }
    expect(bad).toEqual([]);
  });

  test("factor structure: stocks of one sector move together more than across sectors", () => {
    const returns = sample.series.map((s) => logReturns(s.daily.map((b) => b.close)));
    const sectorOf = sample.series.map((s) => s.sector);
    let within = 0,
      nw = 0,
      across = 0,
      na = 0;
    for (let i = 0; i < returns.length; i++) {
      for (let j = i + 1; j < returns.length; j++) {
        const c = corr(returns[i]!, returns[j]!);
        if (sectorOf[i] === sectorOf[j]) [within, nw] = [within + c, nw + 1];
        else [across, na] = [across + c, na + 1];
      }
    }
    expect(across / na).toBeGreaterThan(0.1); // the market factor
    expect(within / nw).toBeGreaterThan(across / na + 0.15); // the sector factor
  });
});
