import { describe, expect, test } from "bun:test";
import { createGrowthTracker, median } from "./growth.js";

// Feeds `perBucket` samples of `ms` into each consecutive bucket and collects the ratios emitted.
function run(bucketMedians: number[], floorMs = 10, perBucket = 6): number[] {
  const t = createGrowthTracker({ bucketMs: 60000, warmupMs: 60000, floorMs });
  const ratios: number[] = [];
  bucketMedians.forEach((ms, b) => {
    for (let i = 0; i < perBucket; i++) {
      const r = t.add(60000 + b * 60000 + i * 1000, ms);
      if (r !== null) ratios.push(r);
    }
  });
  const r = t.add(60000 + bucketMedians.length * 60000, 0);
  if (r !== null) ratios.push(r);
  return ratios;
}

describe("growth tracker", () => {
  test("steady latency gives ratios of 1", () => expect(run([5, 5, 5])).toEqual([1, 1]));
  test("latency that quadruples is reported against the first bucket", () => {
    expect(run([10, 20, 40])).toEqual([1.5, 2.5]);
  });
  test("the floor keeps sub-millisecond jitter from looking like growth", () => {
    expect(run([0.2, 0.8], 10)[0]).toBeCloseTo(10.8 / 10.2, 10);
  });
  test("warm-up samples and thin buckets are ignored", () => {
    const t = createGrowthTracker({ bucketMs: 60000, warmupMs: 60000, floorMs: 0 });
    expect(t.add(1000, 1000)).toBeNull();
    expect(run([5, 50], 0, 3)).toEqual([]);
  });
  test("median", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 2, 3])).toBe(2.5);
  });
});
