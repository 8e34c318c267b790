import { describe, expect, test } from "bun:test";
import { Memo } from "./memo.ts";

describe("Memo", () => {
  test("returns what was set; a key set again holds the new value, counted once", () => {
    const m = new Memo<number>(10_000, () => 8);
    expect(m.get("a")).toBeUndefined();
    expect(m.set("a", 1)).toBe(1);
    const once = m.size().bytes;
    expect(m.set("a", 2)).toBe(2);
    expect(m.get("a")).toBe(2);
    expect(m.size()).toEqual({ entries: 1, bytes: once });
  });

  test("stays within its bytes, dropping the oldest entries first", () => {
    const m = new Memo<string>(1000, (v) => v.length);
    for (let i = 0; i < 100; i++) m.set(`key-${i}`, "x".repeat(50));
    const { entries, bytes } = m.size();
    expect(bytes).toBeLessThanOrEqual(1000);
    expect(entries).toBeGreaterThan(3);
    expect(m.get("key-99")).toBeDefined();
    expect(m.get("key-0")).toBeUndefined();
  });

  test("a value larger than the whole bound is returned but not kept", () => {
    const m = new Memo<string>(100, (v) => v.length);
    expect(m.set("k", "y".repeat(500))).toHaveLength(500);
    expect(m.get("k")).toBeUndefined();
    expect(m.size().bytes).toBe(0);
  });
});
