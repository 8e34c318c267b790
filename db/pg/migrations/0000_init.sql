CREATE TABLE "bars" (
	"symbol" text NOT NULL,
	"interval" text NOT NULL,
	"ts" bigint NOT NULL,
	"offset_min" integer NOT NULL,
	"open" double precision NOT NULL,
	"high" double precision NOT NULL,
	"low" double precision NOT NULL,
	"close" double precision NOT NULL,
	"volume" double precision NOT NULL,
	CONSTRAINT "bars_symbol_interval_ts_pk" PRIMARY KEY("symbol","interval","ts")
);
--> statement-breakpoint
CREATE TABLE "identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"name" text,
	"created_at" bigint NOT NULL,
	"last_sign_in_at" bigint NOT NULL,
	CONSTRAINT "identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
CREATE TABLE "request_log" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "request_log_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"request_id" text NOT NULL,
	"user_id" text,
	"ts" bigint NOT NULL,
	"status" integer,
	"duration_ms" double precision,
	"counted" integer DEFAULT 0 NOT NULL,
	"code" text,
	"params" text DEFAULT '' NOT NULL,
	"boot_id" text
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"id_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"issuer" text NOT NULL,
	"csrf" text NOT NULL,
	"created_at" bigint NOT NULL,
	"last_seen_at" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "settings" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tokens" (
	"jti" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"issued_at" bigint NOT NULL,
	"expires_at" bigint NOT NULL,
	"revoked_at" bigint
);
--> statement-breakpoint
CREATE TABLE "unauthenticated_counts" (
	"minute" bigint NOT NULL,
	"code" text NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "unauthenticated_counts_minute_code_pk" PRIMARY KEY("minute","code")
);
--> statement-breakpoint
CREATE TABLE "universe_members" (
	"universe" text NOT NULL,
	"symbol" text NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "universe_members_universe_symbol_pk" PRIMARY KEY("universe","symbol")
);
--> statement-breakpoint
CREATE TABLE "universes" (
	"name" text PRIMARY KEY NOT NULL,
	"created_at" bigint NOT NULL,
	"source" text DEFAULT 'imported' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_days" (
	"user_id" text NOT NULL,
	"day" bigint NOT NULL,
	"admitted" integer NOT NULL,
	CONSTRAINT "usage_days_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text,
	"disabled" boolean DEFAULT false NOT NULL,
	"per_minute" integer,
	"per_day" integer,
	"created_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "universe_members" ADD CONSTRAINT "universe_members_universe_universes_name_fk" FOREIGN KEY ("universe") REFERENCES "public"."universes"("name") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "identities_user_idx" ON "identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "request_log_meter_idx" ON "request_log" USING btree ("user_id","counted","ts");--> statement-breakpoint
CREATE INDEX "request_log_open_idx" ON "request_log" USING btree ("boot_id") WHERE status IS NULL AND counted = 1;--> statement-breakpoint
CREATE INDEX "request_log_ts_idx" ON "request_log" USING btree ("ts");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "sessions_seen_idx" ON "sessions" USING btree ("last_seen_at");--> statement-breakpoint
CREATE INDEX "tokens_user_idx" ON "tokens" USING btree ("user_id");