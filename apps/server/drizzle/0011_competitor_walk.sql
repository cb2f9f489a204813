DROP INDEX "competitor_page_terms_competitor_published_idx";--> statement-breakpoint
DROP INDEX "competitor_page_terms_published_idx";--> statement-breakpoint
CREATE INDEX "competitor_page_terms_competitor_published_idx" ON "competitor_page_terms" USING btree ("competitor_key","published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "competitor_page_terms_published_idx" ON "competitor_page_terms" USING btree ("published_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- The walk of a competitor search (index-search.ts): the newest `lim` pages of the window that
-- match `q`, newest first (then by id), read in the index's order and each checked
-- (ts_match_vq: the test behind @@, which the GIN index does not serve), so that it stops after
-- `lim` matches or at the window's start. A function, so that this plan is fixed: planned with the
-- rest of a search, PostgreSQL guesses a third of the window matches (it cannot tell for a
-- function), and when that guess is near the limit it reads the whole window into a bitmap and
-- sorts it instead (17 against 9 ms for a common word in 90 days; which plan it took changed with
-- each ANALYZE: bench/competitor-search.md). Without bitmap scans and sorts, the index's order is
-- the only plan left. One competitor walks that competitor's index.
CREATE FUNCTION "competitor_walk"("q" tsquery, "keys" text[], "since" timestamptz, "lim" integer)
RETURNS TABLE ("id" uuid, "competitor_key" text, "published_at" timestamptz)
LANGUAGE plpgsql STABLE
SET enable_bitmapscan = off
SET enable_sort = off
AS $$
BEGIN
  IF cardinality("keys") = 1 THEN
    RETURN QUERY
    SELECT t."id", t."competitor_key", t."published_at" FROM "competitor_page_terms" AS t
    WHERE t."competitor_key" = "keys"[1] AND t."published_at" >= "since"
      AND ts_match_vq(t."search_vector", "q")
    ORDER BY t."published_at" DESC NULLS LAST, t."id" DESC NULLS LAST
    LIMIT "lim";
  ELSE
    RETURN QUERY
    SELECT t."id", t."competitor_key", t."published_at" FROM "competitor_page_terms" AS t
    WHERE t."published_at" >= "since" AND t."competitor_key" = ANY ("keys")
      AND ts_match_vq(t."search_vector", "q")
    ORDER BY t."published_at" DESC NULLS LAST, t."id" DESC NULLS LAST
    LIMIT "lim";
  END IF;
END
$$;
