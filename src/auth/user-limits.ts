/** Validation of per-user limit overrides (auth-policy.ts). */

/** Throws when a limit is not a positive integer (the same message on both databases). */
export function checkLimits(limits: { perMinute?: number; perDay?: number }): void {
  for (const [name, v] of [
    ["per-minute", limits.perMinute],
    ["per-day", limits.perDay],
  ] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 1)) {
      throw new Error(`${name} limit must be a positive integer, got '${v}'`);
    }
  }
}
