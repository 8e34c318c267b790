// Detects response times that grow over a soak: each VU compares the median of every time bucket with
// the median of its first bucket after warm-up. A floor keeps sub-millisecond jitter from looking like growth.

/**
 * @param {number[]} values non-empty
 * @returns {number}
 */
export function median(values) {
  const s = values.slice().sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * @param {{ bucketMs: number, warmupMs: number, floorMs: number, minSamples?: number }} opts
 */
export function createGrowthTracker(opts) {
  const minSamples = opts.minSamples === undefined ? 5 : opts.minSamples;
  /** @type {number | null} */
  let baseline = null;
  let bucket = -1;
  /** @type {number[]} */
  let samples = [];

  /**
   * Closes the current bucket; returns its growth ratio against the baseline, or null for the
   * baseline bucket itself and for buckets with too few samples to judge.
   * @returns {number | null}
   */
  function close() {
    if (samples.length < minSamples) return null;
    const m = median(samples);
    if (baseline === null) {
      baseline = m;
      return null;
    }
    return (m + opts.floorMs) / (baseline + opts.floorMs);
  }

  /**
   * Adds one response time, `elapsedMs` after the test started.
   * @param {number} elapsedMs
   * @param {number} durationMs
   * @returns {number | null} the ratio of the bucket this sample closed, if it closed one
   */
  function add(elapsedMs, durationMs) {
    if (elapsedMs < opts.warmupMs) return null;
    const b = Math.floor((elapsedMs - opts.warmupMs) / opts.bucketMs);
    /** @type {number | null} */
    let ratio = null;
    if (b !== bucket) {
      if (bucket >= 0) ratio = close();
      bucket = b;
      samples = [];
    }
    samples.push(durationMs);
    return ratio;
  }

  return { add };
}
