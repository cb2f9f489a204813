CREATE TABLE "scheduled_tasks" (
	"name" text PRIMARY KEY NOT NULL,
	"leased_by" text,
	"lease_until" timestamp with time zone,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_error" text
);
--> statement-breakpoint
ALTER TABLE "market_feeds" DROP COLUMN "lease_owner";--> statement-breakpoint
ALTER TABLE "market_feeds" DROP COLUMN "lease_until";