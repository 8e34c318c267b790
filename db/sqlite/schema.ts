import { sqliteTable, text, integer, real, primaryKey, index } from "drizzle-orm/sqlite-core";

/** Key/value settings the service keeps for itself (generated JWT secret, data version). */
export const settings = sqliteTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** A named, ordered list of symbols. */
export const universes = sqliteTable("universes", {
  name: text("name").primaryKey(),
  createdAt: integer("created_at").notNull(),
  /** 'synthetic' for the embedded sample, 'imported' otherwise; shown as diagnostics.data_source. */
  source: text("source").notNull().default("imported"),
});

export const universeMembers = sqliteTable(
  "universe_members",
  {
    universe: text("universe")
      .notNull()
      .references(() => universes.name),
    symbol: text("symbol").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [primaryKey({ columns: [t.universe, t.symbol] })],
);

/**
 * What is known of a symbol beyond its bars (`import-metadata`): shared by every universe that lists
 * it, like its bars. Empty fields are stored as null.
 */
export const symbolMetadata = sqliteTable("symbol_metadata", {
  symbol: text("symbol").primaryKey(),
  name: text("name"),
  sector: text("sector"),
  industry: text("industry"),
  updatedAt: integer("updated_at").notNull(),
});

/** OHLCV bars. `ts` is the bar's start instant; `offsetMin` the exchange-local UTC offset in minutes. */
export const bars = sqliteTable(
  "bars",
  {
    symbol: text("symbol").notNull(),
    interval: text("interval").notNull(),
    ts: integer("ts").notNull(),
    offsetMin: integer("offset_min").notNull(),
    open: real("open").notNull(),
    high: real("high").notNull(),
    low: real("low").notNull(),
    close: real("close").notNull(),
    volume: real("volume").notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.interval, t.ts] })],
);

/**
 * API users. Limits are per-user overrides of the user's plan; null means the plan's (and a plan
 * without a row, `free` by default, means the configured global default). `plan` null is `free`.
 */
export const users = sqliteTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email"),
    disabled: integer("disabled", { mode: "boolean" }).notNull().default(false),
    perMinute: integer("per_minute"),
    perDay: integer("per_day"),
    createdAt: integer("created_at").notNull(),
    plan: text("plan"),
    /** May use the console and the admin API (set by `user admin`). */
    admin: integer("admin", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [index("users_email_idx").on(t.email), index("users_plan_idx").on(t.plan)],
);

/** Named limit sets (src/admin/plans.ts); `free` needs no row: it is the configured defaults until redefined. */
export const plans = sqliteTable("plans", {
  name: text("name").primaryKey(),
  perMinute: integer("per_minute").notNull(),
  perDay: integer("per_day").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** Every operator action, from the CLI or the console: who, what, when, the record before and after (JSON). */
export const adminAudit = sqliteTable(
  "admin_audit",
  {
    id: integer("id").primaryKey(),
    ts: integer("ts").notNull(),
    actor: text("actor").notNull(),
    action: text("action").notNull(),
    target: text("target").notNull(),
    before: text("before"),
    after: text("after"),
  },
  // Written by operators' actions only, so indexes cost nothing on the request path: the console
  // pages the log newest first by target and by actor (bench/admin-console.bench.ts).
  (t) => [index("admin_audit_target_idx").on(t.target, t.id), index("admin_audit_actor_idx").on(t.actor, t.id)],
);

/** Tokens minted by the CLI (for `token list`) and revocations by jti (also of tokens minted elsewhere). */
export const tokens = sqliteTable(
  "tokens",
  {
    jti: text("jti").primaryKey(),
    userId: text("user_id").notNull(),
    issuedAt: integer("issued_at").notNull(),
    expiresAt: integer("expires_at").notNull(),
    revokedAt: integer("revoked_at"),
  },
  (t) => [index("tokens_user_idx").on(t.userId)],
);

/**
 * Audit log of every live request, and the meter: rows with counted = 1 are the admitted
 * requests that consume the user's windows. A refunded (5xx) request keeps its row with counted = 0.
 */
export const requestLog = sqliteTable(
  "request_log",
  {
    // A rowid without AUTOINCREMENT (migration 0005): its sqlite_sequence update cost 6-17 µs of each
    // ~90 µs admit. Ids still never repeat: retention always keeps the newest row (metering/retention.ts).
    id: integer("id").primaryKey(),
    requestId: text("request_id").notNull(),
    userId: text("user_id"),
    ts: integer("ts").notNull(),
    status: integer("status"),
    durationMs: real("duration_ms"),
    counted: integer("counted").notNull().default(0),
    code: text("code"),
    params: text("params").notNull().default(""),
    /**
     * The server process that admitted the request (src/metering/boot.ts). A row still open
     * (counted, no status) whose process is gone was never answered: it is refunded at start.
     */
    bootId: text("boot_id"),
    /** An admitted request's estimated cost (ms of one core, request-cost.ts) and its user's plan then: the billing export's. */
    costMs: real("cost_ms"),
    plan: text("plan"),
  },
  // One index besides the rowid: every index is written by each live request's commit (a ts index
  // and a partial index of open rows cost 15 and 10-15 µs of each, bench/live-cpu.ts). Rows by
  // time are found by bisecting the rowid (src/metering/log-ids.ts: ids grow with ts), open rows
  // from each process's watermark in boots.
  (t) => [index("request_log_meter_idx").on(t.userId, t.counted, t.ts)],
);

/**
 * Each server process that admits requests (src/metering/boot.ts) and its watermark: every row it
 * admitted with an id below low_id is settled (answered or refunded). At start, a process that is
 * gone has its open rows at or above low_id refunded (src/metering/reconcile.ts) — a range of the
 * rowid, not an index every request writes.
 */
export const boots = sqliteTable("boots", {
  /** The boot id; '' for rows written before boot ids. */
  bootId: text("boot_id").primaryKey(),
  lowId: integer("low_id").notNull(),
  /** When the watermark last moved. */
  seenAt: integer("seen_at").notNull(),
});

/**
 * Unauthenticated and invalid-token requests, counted per UTC minute and error code rather than
 * one audit row each, so a flood of them cannot grow the database (docs/api.md § The audit log).
 */
export const unauthenticatedCounts = sqliteTable(
  "unauthenticated_counts",
  {
    /** Epoch ms of the start of the UTC minute. */
    minute: integer("minute").notNull(),
    code: text("code").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.code] })],
);

/**
 * Admitted requests per user and UTC day, kept in the same transaction as request_log, so the
 * daily quota is one primary-key read instead of a count over the day's rows (a user with a
 * raised quota can have hundreds of thousands).
 */
export const usageDays = sqliteTable(
  "usage_days",
  {
    userId: text("user_id").notNull(),
    /** Epoch ms of the UTC midnight that starts the day. */
    day: integer("day").notNull(),
    admitted: integer("admitted").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/**
 * Dashboard sign-ins: an identity-provider account (issuer, subject) mapped to the API user
 * whose tokens it generates (README.md § Dashboard). The first sign-in creates both.
 */
export const identities = sqliteTable(
  "identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id").notNull(),
    name: text("name"),
    createdAt: integer("created_at").notNull(),
    lastSignInAt: integer("last_sign_in_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("identities_user_idx").on(t.userId)],
);

/**
 * Dashboard sessions, server-side. The cookie carries a random id; only its SHA-256 is stored, so
 * a copy of the database cannot be replayed as cookies. `csrf` is the per-session CSRF token.
 */
export const sessions = sqliteTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id").notNull(),
    issuer: text("issuer").notNull(),
    csrf: text("csrf").notNull(),
    createdAt: integer("created_at").notNull(),
    lastSeenAt: integer("last_seen_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_seen_idx").on(t.lastSeenAt)],
);

/**
 * Pending sign-ins a callback has used, by the SHA-256 of their state, until their cookie expires:
 * the first callback anywhere in the deployment spends one (an INSERT that a second one finds taken),
 * so a replay on another process never reaches the provider's token endpoint again.
 */
export const spentSignIns = sqliteTable(
  "spent_sign_ins",
  {
    stateHash: text("state_hash").primaryKey(),
    expiresAt: integer("expires_at").notNull(),
  },
  (t) => [index("spent_sign_ins_expires_idx").on(t.expiresAt)],
);
