import { describe, expect, test } from "bun:test";
import { SeriesCache } from "./series-cache.ts";

/** An entry's bytes as the cache counts them: its own, its key (two bytes a character) and 256 of overhead. */
const held = (bytes: number, key: string) => bytes + 2 * key.length + 256;

describe("the series cache", () => {
  test("holds entries up to its bound in bytes, least recently used out first", () => {
    const c = new SeriesCache(3 * held(1000, "a"));
    c.at(1);
    c.set("a", "A", 1000);
    c.set("b", "B", 1000);
    c.set("c", "C", 1000);
    expect(c.bytes()).toBe(3 * held(1000, "a"));
    expect(c.get("a")).toBe("A"); // a is now the most recent
    c.set("d", "D", 1000);
    expect(c.get("b")).toBeUndefined();
    expect([c.get("a"), c.get("c"), c.get("d")]).toEqual(["A", "C", "D"]);
    expect(c.bytes()).toBeLessThanOrEqual(3 * held(1000, "a"));
  });

  test("an entry larger than the bound alone is not kept, and replacing a key counts it once", () => {
    const c = new SeriesCache(2000);
    c.at(1);
    c.set("big", 1, 5000);
    expect(c.size()).toBe(0);
    c.set("k", 1, 100);
    c.set("k", 2, 200);
    expect(c.size()).toBe(1);
    expect(c.bytes()).toBe(held(200, "k"));
  });

  test("a new data version empties it; a lower bound evicts at once; bound 0 keeps nothing", () => {
    const c = new SeriesCache(10_000);
    c.at(1);
    c.set("a", 1, 1000);
    c.set("b", 2, 1000);
    c.at(1);
    expect(c.size()).toBe(2);
    c.at(2);
    expect([c.size(), c.bytes()]).toEqual([0, 0]);
    c.set("a", 1, 1000);
    c.set("b", 2, 1000);
    c.setBound(held(1000, "b"));
    expect([c.get("a"), c.get("b")]).toEqual([undefined, 2]);
    c.setBound(0);
    expect(c.size()).toBe(0);
    c.set("c", 3, 1);
    expect(c.size()).toBe(0);
  });
});
