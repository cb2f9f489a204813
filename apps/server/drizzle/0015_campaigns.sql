CREATE TABLE "campaign_activity" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"detail" text DEFAULT '' NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_brief_versions" (
	"campaign_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"brief_data" jsonb NOT NULL,
	"author_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_brief_versions_campaign_id_version_pk" PRIMARY KEY("campaign_id","version")
);
--> statement-breakpoint
CREATE TABLE "campaign_editors" (
	"campaign_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_editors_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"finished_brief_id" uuid,
	"name" text NOT NULL,
	"status" text DEFAULT 'planning' NOT NULL,
	"sharing" text DEFAULT 'private' NOT NULL,
	"brief_version" integer DEFAULT 1 NOT NULL,
	"crm_campaign_id" text,
	"landing_url" text,
	"duplicated_from_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaigns_status_check" CHECK ("campaigns"."status" in ('planning', 'active', 'completed', 'archived')),
	CONSTRAINT "campaigns_sharing_check" CHECK ("campaigns"."sharing" in ('private', 'team'))
);
--> statement-breakpoint
ALTER TABLE "campaign_activity" ADD CONSTRAINT "campaign_activity_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_activity" ADD CONSTRAINT "campaign_activity_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_brief_versions" ADD CONSTRAINT "campaign_brief_versions_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_brief_versions" ADD CONSTRAINT "campaign_brief_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_editors" ADD CONSTRAINT "campaign_editors_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_editors" ADD CONSTRAINT "campaign_editors_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_finished_brief_id_finished_briefs_id_fk" FOREIGN KEY ("finished_brief_id") REFERENCES "public"."finished_briefs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_duplicated_from_id_campaigns_id_fk" FOREIGN KEY ("duplicated_from_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_activity_campaign_at_idx" ON "campaign_activity" USING btree ("campaign_id","at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "campaign_editors_user_idx" ON "campaign_editors" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "campaigns_owner_updated_idx" ON "campaigns" USING btree ("owner_id","updated_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_owner_brief_key" ON "campaigns" USING btree ("owner_id","finished_brief_id");--> statement-breakpoint
CREATE INDEX "campaigns_team_updated_idx" ON "campaigns" USING btree ("updated_at" DESC NULLS LAST) WHERE "campaigns"."sharing" = 'team';