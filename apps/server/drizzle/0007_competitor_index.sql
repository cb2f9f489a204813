CREATE TABLE "competitor_crawls" (
	"competitor_key" text PRIMARY KEY NOT NULL,
	"last_started_at" timestamp with time zone,
	"last_finished_at" timestamp with time zone,
	"last_error" text,
	"pages_last_round" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "competitor_pages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"competitor_key" text NOT NULL,
	"url" text NOT NULL,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"body_text" text DEFAULT '' NOT NULL,
	"published_at" timestamp with time zone,
	"sample" boolean DEFAULT false NOT NULL,
	"etag" text,
	"last_modified" text,
	"fetched_at" timestamp with time zone DEFAULT now() NOT NULL,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "competitor_pages_url_key" ON "competitor_pages" USING btree ("url");--> statement-breakpoint
CREATE INDEX "competitor_pages_search_idx" ON "competitor_pages" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "competitor_pages_competitor_published_idx" ON "competitor_pages" USING btree ("competitor_key","published_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "competitor_pages_published_idx" ON "competitor_pages" USING btree ("published_at" DESC NULLS LAST);