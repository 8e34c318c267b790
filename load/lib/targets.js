// Several instances of one deployment behind no load balancer: the scripts take their base URLs and
// spread requests over them themselves. Pure, so `bun test` can exercise it.
import { DEFAULT_BASE_URL } from "./env.js";

/**
 * One base URL, validated and without a trailing slash.
 * @param {string} raw
 * @param {string} name the option it came from, for the message
 * @returns {string}
 */
function baseUrl(raw, name) {
  const url = raw.trim();
  if (!/^https?:\/\/[^/\s,]+/.test(url)) {
    throw new Error(`${name} must list URLs that start with http:// or https:// and name a host, got '${url}'`);
  }
  return url.replace(/\/+$/, "");
}

/**
 * The targets: `BASE_URLS` (comma-separated) when given, else `BASE_URL`, else the local server. A URL
 * listed twice is refused: it would receive twice its share and blur the per-instance counts.
 * @param {Record<string, string | undefined>} env
 * @returns {string[]}
 */
export function baseUrlsFrom(env) {
  const list = env.BASE_URLS;
  if (list === undefined || list.trim() === "") return [baseUrl(env.BASE_URL || DEFAULT_BASE_URL, "BASE_URL")];
  const urls = list
    .split(",")
    .filter((u) => u.trim() !== "")
    .map((u) => baseUrl(u, "BASE_URLS"));
  if (urls.length === 0) throw new Error(`BASE_URLS names no URL, got '${list}'`);
  for (let i = 0; i < urls.length; i += 1) {
    if (urls.indexOf(urls[i]) !== i) throw new Error(`BASE_URLS lists ${urls[i]} twice; list each instance once`);
  }
  return urls;
}

/**
 * The instance of each request of a burst: consecutive instances from `offset` on, so a burst at least
 * as large as the list reaches every instance, and varying the offset evens out the remainder.
 * @param {number} instances how many URLs there are
 * @param {number} size requests in the burst
 * @param {number} offset e.g. VU id + burst number
 * @returns {number[]} an index into the URL list for each request
 */
export function burstInstances(instances, size, offset) {
  /** @type {number[]} */
  const out = [];
  for (let i = 0; i < size; i += 1) out.push((offset + i) % instances);
  return out;
}

/** The largest burst sized from the announced limit; a larger limit is judged by bursts of this size. */
export const MAX_AUTO_BURST = 32;

/**
 * The size of a user's next burst: `BURST` when given; else at least 4 and the number of instances, and
 * once the target announced its per-minute limit, one more than it (up to `MAX_AUTO_BURST`), so that every
 * burst into an empty window must be partly refused, whatever the limit.
 * @param {number | null} given `-e BURST`, or null
 * @param {number} instances
 * @param {number | null} perMinute the announced (or given) limit, null before the first answer
 * @returns {number}
 */
export function burstSize(given, instances, perMinute) {
  if (given !== null) return given;
  const floor = Math.max(4, instances);
  return perMinute === null ? floor : Math.max(floor, Math.min(perMinute + 1, MAX_AUTO_BURST));
}

/**
 * Refuses a burst smaller than the instance list: limits.js judges the shared limiter by bursts that
 * reach every instance at once, which a smaller burst cannot.
 * @param {number} burst
 * @param {number} instances
 * @returns {void}
 */
export function requireBurstCoversInstances(burst, instances) {
  if (burst < instances) {
    throw new Error(
      `BURST=${burst} is smaller than the ${instances} URLs in BASE_URLS: a burst must reach every instance; ` +
        `pass -e BURST=${instances} or more`,
    );
  }
}

/**
 * Per-request round-robin for one VU, starting at `start` so VUs do not all begin on the first URL.
 * @param {number} instances
 * @param {number} start
 * @returns {{ next(): number }} the index of the next request's URL
 */
export function createRotation(instances, start) {
  let i = ((start % instances) + instances) % instances;
  return {
    next() {
      const at = i;
      i = (i + 1) % instances;
      return at;
    },
  };
}

/**
 * Name of the counter of one kind (`requests`, `admitted`, ...) for the instance at `index`. Counters per
 * instance, not tags, because k6's end-of-test data only carries tagged sub-metrics that have thresholds.
 * @param {number} index 0-based
 * @param {string} kind
 * @returns {string}
 */
export function instanceMetric(index, kind) {
  return `graphstats_instance_${index + 1}_${kind}`;
}

/**
 * Per-instance counts for the summary: `{ url, requests, admitted, ... }` for each URL, read from the
 * counters named by `instanceMetric` (0 when a counter never got a sample).
 * @param {{ metrics: Record<string, { values: Record<string, number> }> }} data k6's summary data
 * @param {string[]} urls
 * @param {string[]} kinds
 * @returns {Record<string, string | number>[]}
 */
export function instanceCounts(data, urls, kinds) {
  return urls.map((url, index) => {
    /** @type {Record<string, string | number>} */
    const row = { url };
    for (const kind of kinds) {
      const m = data.metrics[instanceMetric(index, kind)];
      row[kind] = m && typeof m.values.count === "number" ? m.values.count : 0;
    }
    return row;
  });
}
