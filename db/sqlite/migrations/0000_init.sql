CREATE TABLE `bars` (
	`symbol` text NOT NULL,
	`interval` text NOT NULL,
	`ts` integer NOT NULL,
	`offset_min` integer NOT NULL,
	`open` real NOT NULL,
	`high` real NOT NULL,
	`low` real NOT NULL,
	`close` real NOT NULL,
	`volume` real NOT NULL,
	PRIMARY KEY(`symbol`, `interval`, `ts`)
);
--> statement-breakpoint
CREATE TABLE `request_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`request_id` text NOT NULL,
	`user_id` text,
	`ts` integer NOT NULL,
	`status` integer,
	`duration_ms` real,
	`counted` integer DEFAULT 0 NOT NULL,
	`code` text,
	`params` text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `request_log_meter_idx` ON `request_log` (`user_id`,`counted`,`ts`);--> statement-breakpoint
CREATE TABLE `settings` (
	`key` text PRIMARY KEY NOT NULL,
	`value` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `tokens` (
	`jti` text PRIMARY KEY NOT NULL,
	`user_id` text NOT NULL,
	`issued_at` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE INDEX `tokens_user_idx` ON `tokens` (`user_id`);--> statement-breakpoint
CREATE TABLE `universe_members` (
	`universe` text NOT NULL,
	`symbol` text NOT NULL,
	`position` integer NOT NULL,
	PRIMARY KEY(`universe`, `symbol`),
	FOREIGN KEY (`universe`) REFERENCES `universes`(`name`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE TABLE `universes` (
	`name` text PRIMARY KEY NOT NULL,
	`created_at` integer NOT NULL,
	`source` text DEFAULT 'imported' NOT NULL
);
--> statement-breakpoint
CREATE TABLE `users` (
	`id` text PRIMARY KEY NOT NULL,
	`email` text,
	`disabled` integer DEFAULT false NOT NULL,
	`per_minute` integer,
	`per_day` integer,
	`created_at` integer NOT NULL
);
