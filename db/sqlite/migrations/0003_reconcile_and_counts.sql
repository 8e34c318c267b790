CREATE TABLE `unauthenticated_counts` (
	`minute` integer NOT NULL,
	`code` text NOT NULL,
	`count` integer NOT NULL,
	PRIMARY KEY(`minute`, `code`)
);
--> statement-breakpoint
ALTER TABLE `request_log` ADD `boot_id` text;--> statement-breakpoint
CREATE INDEX `request_log_open_idx` ON `request_log` (`boot_id`) WHERE status IS NULL AND counted = 1;--> statement-breakpoint
CREATE INDEX `request_log_ts_idx` ON `request_log` (`ts`);