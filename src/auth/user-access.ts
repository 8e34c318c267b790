/**
 * What a known user may do with the API, one rule for a bearer token and for the dashboard's own
 * query: a disabled user is refused 403, and limits are the user's own or the defaults.
 */
import type { Limits } from "../metering/windows.ts";
import { StatusError } from "../status-error.ts";

export interface UserAccess {
  disabled: boolean;
  perMinute: number | null;
  perDay: number | null;
  /** The plan's limits, read with the user (null: the plan has no row, so the defaults). */
  planPerMinute: number | null;
  planPerDay: number | null;
}

/**
 * The user's own limits, else its plan's, else the configured defaults (`free` without a row):
 * read with the user on every request, so a change of plan or limits holds from the next request
 * on every instance.
 */
export function effectiveLimits(user: UserAccess, defaults: Limits): Limits {
  return {
    perMinute: user.perMinute ?? user.planPerMinute ?? defaults.perMinute,
    perDay: user.perDay ?? user.planPerDay ?? defaults.perDay,
  };
}

/** Refuses a disabled user (403), naming it and who can enable it. */
export function assertEnabled(userId: string, user: UserAccess): void {
  if (user.disabled) throw new StatusError(403, "FORBIDDEN", `user '${userId}' is disabled; ask the operator to enable it`);
}
