CREATE TABLE "usage_person_weekly" (
	"week" date NOT NULL,
	"user_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"generations" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_person_weekly_week_user_id_tool_model_pk" PRIMARY KEY("week","user_id","tool","model")
);
--> statement-breakpoint
CREATE TABLE "usage_tool_daily" (
	"day" date NOT NULL,
	"tool" text NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"outcome" text NOT NULL,
	"error_code" text DEFAULT '' NOT NULL,
	"generations" integer DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_tool_daily_day_tool_model_outcome_error_code_pk" PRIMARY KEY("day","tool","model","outcome","error_code")
);
--> statement-breakpoint
CREATE TABLE "usage_tool_latency_daily" (
	"day" date NOT NULL,
	"tool" text NOT NULL,
	"bucket" smallint NOT NULL,
	"generations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_tool_latency_daily_tool_day_bucket_pk" PRIMARY KEY("tool","day","bucket")
);
--> statement-breakpoint
ALTER TABLE "usage_person_weekly" ADD CONSTRAINT "usage_person_weekly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_person_weekly_user_week_idx" ON "usage_person_weekly" USING btree ("user_id","week");--> statement-breakpoint
CREATE INDEX "usage_latency_daily_user_tool_day_idx" ON "usage_latency_daily" USING btree ("user_id","tool","day");
--> statement-breakpoint
-- The rollups of migration 0020 held about a row per record at a busy GEM's spread (a day,
-- person, tool, model and ending each), so the usage page read as many rows as there were
-- records (bench/admin-usage.md). The new ones leave the person out (usage_tool_daily,
-- usage_tool_latency_daily, where tool '' is every tool) or keep a week of a person
-- (usage_person_weekly); usage_daily stays for the allowances and a person's own figures,
-- usage_latency_daily for a table row's p50 and p95.
--
-- One function keeps all five, per statement, from the statement's rows (transition tables):
-- an insert adds its records, a delete (also a person's, through the cascade) takes them off,
-- an update does both, and a row that falls to no record is removed. A statement that records
-- many generations at once rolls them up in one pass.
-- The Monday of a day's ISO week: the key of usage_person_weekly (date arithmetic only).
CREATE FUNCTION gem_week_of(day date) RETURNS date
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT day - (extract(isodow from day)::int - 1) $$;--> statement-breakpoint
DROP TRIGGER "generations_usage_rollup" ON "generations";--> statement-breakpoint
DROP FUNCTION gem_usage_rollup();--> statement-breakpoint
CREATE FUNCTION gem_usage_rollup() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE usage_daily u SET generations = u.generations - d.n,
      prompt_tokens = u.prompt_tokens - d.p, completion_tokens = u.completion_tokens - d.c,
      latency_ms_sum = u.latency_ms_sum - d.l
    FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, user_id, generator AS tool,
        coalesce(model, '') AS model, outcome, coalesce(error_code, '') AS error_code, count(*) AS n,
        coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c,
        sum(latency_ms) AS l
      FROM old_rows GROUP BY 1, 2, 3, 4, 5, 6) d
    WHERE (u.day, u.user_id, u.tool, u.model, u.outcome, u.error_code)
      = (d.day, d.user_id, d.tool, d.model, d.outcome, d.error_code);
    DELETE FROM usage_daily u USING old_rows o
    WHERE (u.day, u.user_id, u.tool, u.model, u.outcome, u.error_code)
      = ((o.created_at AT TIME ZONE 'UTC')::date, o.user_id, o.generator, coalesce(o.model, ''),
         o.outcome, coalesce(o.error_code, ''))
      AND u.generations <= 0;

    UPDATE usage_latency_daily u SET generations = u.generations - d.n
    FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, user_id, generator AS tool,
        gem_latency_bucket(latency_ms) AS bucket, count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3, 4) d
    WHERE (u.day, u.user_id, u.tool, u.bucket) = (d.day, d.user_id, d.tool, d.bucket);
    DELETE FROM usage_latency_daily u USING old_rows o
    WHERE (u.day, u.user_id, u.tool, u.bucket)
      = ((o.created_at AT TIME ZONE 'UTC')::date, o.user_id, o.generator, gem_latency_bucket(o.latency_ms))
      AND u.generations <= 0;

    UPDATE usage_tool_daily u SET generations = u.generations - d.n,
      prompt_tokens = u.prompt_tokens - d.p, completion_tokens = u.completion_tokens - d.c,
      latency_ms_sum = u.latency_ms_sum - d.l
    FROM (SELECT (created_at AT TIME ZONE 'UTC')::date AS day, generator AS tool,
        coalesce(model, '') AS model, outcome, coalesce(error_code, '') AS error_code, count(*) AS n,
        coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c,
        sum(latency_ms) AS l
      FROM old_rows GROUP BY 1, 2, 3, 4, 5) d
    WHERE (u.day, u.tool, u.model, u.outcome, u.error_code)
      = (d.day, d.tool, d.model, d.outcome, d.error_code);
    DELETE FROM usage_tool_daily u USING old_rows o
    WHERE (u.day, u.tool, u.model, u.outcome, u.error_code)
      = ((o.created_at AT TIME ZONE 'UTC')::date, o.generator, coalesce(o.model, ''), o.outcome,
         coalesce(o.error_code, ''))
      AND u.generations <= 0;

    UPDATE usage_tool_latency_daily u SET generations = u.generations - d.n
    FROM (SELECT (o.created_at AT TIME ZONE 'UTC')::date AS day, t.tool,
        gem_latency_bucket(o.latency_ms) AS bucket, count(*) AS n
      FROM old_rows o CROSS JOIN LATERAL (VALUES (o.generator), ('')) t(tool) GROUP BY 1, 2, 3) d
    WHERE (u.tool, u.day, u.bucket) = (d.tool, d.day, d.bucket);
    DELETE FROM usage_tool_latency_daily u
    USING old_rows o CROSS JOIN LATERAL (VALUES (o.generator), ('')) t(tool)
    WHERE (u.tool, u.day, u.bucket)
      = (t.tool, (o.created_at AT TIME ZONE 'UTC')::date, gem_latency_bucket(o.latency_ms))
      AND u.generations <= 0;

    UPDATE usage_person_weekly u SET generations = u.generations - d.n, failed = u.failed - d.f,
      cancelled = u.cancelled - d.x, prompt_tokens = u.prompt_tokens - d.p,
      completion_tokens = u.completion_tokens - d.c
    FROM (SELECT gem_week_of((created_at AT TIME ZONE 'UTC')::date) AS week, user_id,
        generator AS tool, coalesce(model, '') AS model, count(*) AS n,
        count(*) FILTER (WHERE outcome = 'failed') AS f,
        count(*) FILTER (WHERE outcome = 'cancelled') AS x,
        coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c
      FROM old_rows GROUP BY 1, 2, 3, 4) d
    WHERE (u.week, u.user_id, u.tool, u.model) = (d.week, d.user_id, d.tool, d.model);
    DELETE FROM usage_person_weekly u USING old_rows o
    WHERE (u.week, u.user_id, u.tool, u.model)
      = (gem_week_of((o.created_at AT TIME ZONE 'UTC')::date), o.user_id, o.generator,
         coalesce(o.model, ''))
      AND u.generations <= 0;
  END IF;

  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO usage_daily AS u (day, user_id, tool, model, outcome, error_code, generations,
      prompt_tokens, completion_tokens, latency_ms_sum)
    SELECT (created_at AT TIME ZONE 'UTC')::date, user_id, generator, coalesce(model, ''), outcome,
      coalesce(error_code, ''), count(*), coalesce(sum(prompt_tokens), 0),
      coalesce(sum(completion_tokens), 0), sum(latency_ms)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (day, user_id, tool, model, outcome, error_code) DO UPDATE SET
      generations = u.generations + excluded.generations,
      prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = u.completion_tokens + excluded.completion_tokens,
      latency_ms_sum = u.latency_ms_sum + excluded.latency_ms_sum;

    INSERT INTO usage_latency_daily AS u (day, user_id, tool, bucket, generations)
    SELECT (created_at AT TIME ZONE 'UTC')::date, user_id, generator, gem_latency_bucket(latency_ms),
      count(*)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (day, user_id, tool, bucket) DO UPDATE SET
      generations = u.generations + excluded.generations;

    INSERT INTO usage_tool_daily AS u (day, tool, model, outcome, error_code, generations,
      prompt_tokens, completion_tokens, latency_ms_sum)
    SELECT (created_at AT TIME ZONE 'UTC')::date, generator, coalesce(model, ''), outcome,
      coalesce(error_code, ''), count(*), coalesce(sum(prompt_tokens), 0),
      coalesce(sum(completion_tokens), 0), sum(latency_ms)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5 ORDER BY 1, 2, 3, 4, 5
    ON CONFLICT (day, tool, model, outcome, error_code) DO UPDATE SET
      generations = u.generations + excluded.generations,
      prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = u.completion_tokens + excluded.completion_tokens,
      latency_ms_sum = u.latency_ms_sum + excluded.latency_ms_sum;

    INSERT INTO usage_tool_latency_daily AS u (tool, day, bucket, generations)
    SELECT t.tool, (n.created_at AT TIME ZONE 'UTC')::date, gem_latency_bucket(n.latency_ms), count(*)
    FROM new_rows n CROSS JOIN LATERAL (VALUES (n.generator), ('')) t(tool)
    GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (tool, day, bucket) DO UPDATE SET generations = u.generations + excluded.generations;

    INSERT INTO usage_person_weekly AS u (week, user_id, tool, model, generations, failed,
      cancelled, prompt_tokens, completion_tokens)
    SELECT gem_week_of((created_at AT TIME ZONE 'UTC')::date), user_id, generator,
      coalesce(model, ''), count(*), count(*) FILTER (WHERE outcome = 'failed'),
      count(*) FILTER (WHERE outcome = 'cancelled'), coalesce(sum(prompt_tokens), 0),
      coalesce(sum(completion_tokens), 0)
    FROM new_rows GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
    ON CONFLICT (week, user_id, tool, model) DO UPDATE SET
      generations = u.generations + excluded.generations,
      failed = u.failed + excluded.failed,
      cancelled = u.cancelled + excluded.cancelled,
      prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = u.completion_tokens + excluded.completion_tokens;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "generations_usage_rollup" AFTER INSERT ON "generations"
REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION gem_usage_rollup();--> statement-breakpoint
CREATE TRIGGER "generations_usage_rollup_update" AFTER UPDATE ON "generations"
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION gem_usage_rollup();--> statement-breakpoint
CREATE TRIGGER "generations_usage_rollup_delete" AFTER DELETE ON "generations"
REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION gem_usage_rollup();--> statement-breakpoint
-- The records written before this migration, rolled up once into the new rollups.
INSERT INTO usage_tool_daily (day, tool, model, outcome, error_code, generations, prompt_tokens,
  completion_tokens, latency_ms_sum)
SELECT (created_at AT TIME ZONE 'UTC')::date, generator, coalesce(model, ''), outcome,
  coalesce(error_code, ''), count(*), coalesce(sum(prompt_tokens), 0),
  coalesce(sum(completion_tokens), 0), sum(latency_ms)
FROM generations GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
INSERT INTO usage_tool_latency_daily (tool, day, bucket, generations)
SELECT t.tool, (g.created_at AT TIME ZONE 'UTC')::date, gem_latency_bucket(g.latency_ms), count(*)
FROM generations g CROSS JOIN LATERAL (VALUES (g.generator), ('')) t(tool)
GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO usage_person_weekly (week, user_id, tool, model, generations, failed, cancelled,
  prompt_tokens, completion_tokens)
SELECT gem_week_of((created_at AT TIME ZONE 'UTC')::date), user_id, generator, coalesce(model, ''),
  count(*), count(*) FILTER (WHERE outcome = 'failed'), count(*) FILTER (WHERE outcome = 'cancelled'),
  coalesce(sum(prompt_tokens), 0), coalesce(sum(completion_tokens), 0)
FROM generations GROUP BY 1, 2, 3, 4;
