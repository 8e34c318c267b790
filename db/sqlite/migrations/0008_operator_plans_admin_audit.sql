CREATE TABLE `admin_audit` (
	`id` integer PRIMARY KEY NOT NULL,
	`ts` integer NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`target` text NOT NULL,
	`before` text,
	`after` text
);
--> statement-breakpoint
CREATE INDEX `admin_audit_target_idx` ON `admin_audit` (`target`,`id`);--> statement-breakpoint
CREATE TABLE `plans` (
	`name` text PRIMARY KEY NOT NULL,
	`per_minute` integer NOT NULL,
	`per_day` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE `request_log` ADD `cost_ms` real;--> statement-breakpoint
ALTER TABLE `request_log` ADD `plan` text;--> statement-breakpoint
ALTER TABLE `users` ADD `plan` text;--> statement-breakpoint
ALTER TABLE `users` ADD `admin` integer DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX `users_email_idx` ON `users` (`email`);--> statement-breakpoint
CREATE INDEX `users_plan_idx` ON `users` (`plan`);