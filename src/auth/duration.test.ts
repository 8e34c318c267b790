import { test, expect } from "bun:test";
import { parseDuration } from "./duration.ts";

test.each([
  ["24h", 86400],
  ["90m", 5400],
  ["3600s", 3600],
  ["1d", 86400],
  ["3600", 3600],
  ["2H", 7200],
])("%s is %i seconds", (input, seconds) => {
  expect(parseDuration(input)).toBe(seconds);
});

test.each(["", "0", "0h", "-5m", "1.5h", "24 hours", "h", "10w", "1e3"])("'%s' is rejected with a message naming it", (input) => {
  expect(() => parseDuration(input)).toThrow(`invalid duration '${input}': expected a positive whole number of seconds`);
});
