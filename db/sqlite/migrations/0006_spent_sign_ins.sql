CREATE TABLE `spent_sign_ins` (
	`state_hash` text PRIMARY KEY NOT NULL,
	`expires_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `spent_sign_ins_expires_idx` ON `spent_sign_ins` (`expires_at`);