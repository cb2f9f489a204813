CREATE TABLE "market_feed_items" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "market_feed_items_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"feed_key" text NOT NULL,
	"guid" text,
	"canonical_url" text,
	"title" text NOT NULL,
	"url" text NOT NULL,
	"image_url" text,
	"published_at" timestamp with time zone,
	"content_text" text DEFAULT '' NOT NULL,
	"authors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"first_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sort_at" timestamp with time zone NOT NULL,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_feeds" (
	"key" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"etag" text,
	"last_modified" text,
	"content_hash" text,
	"last_attempt_at" timestamp with time zone,
	"last_success_at" timestamp with time zone,
	"last_failure_at" timestamp with time zone,
	"failing_since" timestamp with time zone,
	"last_error" text,
	"consecutive_failures" integer DEFAULT 0 NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "market_feed_items" ADD CONSTRAINT "market_feed_items_feed_key_market_feeds_key_fk" FOREIGN KEY ("feed_key") REFERENCES "public"."market_feeds"("key") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_feed_items_guid_key" ON "market_feed_items" USING btree ("feed_key","guid") WHERE "market_feed_items"."guid" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "market_feed_items_canonical_url_key" ON "market_feed_items" USING btree ("feed_key","canonical_url") WHERE "market_feed_items"."canonical_url" is not null;--> statement-breakpoint
CREATE INDEX "market_feed_items_page_idx" ON "market_feed_items" USING btree ("feed_key","sort_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "market_feed_items_sort_at_idx" ON "market_feed_items" USING btree ("sort_at");--> statement-breakpoint
CREATE INDEX "market_feed_items_search_idx" ON "market_feed_items" USING gin ("search_vector");