DROP INDEX "market_feed_items_sort_at_idx";--> statement-breakpoint
ALTER TABLE "market_feed_items" ADD COLUMN "left_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "market_feed_items_left_at_idx" ON "market_feed_items" USING btree ("left_at") WHERE "market_feed_items"."left_at" is not null;--> statement-breakpoint
-- Items older than the retention period used to be left out at ingestion. Forget every feed's
-- validators and content hash so the next round reads and stores each document in full.
UPDATE "market_feeds" SET "etag" = NULL, "last_modified" = NULL, "content_hash" = NULL;
