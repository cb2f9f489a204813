CREATE TABLE "ai_call_leases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"released_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "generations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"generator" text NOT NULL,
	"input" jsonb NOT NULL,
	"output" jsonb,
	"model" text,
	"prompt_tokens" integer,
	"completion_tokens" integer,
	"latency_ms" integer NOT NULL,
	"outcome" text NOT NULL,
	"error_code" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "generations_outcome_check" CHECK ("generations"."outcome" in ('succeeded', 'failed', 'cancelled'))
);
--> statement-breakpoint
ALTER TABLE "ai_call_leases" ADD CONSTRAINT "ai_call_leases_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "generations" ADD CONSTRAINT "generations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_call_leases_user_started_idx" ON "ai_call_leases" USING btree ("user_id","started_at");--> statement-breakpoint
CREATE INDEX "generations_user_generator_created_idx" ON "generations" USING btree ("user_id","generator","created_at" DESC NULLS LAST);