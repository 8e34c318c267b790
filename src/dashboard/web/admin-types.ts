/** The JSON of /dashboard/api/admin/* as the console reads it (field names as the server sends them). */

export type LimitSource = "user" | "plan" | "default";

export interface Counts {
  admitted: number;
  refused: number;
  uncounted: number;
}

export interface AdminUser {
  id: string;
  email: string | null;
  name: string | null;
  plan: string;
  limits: { per_minute: number; per_day: number; source_per_minute: LimitSource; source_per_day: LimitSource };
  own_limits: { per_minute: number | null; per_day: number | null };
  disabled: boolean;
  admin: boolean;
  live_tokens: number;
  today: Counts;
  last_30_days: Counts;
}

export interface UserPage {
  users: AdminUser[];
  total: number;
  offset: number;
  limit: number;
}

export interface AdminPlan {
  name: string;
  per_minute: number;
  per_day: number;
  users: number;
  /** ISO; null for the built-in `free` while it has no row. */
  updated_at: string | null;
}

export interface UsageDayRow extends Counts {
  day: string;
  refunded: number;
  server_errors: number;
}

export interface UsageOverview {
  days: UsageDayRow[];
  top_users: { user: string; email: string | null; admitted: number; compute_ms: number }[];
  refused_by_code: { code: string; requests: number }[];
  compute_by_user: { user: string; compute_ms: number }[];
  totals: Counts & { refunded: number; server_errors: number; compute_ms: number };
}

export interface AdminUniverse {
  name: string;
  symbols: number;
  intervals: string[];
  last_bar: string | null;
  stale: boolean;
  /** The Data panel's sentence for it ("Fresh: newest 1d bar 1.2 days old"), where the server gives it. */
  freshness?: string;
  data_source?: string;
}

export interface AuditEntry {
  id: number | string;
  ts: string;
  actor: string;
  action: string;
  target: string;
  before: unknown;
  after: unknown;
}

export interface AuditPage {
  entries: AuditEntry[];
  next_before_id: number | string | null;
}
