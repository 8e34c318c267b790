CREATE TABLE `boots` (
	`boot_id` text PRIMARY KEY NOT NULL,
	`low_id` integer NOT NULL,
	`seen_at` integer NOT NULL
);
--> statement-breakpoint
-- Rows open when this runs (admitted, not yet answered) keep a watermark at their lowest id, so a
-- process that dies with them still has them refunded at the next start (src/metering/reconcile*.ts).
-- Stop every server process of an older version before starting this one: their later rows are not tracked.
INSERT INTO `boots` (`boot_id`, `low_id`, `seen_at`)
  SELECT coalesce(`boot_id`, ''), min(`id`), 0 FROM `request_log`
  WHERE `status` IS NULL AND `counted` = 1 GROUP BY coalesce(`boot_id`, '');--> statement-breakpoint
DROP INDEX `request_log_open_idx`;--> statement-breakpoint
DROP INDEX `request_log_ts_idx`;