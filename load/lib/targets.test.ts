import { describe, expect, test } from "bun:test";
import { baseUrlsFrom, burstInstances, createRotation, instanceCounts, instanceMetric, requireBurstCoversInstances } from "./targets.js";

describe("baseUrlsFrom", () => {
  test("BASE_URLS wins, in order, trimmed and without trailing slashes", () => {
    expect(baseUrlsFrom({ BASE_URLS: " http://a:1/, http://b:2 ,http://c:3//", BASE_URL: "http://ignored:9" })).toEqual([
      "http://a:1",
      "http://b:2",
      "http://c:3",
    ]);
  });
  test("BASE_URL alone still works, and nothing means the local server", () => {
    expect(baseUrlsFrom({ BASE_URL: "http://127.0.0.1:9000/" })).toEqual(["http://127.0.0.1:9000"]);
    expect(baseUrlsFrom({ BASE_URLS: "  " })).toEqual(["http://127.0.0.1:8080"]);
    expect(baseUrlsFrom({})).toEqual(["http://127.0.0.1:8080"]);
  });
  test("a bad entry is refused naming it; a URL listed twice is refused", () => {
    expect(() => baseUrlsFrom({ BASE_URLS: "http://a:1,b:2" })).toThrow(
      "BASE_URLS must list URLs that start with http:// or https:// and name a host, got 'b:2'",
    );
    expect(() => baseUrlsFrom({ BASE_URL: "a:1" })).toThrow("BASE_URL must");
    expect(() => baseUrlsFrom({ BASE_URLS: "http://a:1,http://a:1/" })).toThrow("BASE_URLS lists http://a:1 twice");
    expect(() => baseUrlsFrom({ BASE_URLS: ",," })).toThrow("BASE_URLS names no URL");
  });
});

describe("spreading requests", () => {
  test("a burst as large as the list reaches every instance, whatever the offset", () => {
    for (let offset = 0; offset < 7; offset++) {
      expect(new Set(burstInstances(3, 3, offset)).size).toBe(3);
      expect(new Set(burstInstances(3, 4, offset)).size).toBe(3);
    }
    expect(burstInstances(3, 4, 2)).toEqual([2, 0, 1, 2]);
  });
  test("shifting the offset per burst evens out the remainder", () => {
    const counts = [0, 0, 0];
    for (let burst = 0; burst < 30; burst++) for (const i of burstInstances(3, 4, burst)) counts[i] += 1;
    expect(counts).toEqual([40, 40, 40]);
  });
  test("a burst smaller than the list is refused with the fix", () => {
    expect(() => requireBurstCoversInstances(2, 3)).toThrow(
      "BURST=2 is smaller than the 3 URLs in BASE_URLS: a burst must reach every instance; pass -e BURST=3 or more",
    );
    expect(() => requireBurstCoversInstances(3, 3)).not.toThrow();
  });
  test("a rotation cycles through every instance from its start", () => {
    const r = createRotation(3, 4);
    expect([r.next(), r.next(), r.next(), r.next()]).toEqual([1, 2, 0, 1]);
    const single = createRotation(1, 9);
    expect([single.next(), single.next()]).toEqual([0, 0]);
  });
});

describe("per-instance counts", () => {
  test("read from the counters of each instance, 0 when one never counted", () => {
    expect(instanceMetric(0, "requests")).toBe("graphstats_instance_1_requests");
    const data = {
      metrics: {
        graphstats_instance_1_requests: { values: { count: 12, rate: 1 } },
        graphstats_instance_1_admitted: { values: { count: 5, rate: 1 } },
        graphstats_instance_2_requests: { values: { count: 11, rate: 1 } },
      },
    };
    expect(instanceCounts(data, ["http://a:1", "http://b:2"], ["requests", "admitted"])).toEqual([
      { url: "http://a:1", requests: 12, admitted: 5 },
      { url: "http://b:2", requests: 11, admitted: 0 },
    ]);
  });
});
