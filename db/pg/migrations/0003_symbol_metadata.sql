CREATE TABLE "symbol_metadata" (
	"symbol" text PRIMARY KEY NOT NULL,
	"name" text,
	"sector" text,
	"industry" text,
	"updated_at" bigint NOT NULL
);
