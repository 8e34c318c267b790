// The JSON summary every script writes from `handleSummary`, built as a pure function of k6's summary data.

/**
 * @typedef {{ type?: string, values: Record<string, number>, thresholds?: Record<string, { ok: boolean }> }} SummaryMetric
 * @typedef {{ metrics: Record<string, SummaryMetric>, state?: { testRunDurationMs?: number } }} SummaryData
 */

/**
 * `baseUrl` is the URL, or the comma-separated list, the run targeted; `instances` the per-instance
 * counts of a run over several URLs (lib/targets.js `instanceCounts`).
 * @typedef {{ script: string, baseUrl: string, instances?: Record<string, string | number>[], extra?: Record<string, unknown> }} SummaryMeta
 */

/** Metrics copied into every summary besides the `graphstats_*` ones and those with thresholds. */
const ALWAYS = ["http_reqs", "http_req_duration", "http_req_failed", "checks", "iterations", "dropped_iterations"];

/**
 * Condenses k6's end-of-test data into the graph-stats load summary.
 * @param {SummaryData} data
 * @param {SummaryMeta} meta
 */
export function buildSummary(data, meta) {
  /** @type {{ metric: string, threshold: string, ok: boolean }[]} */
  const thresholds = [];
  /** @type {Record<string, Record<string, number>>} */
  const metrics = {};
  for (const name of Object.keys(data.metrics).sort()) {
    const m = data.metrics[name];
    const t = m.thresholds || {};
    for (const expr of Object.keys(t)) thresholds.push({ metric: name, threshold: expr, ok: t[expr].ok });
    if (name.indexOf("graphstats_") === 0 || ALWAYS.indexOf(name) >= 0 || Object.keys(t).length > 0) metrics[name] = m.values;
  }
  const failed = thresholds.filter((t) => !t.ok);
  return {
    script: meta.script,
    base_url: meta.baseUrl,
    instances: meta.instances || null,
    passed: failed.length === 0,
    failed_thresholds: failed.map((t) => `${t.metric}: ${t.threshold}`),
    duration_s: data.state && data.state.testRunDurationMs ? Math.round(data.state.testRunDurationMs / 100) / 10 : null,
    thresholds,
    metrics,
    extra: meta.extra || {},
  };
}

/**
 * A few readable lines for stdout (k6's own text summary needs a remote import, which is not allowed).
 * @param {ReturnType<typeof buildSummary>} s
 * @returns {string}
 */
export function summaryText(s) {
  const lines = [`graph-stats load: ${s.script} against ${s.base_url} — ${s.passed ? "PASSED" : "FAILED"}`];
  for (const t of s.thresholds) lines.push(`  ${t.ok ? "ok  " : "FAIL"} ${t.metric}: ${t.threshold}`);
  const d = s.metrics.http_req_duration;
  if (d) lines.push(`  http_req_duration p95=${fmt(d["p(95)"])}ms p99=${fmt(d["p(99)"])}ms max=${fmt(d.max)}ms`);
  const r = s.metrics.http_reqs;
  if (r) lines.push(`  http_reqs ${r.count} (${fmt(r.rate)}/s)`);
  for (const row of s.instances || []) {
    lines.push(
      `  instance ${row.url}: ${Object.keys(row)
        .filter((k) => k !== "url")
        .map((k) => `${k} ${row[k]}`)
        .join(", ")}`,
    );
  }
  for (const key of Object.keys(s.extra)) lines.push(`  ${key}: ${JSON.stringify(s.extra[key])}`);
  return `${lines.join("\n")}\n`;
}

/**
 * @param {number | undefined} n
 * @returns {string}
 */
function fmt(n) {
  return typeof n === "number" ? n.toFixed(2) : "-";
}

/**
 * The clone's `load/out/` folder (committed, its contents gitignored), found from a stack trace that names
 * this file (k6 names modules by `file://` URL, bun by path); null when the trace does not name it.
 * @param {string} stack
 * @returns {string | null}
 */
export function cloneOutDir(stack) {
  const m = /(file:\/\/)?((?:[A-Za-z]:)?[\\/][^\s()]*?)[\\/]load[\\/]lib[\\/]summary\.js/.exec(stack);
  if (!m) return null;
  let root = m[2];
  if (m[1]) {
    root = decodeURIComponent(root);
    if (/^\/[A-Za-z]:/.test(root)) root = root.slice(1);
  }
  return `${root}/load/out`;
}

/**
 * Where the JSON summary goes, never the working directory: `SUMMARY` (a file path), else
 * `<SUMMARY_DIR>/<script>-summary.json` (the directory must exist: k6 does not create it), else
 * `<script>-summary.json` in the clone's `load/out/` (gitignored; `stack` finds it, see `cloneOutDir`).
 * @param {string} script
 * @param {Record<string, string | undefined>} env k6's `__ENV` (which includes the system environment)
 * @param {string} [stack] a stack trace from inside this module; taken here when not given
 * @returns {string}
 */
export function summaryPath(script, env, stack) {
  if (env.SUMMARY) return env.SUMMARY;
  if (env.SUMMARY_DIR) return `${env.SUMMARY_DIR.replace(/[\\/]+$/, "")}/${script}-summary.json`;
  const dir = cloneOutDir(stack === undefined ? String(new Error("where am I").stack) : stack);
  return `${dir || "load/out"}/${script}-summary.json`;
}

/**
 * The object `handleSummary` returns: the JSON file (at `summaryPath`) and the text on stdout, which
 * ends by naming the file.
 * @param {SummaryData} data
 * @param {SummaryMeta} meta
 * @param {Record<string, string | undefined>} env
 * @returns {Record<string, string>}
 */
export function summaryOutputs(data, meta, env) {
  const s = buildSummary(data, meta);
  const path = summaryPath(meta.script, env);
  /** @type {Record<string, string>} */
  const out = { stdout: `${summaryText(s)}  summary JSON: ${path}\n` };
  out[path] = `${JSON.stringify(s, null, 2)}\n`;
  return out;
}

/**
 * Ratio of late to early p95 latency from two trends, for the soak summary; null when either is empty.
 * @param {SummaryData} data
 * @param {string} early
 * @param {string} late
 * @returns {number | null}
 */
export function p95Growth(data, early, late) {
  const e = data.metrics[early];
  const l = data.metrics[late];
  if (!e || !l || !(e.values["p(95)"] > 0) || typeof l.values["p(95)"] !== "number") return null;
  return Math.round((l.values["p(95)"] / e.values["p(95)"]) * 1000) / 1000;
}
