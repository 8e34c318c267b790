CREATE TABLE `usage_days` (
	`user_id` text NOT NULL,
	`day` integer NOT NULL,
	`admitted` integer NOT NULL,
	PRIMARY KEY(`user_id`, `day`)
);
--> statement-breakpoint
-- Backfill from the audit log so an upgraded database keeps today's quota exact.
INSERT INTO `usage_days` (`user_id`, `day`, `admitted`)
SELECT `user_id`, (`ts` / 86400000) * 86400000, count(*) FROM `request_log`
WHERE `counted` = 1 AND `user_id` IS NOT NULL GROUP BY 1, 2;
