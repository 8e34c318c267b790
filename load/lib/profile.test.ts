import { describe, expect, test } from "bun:test";
import { givenLimits } from "./env.js";
import { profileFrom, thresholdsFor } from "./profile.js";
import { burstSize, MAX_AUTO_BURST } from "./targets.js";

describe("profileFrom", () => {
  test("core unless full is asked for", () => {
    expect(profileFrom({})).toBe("core");
    expect(profileFrom({ PROFILE: "FULL" })).toBe("full");
    expect(() => profileFrom({ PROFILE: "strict" })).toThrow("PROFILE must be core (only what the interface binds) or full");
  });
  test("full thresholds are added only in full, so core has none on metrics it never feeds", () => {
    expect(thresholdsFor("core", { a: 1 }, { b: 2 })).toEqual({ a: 1 });
    expect(thresholdsFor("full", { a: 1 }, { b: 2 })).toEqual({ a: 1, b: 2 });
  });
});

describe("givenLimits", () => {
  test("LIMIT_PER_MINUTE and LIMIT_PER_DAY, else null (the headers say)", () => {
    expect(givenLimits({})).toEqual({ perMinute: null, perDay: null });
    expect(givenLimits({ LIMIT_PER_MINUTE: "1", LIMIT_PER_DAY: "30" })).toEqual({ perMinute: 1, perDay: 30 });
    expect(() => givenLimits({ LIMIT_PER_DAY: "0" })).toThrow("LIMIT_PER_DAY must be an integer >= 1");
  });
});

describe("burstSize", () => {
  test("BURST when given; else one more than the announced limit, at least 4 and the instances", () => {
    expect(burstSize(3, 1, 100)).toBe(3);
    expect(burstSize(null, 1, null)).toBe(4);
    expect(burstSize(null, 6, null)).toBe(6);
    expect(burstSize(null, 1, 1)).toBe(4);
    expect(burstSize(null, 1, 9)).toBe(10);
    expect(burstSize(null, 1, 1000)).toBe(MAX_AUTO_BURST);
  });
});
