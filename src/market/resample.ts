/** Resampling OHLCV bars to a coarser interval (pure). */
import type { Interval } from "../engine/types.ts";
import type { Bar } from "./bar.ts";
import { bucketStart } from "./intervals.ts";

/**
 * Aggregates bars (sorted by `ts`, one symbol) into `interval` buckets aligned in exchange-local
 * time: open = first, high = max, low = min, close = last, volume = sum. The bucket keeps the
 * offset of its first bar. Output is sorted by bucket start; empty buckets are absent.
 */
export function resampleBars(bars: readonly Bar[], interval: Interval): Bar[] {
  const out: Bar[] = [];
  let cur: Bar | null = null;
  for (const b of bars) {
    const start = bucketStart(b.ts, b.offsetMin, interval);
    if (cur && cur.ts === start) {
      if (b.high > cur.high) cur.high = b.high;
      if (b.low < cur.low) cur.low = b.low;
      cur.close = b.close;
      cur.volume += b.volume;
    } else {
      if (cur && start < cur.ts) throw new Error("resampleBars: bars must be sorted by ts");
      cur = { ts: start, offsetMin: b.offsetMin, open: b.open, high: b.high, low: b.low, close: b.close, volume: b.volume };
      out.push(cur);
    }
  }
  return out;
}
