CREATE TABLE "brief_messages" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"session_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "brief_messages_role_check" CHECK ("brief_messages"."role" in ('system', 'user', 'assistant'))
);
--> statement-breakpoint
CREATE TABLE "brief_sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"turn_id" uuid,
	"turn_lease_until" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "finished_briefs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"session_id" uuid NOT NULL,
	"title" text NOT NULL,
	"brief_data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "brief_messages" ADD CONSTRAINT "brief_messages_session_id_brief_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."brief_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "brief_sessions" ADD CONSTRAINT "brief_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finished_briefs" ADD CONSTRAINT "finished_briefs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finished_briefs" ADD CONSTRAINT "finished_briefs_session_id_brief_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."brief_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "brief_messages_session_seq_key" ON "brief_messages" USING btree ("session_id","seq");--> statement-breakpoint
CREATE INDEX "brief_sessions_user_activity_idx" ON "brief_sessions" USING btree ("user_id","last_activity_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "finished_briefs_session_key" ON "finished_briefs" USING btree ("session_id");--> statement-breakpoint
CREATE INDEX "finished_briefs_user_created_idx" ON "finished_briefs" USING btree ("user_id","created_at" DESC NULLS LAST);