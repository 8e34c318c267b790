import { expect, test } from "bun:test";
import fc from "fast-check";
import { type Coverage, UnionCalendar } from "./bar-coverage.ts";

/** Runs of a random slot set, as Coverage stores them: inclusive [start, end] pairs. */
function runsOf(slots: Set<number>, size: number): Int32Array {
  const pairs: number[] = [];
  for (let g = 0; g < size; g++) {
    if (!slots.has(g)) continue;
    if (pairs.length > 0 && pairs[pairs.length - 1] === g - 1) pairs[pairs.length - 1] = g;
    else pairs.push(g, g);
  }
  return Int32Array.from(pairs);
}

test("the union calendar is the sorted union of the symbols' slots: positions, slots and bar counts", () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 60 }), fc.array(fc.array(fc.nat(59)), { maxLength: 6 }), (size, perSymbol) => {
      const sets = perSymbol.map((xs) => new Set(xs.filter((x) => x < size)));
      const c: Coverage = {
        ts: Float64Array.from({ length: size }, (_, g) => g * 86_400_000),
        offsets: new Int32Array(size),
        runs: new Map(sets.map((s, i) => [`S${i}`, runsOf(s, size)])),
        barsPerBucket: 1,
      };
      const symbols = [...c.runs.keys(), "UNKNOWN"];
      const cal = new UnionCalendar(c, symbols);
      const union = [...new Set(sets.flatMap((s) => [...s]))].sort((a, b) => a - b);
      expect(cal.length).toBe(union.length);
      union.forEach((g, k) => expect(cal.slot(k)).toBe(g));
      // barsBetween counts a symbol's slots among calendar positions from..to.
      for (let from = 0; from < union.length; from += 3) {
        const to = Math.min(union.length - 1, from + 4);
        sets.forEach((s, i) => expect(cal.barsBetween(`S${i}`, from, to)).toBe(union.slice(from, to + 1).filter((g) => s.has(g)).length));
      }
    }),
    { numRuns: 300 },
  );
});
