CREATE TABLE "access_requests" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"note" text,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	"decided_by" uuid,
	"decision_reason" text,
	CONSTRAINT "access_requests_status_check" CHECK ("access_requests"."status" in ('pending', 'approved', 'declined'))
);
--> statement-breakpoint
CREATE TABLE "admin_settings" (
	"id" boolean PRIMARY KEY DEFAULT true NOT NULL,
	"default_monthly_tokens" bigint,
	"audit_retention_days" integer DEFAULT 365 NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "admin_settings_one_row" CHECK ("admin_settings"."id")
);
--> statement-breakpoint
CREATE TABLE "audit_events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "audit_events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"actor_user_id" uuid,
	"actor_email" text,
	"action" text NOT NULL,
	"target_user_id" uuid,
	"target" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"ip" text
);
--> statement-breakpoint
CREATE TABLE "model_prices" (
	"model" text PRIMARY KEY NOT NULL,
	"input_per_1k" numeric(14, 6) NOT NULL,
	"output_per_1k" numeric(14, 6) NOT NULL,
	"updated_by" uuid,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"day" date NOT NULL,
	"user_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"model" text DEFAULT '' NOT NULL,
	"outcome" text NOT NULL,
	"error_code" text DEFAULT '' NOT NULL,
	"generations" integer DEFAULT 0 NOT NULL,
	"prompt_tokens" bigint DEFAULT 0 NOT NULL,
	"completion_tokens" bigint DEFAULT 0 NOT NULL,
	"latency_ms_sum" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_daily_day_user_id_tool_model_outcome_error_code_pk" PRIMARY KEY("day","user_id","tool","model","outcome","error_code")
);
--> statement-breakpoint
CREATE TABLE "usage_latency_daily" (
	"day" date NOT NULL,
	"user_id" uuid NOT NULL,
	"tool" text NOT NULL,
	"bucket" smallint NOT NULL,
	"generations" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "usage_latency_daily_day_user_id_tool_bucket_pk" PRIMARY KEY("day","user_id","tool","bucket")
);
--> statement-breakpoint
CREATE TABLE "user_allowances" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"monthly_tokens" bigint NOT NULL,
	"set_by" uuid,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "app_access_grants" ADD COLUMN "granted_by" uuid;--> statement-breakpoint
ALTER TABLE "app_access_grants" ADD COLUMN "reason" text;--> statement-breakpoint
ALTER TABLE "app_access_grants" ADD COLUMN "revoked_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "app_access_grants" ADD COLUMN "revoked_by" uuid;--> statement-breakpoint
ALTER TABLE "app_access_grants" ADD COLUMN "revoke_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "roles" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "had_access" boolean;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "admin_settings" ADD CONSTRAINT "admin_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "audit_events" ADD CONSTRAINT "audit_events_target_user_id_users_id_fk" FOREIGN KEY ("target_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "model_prices" ADD CONSTRAINT "model_prices_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_latency_daily" ADD CONSTRAINT "usage_latency_daily_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_allowances" ADD CONSTRAINT "user_allowances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_allowances" ADD CONSTRAINT "user_allowances_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "access_requests_one_pending_key" ON "access_requests" USING btree ("user_id") WHERE "access_requests"."status" = 'pending';--> statement-breakpoint
CREATE INDEX "access_requests_status_created_idx" ON "access_requests" USING btree ("status","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "access_requests_user_created_idx" ON "access_requests" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_at_idx" ON "audit_events" USING btree ("at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "audit_events_action_at_idx" ON "audit_events" USING btree ("action","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "usage_daily_user_day_idx" ON "usage_daily" USING btree ("user_id","day");--> statement-breakpoint
ALTER TABLE "app_access_grants" ADD CONSTRAINT "app_access_grants_granted_by_users_id_fk" FOREIGN KEY ("granted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_access_grants" ADD CONSTRAINT "app_access_grants_revoked_by_users_id_fk" FOREIGN KEY ("revoked_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "generations_created_idx" ON "generations" USING btree ("created_at" DESC NULLS LAST);--> statement-breakpoint
INSERT INTO "admin_settings" ("id") VALUES (true) ON CONFLICT DO NOTHING;--> statement-breakpoint
-- The latency bucket of a call: k where 50 ms × 1.1^(k-1) < ms <= 50 ms × 1.1^k (0 for 50 ms
-- or less, at most 120). contracts/admin-usage.ts reads a bucket back as its upper bound.
CREATE FUNCTION gem_latency_bucket(ms integer) RETURNS smallint
LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE WHEN ms <= 50 THEN 0::smallint
    ELSE least(120, ceil(ln(ms / 50.0) / ln(1.1) - 1e-9))::smallint END
$$;--> statement-breakpoint
-- The usage rollups are kept as each generation is recorded: one upsert per table, in the
-- insert's own transaction, so a figure on the usage page is always its records' sum.
CREATE FUNCTION gem_usage_rollup() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO usage_daily AS u (day, user_id, tool, model, outcome, error_code, generations,
    prompt_tokens, completion_tokens, latency_ms_sum)
  VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.user_id, NEW.generator,
    coalesce(NEW.model, ''), NEW.outcome, coalesce(NEW.error_code, ''), 1,
    coalesce(NEW.prompt_tokens, 0), coalesce(NEW.completion_tokens, 0), NEW.latency_ms)
  ON CONFLICT (day, user_id, tool, model, outcome, error_code) DO UPDATE SET
    generations = u.generations + 1,
    prompt_tokens = u.prompt_tokens + excluded.prompt_tokens,
    completion_tokens = u.completion_tokens + excluded.completion_tokens,
    latency_ms_sum = u.latency_ms_sum + excluded.latency_ms_sum;
  INSERT INTO usage_latency_daily AS l (day, user_id, tool, bucket, generations)
  VALUES ((NEW.created_at AT TIME ZONE 'UTC')::date, NEW.user_id, NEW.generator,
    gem_latency_bucket(NEW.latency_ms), 1)
  ON CONFLICT (day, user_id, tool, bucket) DO UPDATE SET generations = l.generations + 1;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER generations_usage_rollup AFTER INSERT ON generations
FOR EACH ROW EXECUTE FUNCTION gem_usage_rollup();--> statement-breakpoint
-- The records written before this migration, rolled up once.
INSERT INTO usage_daily (day, user_id, tool, model, outcome, error_code, generations,
  prompt_tokens, completion_tokens, latency_ms_sum)
SELECT (created_at AT TIME ZONE 'UTC')::date, user_id, generator, coalesce(model, ''), outcome,
  coalesce(error_code, ''), count(*), coalesce(sum(prompt_tokens), 0),
  coalesce(sum(completion_tokens), 0), sum(latency_ms)
FROM generations
GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO usage_latency_daily (day, user_id, tool, bucket, generations)
SELECT (created_at AT TIME ZONE 'UTC')::date, user_id, generator, gem_latency_bucket(latency_ms),
  count(*)
FROM generations
GROUP BY 1, 2, 3, 4;
