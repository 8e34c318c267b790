/** The catalogue of checks, in run order: scenarios first, envelope sweeps last (they judge what was seen). */
import type { Check } from "../lib/check.ts";
import type { Profile } from "../lib/types.ts";
import { AUTH_CHECKS } from "./auth.ts";
import { DAILY_CHECKS } from "./daily.ts";
import { ENVELOPE_CHECKS } from "./envelope.ts";
import { LIMIT_CHECKS } from "./limits.ts";
import { LIVE_CHECKS } from "./live.ts";
import { PUBLIC_CHECKS } from "./public.ts";

export const ALL_CHECKS: Check[] = [...PUBLIC_CHECKS, ...LIVE_CHECKS, ...AUTH_CHECKS, ...LIMIT_CHECKS, ...DAILY_CHECKS, ...ENVELOPE_CHECKS];

/** Checks of a profile (full includes core), optionally narrowed by ids or `prefix.` patterns. */
export function selectChecks(profile: Profile, only?: string[]): Check[] {
  const inProfile = ALL_CHECKS.filter((c) => profile === "full" || c.profile === "core");
  if (!only) return inProfile;
  return inProfile.filter((c) => only.some((o) => (o.endsWith(".") ? c.id.startsWith(o) : c.id === o)));
}

/** Ids in `only` that name no check of the catalogue (a usage error). */
export function unknownIds(only: string[]): string[] {
  return only.filter((o) => !ALL_CHECKS.some((c) => (o.endsWith(".") ? c.id.startsWith(o) : c.id === o)));
}
