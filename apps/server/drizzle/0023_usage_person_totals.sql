-- The usage page's year by week read every person's weekly rows per tool and model (96,000 at
-- 1,000,000 records) to count the table's rows and to rank the top users (bench/admin-usage.md).
-- Two narrower weekly rollups keep those figures: per person and tool, every model together (one
-- row per row of the weekly table: the count is a count of index entries), and per person and
-- model, every tool together (the top users, priced per model). The trigger function of 0021 is
-- replaced by the same function keeping these two as well; the records so far are rolled up from
-- usage_person_weekly, which already holds them per week, person, tool and model.
CREATE TABLE "usage_person_model_weekly" (
	"week" date NOT NULL,
	"user_id" uuid NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"generations" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_person_model_weekly_week_user_id_model_pk" PRIMARY KEY("week","user_id","model")
);
--> statement-breakpoint
CREATE TABLE "usage_person_tool_weekly" (
	"week" date NOT NULL,
	"user_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"generations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_person_tool_weekly_week_user_id_tool_pk" PRIMARY KEY("week","user_id","tool")
);
--> statement-breakpoint
ALTER TABLE "usage_person_model_weekly" ADD CONSTRAINT "usage_person_model_weekly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_person_tool_weekly" ADD CONSTRAINT "usage_person_tool_weekly_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_person_model_weekly_user_week_idx" ON "usage_person_model_weekly" USING btree ("user_id","week");--> statement-breakpoint
CREATE INDEX "usage_person_tool_weekly_user_week_idx" ON "usage_person_tool_weekly" USING btree ("user_id","week");--> statement-breakpoint
CREATE OR REPLACE FUNCTION gem_usage_rollup() RETURNS trigger
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

    UPDATE usage_person_tool_weekly u SET generations = u.generations - d.n
    FROM (SELECT gem_week_of((created_at AT TIME ZONE 'UTC')::date) AS week, user_id,
        generator AS tool, count(*) AS n
      FROM old_rows GROUP BY 1, 2, 3) d
    WHERE (u.week, u.user_id, u.tool) = (d.week, d.user_id, d.tool);
    DELETE FROM usage_person_tool_weekly u USING old_rows o
    WHERE (u.week, u.user_id, u.tool)
      = (gem_week_of((o.created_at AT TIME ZONE 'UTC')::date), o.user_id, o.generator)
      AND u.generations <= 0;

    UPDATE usage_person_model_weekly u SET generations = u.generations - d.n, failed = u.failed - d.f,
      cancelled = u.cancelled - d.x, prompt_tokens = u.prompt_tokens - d.p,
      completion_tokens = u.completion_tokens - d.c
    FROM (SELECT gem_week_of((created_at AT TIME ZONE 'UTC')::date) AS week, user_id,
        coalesce(model, '') AS model, count(*) AS n,
        count(*) FILTER (WHERE outcome = 'failed') AS f,
        count(*) FILTER (WHERE outcome = 'cancelled') AS x,
        coalesce(sum(prompt_tokens), 0) AS p, coalesce(sum(completion_tokens), 0) AS c
      FROM old_rows GROUP BY 1, 2, 3) d
    WHERE (u.week, u.user_id, u.model) = (d.week, d.user_id, d.model);
    DELETE FROM usage_person_model_weekly u USING old_rows o
    WHERE (u.week, u.user_id, u.model)
      = (gem_week_of((o.created_at AT TIME ZONE 'UTC')::date), o.user_id, coalesce(o.model, ''))
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

    INSERT INTO usage_person_tool_weekly AS u (week, user_id, tool, generations)
    SELECT gem_week_of((created_at AT TIME ZONE 'UTC')::date), user_id, generator, count(*)
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (week, user_id, tool) DO UPDATE SET generations = u.generations + excluded.generations;

    INSERT INTO usage_person_model_weekly AS u (week, user_id, model, generations, failed,
      cancelled, prompt_tokens, completion_tokens)
    SELECT gem_week_of((created_at AT TIME ZONE 'UTC')::date), user_id, coalesce(model, ''),
      count(*), count(*) FILTER (WHERE outcome = 'failed'),
      count(*) FILTER (WHERE outcome = 'cancelled'), coalesce(sum(prompt_tokens), 0),
      coalesce(sum(completion_tokens), 0)
    FROM new_rows GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
    ON CONFLICT (week, user_id, model) DO UPDATE SET
      generations = u.generations + excluded.generations,
      failed = u.failed + excluded.failed,
      cancelled = u.cancelled + excluded.cancelled,
      prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
      completion_tokens = u.completion_tokens + excluded.completion_tokens;
  END IF;
  RETURN NULL;
END
$$;--> statement-breakpoint
INSERT INTO usage_person_tool_weekly (week, user_id, tool, generations)
SELECT week, user_id, tool, sum(generations) FROM usage_person_weekly GROUP BY 1, 2, 3;--> statement-breakpoint
INSERT INTO usage_person_model_weekly (week, user_id, model, generations, failed, cancelled,
  prompt_tokens, completion_tokens)
SELECT week, user_id, model, sum(generations), sum(failed), sum(cancelled), sum(prompt_tokens),
  sum(completion_tokens)
FROM usage_person_weekly GROUP BY 1, 2, 3;
