import { describe, expect, test } from "bun:test";
import { ResultCache } from "./result-cache.ts";

describe("ResultCache", () => {
  test("evicts the least recently used entry beyond maxEntries", () => {
    const c = new ResultCache<number>(2);
    c.set("a", 1);
    c.set("b", 2);
    c.set("c", 3);
    expect(c.has("a")).toBe(false);
    expect(c.get("b")).toBe(2);
    expect(c.get("c")).toBe(3);
    expect(c.size).toBe(2);
  });

  test("a get makes an entry recent, so the other one goes", () => {
    const c = new ResultCache<number>(2);
    c.set("a", 1);
    c.set("b", 2);
    expect(c.get("a")).toBe(1);
    c.set("c", 3);
    expect(c.get("a")).toBe(1);
    expect(c.has("b")).toBe(false);
  });

  test("setting an existing key replaces it without growing", () => {
    const c = new ResultCache<string>(2);
    c.set("a", "xx");
    c.set("a", "yyy");
    expect(c.size).toBe(1);
    expect(c.totalSize).toBe(3);
    expect(c.get("a")).toBe("yyy");
  });

  test("evicts oldest entries until the size budget holds", () => {
    const c = new ResultCache<string>(10, { maxSize: 10 });
    c.set("a", "aaaa");
    c.set("b", "bbbb");
    c.set("c", "cccc");
    expect(c.has("a")).toBe(false);
    expect(c.has("b")).toBe(true);
    expect(c.totalSize).toBe(8);
  });

  test("a value bigger than the whole budget is not stored and evicts nothing", () => {
    const c = new ResultCache<string>(10, { maxSize: 5 });
    c.set("a", "aaa");
    c.set("big", "x".repeat(6));
    expect(c.has("big")).toBe(false);
    expect(c.get("a")).toBe("aaa");
  });

  test("custom sizeOf, delete and clear keep the total right", () => {
    const c = new ResultCache<{ n: number }>(5, { maxSize: 100, sizeOf: (v) => v.n });
    c.set("a", { n: 40 });
    c.set("b", { n: 50 });
    expect(c.delete("a")).toBe(true);
    expect(c.delete("a")).toBe(false);
    expect(c.totalSize).toBe(50);
    c.clear();
    expect(c.size).toBe(0);
    expect(c.totalSize).toBe(0);
  });

  test("rejects a non-positive entry bound", () => {
    expect(() => new ResultCache(0)).toThrow(RangeError);
  });
});
