CREATE TABLE "competitor_lexemes" (
	"lexeme" text COLLATE "C" PRIMARY KEY NOT NULL
);
--> statement-breakpoint
INSERT INTO "competitor_lexemes" ("lexeme")
SELECT DISTINCT "lexeme" FROM "competitor_pages", unnest(tsvector_to_array("search_vector")) AS "lexeme" ORDER BY 1;
--> statement-breakpoint
-- Every statement that writes pages adds their new lexemes, in the same transaction (a search that
-- sees a page sees its lexemes), in order (two writers adding the same new lexemes wait for each
-- other instead of deadlocking). Lexemes are never removed: one no page has any more matches nothing.
CREATE FUNCTION "competitor_pages_add_lexemes"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "competitor_lexemes" ("lexeme")
  SELECT DISTINCT "lexeme" FROM "new_pages", unnest(tsvector_to_array("new_pages"."search_vector")) AS "lexeme"
  ORDER BY 1
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "competitor_pages_lexemes_on_insert" AFTER INSERT ON "competitor_pages"
REFERENCING NEW TABLE AS "new_pages" FOR EACH STATEMENT EXECUTE FUNCTION "competitor_pages_add_lexemes"();
--> statement-breakpoint
CREATE TRIGGER "competitor_pages_lexemes_on_update" AFTER UPDATE ON "competitor_pages"
REFERENCING NEW TABLE AS "new_pages" FOR EACH STATEMENT EXECUTE FUNCTION "competitor_pages_add_lexemes"();
