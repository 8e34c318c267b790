/**
 * A database liveness check whose healthy answer is reused for HEALTH_CHECK_MS (monotonic time, not
 * the injected clock); a failing answer is never reused. The check costs ~10% of /health's CPU
 * under load (bench/http.bench.ts) and every live request runs it too; a database that fails is
 * reported within 100 ms, which is what a liveness probe needs. One cache for both databases:
 * SQLite's check is synchronous, PostgreSQL's a ping that concurrent callers share.
 */
export const HEALTH_CHECK_MS = 100;

export function reuseHealthy(check: () => boolean): () => boolean;
export function reuseHealthy(check: () => Promise<boolean>): () => boolean | Promise<boolean>;
export function reuseHealthy(check: () => boolean | Promise<boolean>): () => boolean | Promise<boolean> {
  let healthyUntil = -Infinity;
  let pending: Promise<boolean> | null = null;
  const settle = (ok: boolean, at: number) => {
    if (ok) healthyUntil = at + HEALTH_CHECK_MS;
    return ok;
  };
  return () => {
    const now = performance.now();
    if (now < healthyUntil) return true;
    if (pending) return pending;
    const result = check();
    if (typeof result === "boolean") return settle(result, now);
    pending = result.then((ok) => {
      pending = null;
      return settle(ok, performance.now());
    });
    return pending;
  };
}
