CREATE TABLE "competitor_page_terms" (
	"id" uuid PRIMARY KEY NOT NULL,
	"competitor_key" text NOT NULL,
	"published_at" timestamp with time zone,
	"search_vector" "tsvector" NOT NULL
);
--> statement-breakpoint
-- The vector inline, uncompressed, up to a full page (longer ones are compressed, then moved out
-- of line, as before): checking a row then reads no TOAST (bench/competitor-search.md).
ALTER TABLE "competitor_page_terms" ALTER COLUMN "search_vector" SET STORAGE MAIN;
--> statement-breakpoint
ALTER TABLE "competitor_page_terms" SET (toast_tuple_target = 8160);
--> statement-breakpoint
INSERT INTO "competitor_page_terms" ("id", "competitor_key", "published_at", "search_vector")
SELECT "id", "competitor_key", "published_at", "search_vector" FROM "competitor_pages";
--> statement-breakpoint
ALTER TABLE "competitor_page_terms" ADD CONSTRAINT "competitor_page_terms_id_competitor_pages_id_fk" FOREIGN KEY ("id") REFERENCES "public"."competitor_pages"("id") ON DELETE cascade ON UPDATE cascade;--> statement-breakpoint
CREATE INDEX "competitor_page_terms_search_idx" ON "competitor_page_terms" USING gin ("search_vector");--> statement-breakpoint
CREATE INDEX "competitor_page_terms_competitor_published_idx" ON "competitor_page_terms" USING btree ("competitor_key","published_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "competitor_page_terms_published_idx" ON "competitor_page_terms" USING btree ("published_at" DESC NULLS LAST);--> statement-breakpoint
-- The search reads competitor_page_terms now; the crawler still lists a competitor's pages by
-- competitor_pages_competitor_published_idx.
DROP INDEX "competitor_pages_search_idx";--> statement-breakpoint
DROP INDEX "competitor_pages_published_idx";--> statement-breakpoint
-- Whatever writes pages writes their terms in the same statement's transaction (a search that sees
-- a page's terms sees the page); a page's delete removes them (the foreign key's cascade). An update
-- that changes none of the four columns (a crawl that found the page unchanged) writes nothing.
CREATE FUNCTION "competitor_pages_insert_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "competitor_page_terms" ("id", "competitor_key", "published_at", "search_vector")
  SELECT "id", "competitor_key", "published_at", "search_vector" FROM "new_pages";
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE FUNCTION "competitor_pages_update_terms"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "competitor_page_terms" AS t
  SET "competitor_key" = n."competitor_key", "published_at" = n."published_at", "search_vector" = n."search_vector"
  FROM "new_pages" AS n
  WHERE t."id" = n."id"
    AND (t."competitor_key", t."published_at", t."search_vector")
      IS DISTINCT FROM (n."competitor_key", n."published_at", n."search_vector");
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "competitor_pages_terms_on_insert" AFTER INSERT ON "competitor_pages"
REFERENCING NEW TABLE AS "new_pages" FOR EACH STATEMENT EXECUTE FUNCTION "competitor_pages_insert_terms"();
--> statement-breakpoint
CREATE TRIGGER "competitor_pages_terms_on_update" AFTER UPDATE ON "competitor_pages"
REFERENCING NEW TABLE AS "new_pages" FOR EACH STATEMENT EXECUTE FUNCTION "competitor_pages_update_terms"();
