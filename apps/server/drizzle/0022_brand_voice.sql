-- The brand voice (issue 31): every save of the profile is a version; every generation records
-- the version it was written under and what the style check found in it; a rollup per day and
-- tool keeps the findings the usage page charts.
CREATE TABLE "brand_profile_versions" (
	"version" integer PRIMARY KEY NOT NULL,
	"profile" jsonb NOT NULL,
	"forms" jsonb NOT NULL,
	"note" text,
	"saved_by" uuid,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brand_profile_versions_version_check" CHECK ("version" > 0)
);--> statement-breakpoint
ALTER TABLE "brand_profile_versions" ADD CONSTRAINT "brand_profile_versions_saved_by_users_id_fk" FOREIGN KEY ("saved_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "brand_version" integer;--> statement-breakpoint
ALTER TABLE "generations" ADD COLUMN "style" jsonb;--> statement-breakpoint
CREATE TABLE "style_daily" (
	"day" date NOT NULL,
	"tool" text NOT NULL,
	"checked" integer NOT NULL,
	"score_sum" integer NOT NULL,
	"banned" integer NOT NULL,
	"preferred" integer NOT NULL,
	"name" integer NOT NULL,
	"disclaimer" integer NOT NULL,
	"limit" integer NOT NULL,
	"quotes" integer NOT NULL,
	"all_caps" integer NOT NULL,
	"exclamation" integer NOT NULL,
	CONSTRAINT "style_daily_day_tool_pk" PRIMARY KEY("day","tool")
);--> statement-breakpoint
-- A generation's style check ({ score, counts: { rule: n } }) added to its day and tool, in the
-- insert's own transaction, as the usage rollups are.
CREATE FUNCTION gem_style_rollup() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO style_daily AS s (day, tool, checked, score_sum, banned, preferred, name, disclaimer,
    "limit", quotes, all_caps, exclamation)
  VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.generator, 1,
    round(coalesce((NEW.style->>'score')::numeric, 100))::integer,
    coalesce((NEW.style->'counts'->>'banned')::integer, 0),
    coalesce((NEW.style->'counts'->>'preferred')::integer, 0),
    coalesce((NEW.style->'counts'->>'name')::integer, 0),
    coalesce((NEW.style->'counts'->>'disclaimer')::integer, 0),
    coalesce((NEW.style->'counts'->>'limit')::integer, 0),
    coalesce((NEW.style->'counts'->>'quotes')::integer, 0),
    coalesce((NEW.style->'counts'->>'all-caps')::integer, 0),
    coalesce((NEW.style->'counts'->>'exclamation')::integer, 0))
  ON CONFLICT (day, tool) DO UPDATE SET
    checked = s.checked + 1,
    score_sum = s.score_sum + excluded.score_sum,
    banned = s.banned + excluded.banned,
    preferred = s.preferred + excluded.preferred,
    name = s.name + excluded.name,
    disclaimer = s.disclaimer + excluded.disclaimer,
    "limit" = s."limit" + excluded."limit",
    quotes = s.quotes + excluded.quotes,
    all_caps = s.all_caps + excluded.all_caps,
    exclamation = s.exclamation + excluded.exclamation;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER generations_style_rollup AFTER INSERT ON generations
FOR EACH ROW WHEN (NEW.style IS NOT NULL) EXECUTE FUNCTION gem_style_rollup();
