import { describe, expect, test } from "bun:test";
import { round6 } from "./round.ts";

describe("round6", () => {
  test("rounds to 6 decimals", () => {
    expect(round6(0.123456789)).toBe(0.123457);
    expect(round6(1)).toBe(1);
    expect(round6(0.1234564)).toBe(0.123456);
  });

  test("is symmetric around zero, so |round6(x)| = round6(|x|)", () => {
    for (const x of [0.0000005, 0.1234565, 0.25, 0.9999995, 0.3333335]) expect(round6(-x)).toBe(-round6(x)!);
  });

  test("undefined values become null, never 0", () => {
    expect(round6(NaN)).toBeNull();
    expect(round6(Infinity)).toBeNull();
    expect(round6(-Infinity)).toBeNull();
  });

  test("tiny values round to a plain 0, not -0", () => {
    expect(Object.is(round6(-1e-9), 0)).toBe(true);
    expect(Object.is(round6(1e-9), 0)).toBe(true);
  });
});
