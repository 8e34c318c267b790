-- request_log as a plain rowid table: AUTOINCREMENT's sqlite_sequence update cost 6-17 µs of every admitted
-- request's ~90 µs transaction (docs/performance.md § The live endpoint against its floor). The log is copied
-- with its ids; later ids are max(id) + 1, and retention keeps the newest row, so an id is never issued twice
-- from here on (src/metering/retention.ts). Copying takes time on a large log: stop the old version first.
PRAGMA foreign_keys=OFF;--> statement-breakpoint
CREATE TABLE `__new_request_log` (
	`id` integer PRIMARY KEY NOT NULL,
	`request_id` text NOT NULL,
	`user_id` text,
	`ts` integer NOT NULL,
	`status` integer,
	`duration_ms` real,
	`counted` integer DEFAULT 0 NOT NULL,
	`code` text,
	`params` text DEFAULT '' NOT NULL,
	`boot_id` text
);
--> statement-breakpoint
INSERT INTO `__new_request_log`("id", "request_id", "user_id", "ts", "status", "duration_ms", "counted", "code", "params", "boot_id") SELECT "id", "request_id", "user_id", "ts", "status", "duration_ms", "counted", "code", "params", "boot_id" FROM `request_log`;--> statement-breakpoint
DROP TABLE `request_log`;--> statement-breakpoint
ALTER TABLE `__new_request_log` RENAME TO `request_log`;--> statement-breakpoint
PRAGMA foreign_keys=ON;--> statement-breakpoint
CREATE INDEX `request_log_meter_idx` ON `request_log` (`user_id`,`counted`,`ts`);