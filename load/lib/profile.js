// Which checks a run applies, as the conformance kit does: `core` holds a target only to what the
// interface binds, so it is fair to any implementation of it; `full` adds graph-stats' own forms.

/** @typedef {"core" | "full"} Profile */

/** The profiles a script takes, the fair one first (the default). */
export const PROFILES = ["core", "full"];

/**
 * The profile from `PROFILE`: `core` (the default) or `full`.
 * @param {Record<string, string | undefined>} env
 * @returns {Profile}
 */
export function profileFrom(env) {
  const raw = (env.PROFILE || "core").trim().toLowerCase();
  if (raw !== "core" && raw !== "full") {
    throw new Error(`PROFILE must be core (only what the interface binds) or full (graph-stats' own forms too), got '${env.PROFILE}'`);
  }
  return raw;
}

/**
 * The thresholds of a script: `common` in every profile, `full` added in the full profile only, so a
 * core run has no threshold on a metric it never feeds.
 * @param {Profile} profile
 * @param {Record<string, any>} common
 * @param {Record<string, any>} full
 * @returns {Record<string, any>}
 */
export function thresholdsFor(profile, common, full) {
  return profile === "full" ? Object.assign({}, common, full) : common;
}
