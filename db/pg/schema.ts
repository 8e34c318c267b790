import { pgTable, text, integer, bigint, doublePrecision, boolean, primaryKey, index } from "drizzle-orm/pg-core";

const epochMs = (name: string) => bigint(name, { mode: "number" });

/** Key/value settings the service keeps for itself (generated JWT secret, data version). */
export const settings = pgTable("settings", {
  key: text("key").primaryKey(),
  value: text("value").notNull(),
});

/** A named, ordered list of symbols. */
export const universes = pgTable("universes", {
  name: text("name").primaryKey(),
  createdAt: epochMs("created_at").notNull(),
  /** 'synthetic' for the embedded sample, 'imported' otherwise; shown as diagnostics.data_source. */
  source: text("source").notNull().default("imported"),
});

export const universeMembers = pgTable(
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
export const symbolMetadata = pgTable("symbol_metadata", {
  symbol: text("symbol").primaryKey(),
  name: text("name"),
  sector: text("sector"),
  industry: text("industry"),
  updatedAt: epochMs("updated_at").notNull(),
});

/** OHLCV bars. `ts` is the bar's start instant; `offsetMin` the exchange-local UTC offset in minutes. */
export const bars = pgTable(
  "bars",
  {
    symbol: text("symbol").notNull(),
    interval: text("interval").notNull(),
    ts: epochMs("ts").notNull(),
    offsetMin: integer("offset_min").notNull(),
    open: doublePrecision("open").notNull(),
    high: doublePrecision("high").notNull(),
    low: doublePrecision("low").notNull(),
    close: doublePrecision("close").notNull(),
    volume: doublePrecision("volume").notNull(),
  },
  (t) => [primaryKey({ columns: [t.symbol, t.interval, t.ts] })],
);

/** API users: per-user overrides of the plan's limits, the plan (null = free), the admin flag (db/sqlite/schema.ts). */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    email: text("email"),
    disabled: boolean("disabled").notNull().default(false),
    perMinute: integer("per_minute"),
    perDay: integer("per_day"),
    createdAt: epochMs("created_at").notNull(),
    plan: text("plan"),
    admin: boolean("admin").notNull().default(false),
  },
  (t) => [index("users_email_idx").on(t.email), index("users_plan_idx").on(t.plan)],
);

/** Named limit sets; `free` needs no row (db/sqlite/schema.ts). */
export const plans = pgTable("plans", {
  name: text("name").primaryKey(),
  perMinute: integer("per_minute").notNull(),
  perDay: integer("per_day").notNull(),
  updatedAt: epochMs("updated_at").notNull(),
});

/** Every operator action: who, what, when, before and after (JSON text). */
export const adminAudit = pgTable(
  "admin_audit",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    ts: epochMs("ts").notNull(),
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
export const tokens = pgTable(
  "tokens",
  {
    jti: text("jti").primaryKey(),
    userId: text("user_id").notNull(),
    issuedAt: epochMs("issued_at").notNull(),
    expiresAt: epochMs("expires_at").notNull(),
    revokedAt: epochMs("revoked_at"),
  },
  (t) => [index("tokens_user_idx").on(t.userId)],
);

/**
 * Audit log of every live request, and the meter: rows with counted = 1 are the admitted
 * requests that consume the user's windows. A refunded (5xx) request keeps its row with counted = 0.
 */
export const requestLog = pgTable(
  "request_log",
  {
    id: bigint("id", { mode: "number" }).primaryKey().generatedAlwaysAsIdentity(),
    requestId: text("request_id").notNull(),
    userId: text("user_id"),
    ts: epochMs("ts").notNull(),
    status: integer("status"),
    durationMs: doublePrecision("duration_ms"),
    counted: integer("counted").notNull().default(0),
    code: text("code"),
    params: text("params").notNull().default(""),
    /** The server process that admitted the request (src/metering/boot.ts); see db/sqlite/schema.ts. */
    bootId: text("boot_id"),
    costMs: doublePrecision("cost_ms"),
    plan: text("plan"),
  },
  // One index besides the primary key, as in db/sqlite/schema.ts (each index is written by every live request).
  (t) => [index("request_log_meter_idx").on(t.userId, t.counted, t.ts)],
);

/** Each server process's watermark of settled rows; see db/sqlite/schema.ts. */
export const boots = pgTable("boots", {
  bootId: text("boot_id").primaryKey(),
  lowId: bigint("low_id", { mode: "number" }).notNull(),
  seenAt: epochMs("seen_at").notNull(),
});

/** Unauthenticated and invalid-token requests, counted per UTC minute and error code (docs/api.md § The audit log). */
export const unauthenticatedCounts = pgTable(
  "unauthenticated_counts",
  {
    /** Epoch ms of the start of the UTC minute. */
    minute: epochMs("minute").notNull(),
    code: text("code").notNull(),
    count: integer("count").notNull(),
  },
  (t) => [primaryKey({ columns: [t.minute, t.code] })],
);

/** Admitted requests per user and UTC day, kept in the same transaction as request_log. */
export const usageDays = pgTable(
  "usage_days",
  {
    userId: text("user_id").notNull(),
    /** Epoch ms of the UTC midnight that starts the day. */
    day: epochMs("day").notNull(),
    admitted: integer("admitted").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.day] })],
);

/** Dashboard sign-ins: an identity-provider account (issuer, subject) mapped to the API user. */
export const identities = pgTable(
  "identities",
  {
    issuer: text("issuer").notNull(),
    subject: text("subject").notNull(),
    userId: text("user_id").notNull(),
    name: text("name"),
    createdAt: epochMs("created_at").notNull(),
    lastSignInAt: epochMs("last_sign_in_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.issuer, t.subject] }), index("identities_user_idx").on(t.userId)],
);

/** Dashboard sessions, server-side; only the SHA-256 of the cookie's id is stored. */
export const sessions = pgTable(
  "sessions",
  {
    idHash: text("id_hash").primaryKey(),
    userId: text("user_id").notNull(),
    issuer: text("issuer").notNull(),
    csrf: text("csrf").notNull(),
    createdAt: epochMs("created_at").notNull(),
    lastSeenAt: epochMs("last_seen_at").notNull(),
  },
  (t) => [index("sessions_user_idx").on(t.userId), index("sessions_seen_idx").on(t.lastSeenAt)],
);

/** Pending sign-ins a callback has used, by the SHA-256 of their state, until their cookie expires (db/sqlite/schema.ts). */
export const spentSignIns = pgTable(
  "spent_sign_ins",
  {
    stateHash: text("state_hash").primaryKey(),
    expiresAt: epochMs("expires_at").notNull(),
  },
  (t) => [index("spent_sign_ins_expires_idx").on(t.expiresAt)],
);
