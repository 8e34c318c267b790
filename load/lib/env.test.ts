import { describe, expect, test } from "bun:test";
import { baseUrlFrom, durationFrom, durationSeconds, flagFrom, intFrom, numberFrom } from "./env.js";

describe("env", () => {
  test("BASE_URL defaults to the local server and loses trailing slashes", () => {
    expect(baseUrlFrom({})).toBe("http://127.0.0.1:8080");
    expect(baseUrlFrom({ BASE_URL: "http://127.0.0.1:9000//" })).toBe("http://127.0.0.1:9000");
  });
  test("BASE_URL without a scheme is refused with the value in the message", () => {
    expect(() => baseUrlFrom({ BASE_URL: "127.0.0.1:8080" })).toThrow("got '127.0.0.1:8080'");
  });
  test("integers: default when unset, refusal below the minimum or when fractional", () => {
    expect(intFrom({}, "VUS", 20)).toBe(20);
    expect(intFrom({ VUS: "7" }, "VUS", 20)).toBe(7);
    expect(() => intFrom({ VUS: "0" }, "VUS", 20)).toThrow("VUS must be an integer >= 1, got '0'");
    expect(() => intFrom({ VUS: "2.5" }, "VUS", 20)).toThrow("VUS");
    expect(intFrom({ MARGIN_MS: "0" }, "MARGIN_MS", 1000, 0)).toBe(0);
  });
  test("numbers accept fractions and refuse negatives", () => {
    expect(numberFrom({ ERROR_RATE: "0.05" }, "ERROR_RATE", 0.01)).toBe(0.05);
    expect(() => numberFrom({ ERROR_RATE: "-1" }, "ERROR_RATE", 0.01)).toThrow("non-negative");
  });
  test("durations are validated and converted", () => {
    expect(durationFrom({ DURATION: "1h30m" }, "DURATION", "1m")).toBe("1h30m");
    expect(() => durationFrom({ DURATION: "10" }, "DURATION", "1m")).toThrow("k6 duration");
    expect(durationSeconds("1h30m")).toBe(5400);
    expect(durationSeconds("45s")).toBe(45);
    expect(durationSeconds("500ms")).toBe(0.5);
    expect(() => durationSeconds("5x")).toThrow("not a k6 duration");
  });
  test("flags", () => {
    expect(flagFrom({}, "INTRADAY")).toBe(false);
    expect(flagFrom({ INTRADAY: "yes" }, "INTRADAY")).toBe(true);
    expect(() => flagFrom({ INTRADAY: "maybe" }, "INTRADAY")).toThrow("got 'maybe'");
  });
});
