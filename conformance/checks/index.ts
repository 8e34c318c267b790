/** The catalogue of checks, in run order: scenarios first, envelope sweeps last (they judge what was seen). */
import type { Check } from "../lib/check.ts";
import type { Profile } from "../lib/types.ts";
import { AUTH_CHECKS } from "./auth.ts";
import { DAILY_CHECKS } from "./daily.ts";
import { ENVELOPE_CHECKS } from "./envelope.ts";
import { FUZZ_CHECKS } from "../fuzz/checks.ts";
import { LIMIT_CHECKS } from "./limits.ts";
import { LIVE_CHECKS } from "./live.ts";
import { PUBLIC_CHECKS } from "./public.ts";
import { SIGNAL_CHECKS } from "./signal.ts";
import { UNIVERSE_CHECKS } from "./universes.ts";

/** Fuzz checks come last: the envelope sweeps judge only the scenarios' exchanges, and fuzzing spends whatever budget is left. */
export const ALL_CHECKS: Check[] = [
  ...PUBLIC_CHECKS,
  ...LIVE_CHECKS,
  ...AUTH_CHECKS,
  ...LIMIT_CHECKS,
  ...DAILY_CHECKS,
  ...UNIVERSE_CHECKS,
  ...SIGNAL_CHECKS,
  ...ENVELOPE_CHECKS,
  ...FUZZ_CHECKS,
];

/** Whether a check belongs to a run of `profile` (full includes core; fuzz is alone, or added to either by --fuzz). */
export function inProfile(check: Check, profile: Profile, fuzz = false): boolean {
  if (check.profile === "fuzz") return profile === "fuzz" || fuzz;
  return profile === "full" || (profile === "core" && check.profile === "core");
}

/** Checks of a profile, optionally narrowed by ids or `prefix.` patterns. */
export function selectChecks(profile: Profile, only?: string[], fuzz = false): Check[] {
  const selected = ALL_CHECKS.filter((c) => inProfile(c, profile, fuzz));
  if (!only) return selected;
  return selected.filter((c) => only.some((o) => (o.endsWith(".") ? c.id.startsWith(o) : c.id === o)));
}

/** Ids in `only` that name no check of the catalogue (a usage error). */
export function unknownIds(only: string[]): string[] {
  return only.filter((o) => !ALL_CHECKS.some((c) => (o.endsWith(".") ? c.id.startsWith(o) : c.id === o)));
}
