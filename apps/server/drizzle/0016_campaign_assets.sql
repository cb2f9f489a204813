CREATE TABLE "campaign_asset_versions" (
	"asset_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"kind" text NOT NULL,
	"text" text NOT NULL,
	"author_id" uuid,
	"provenance" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_asset_versions_asset_id_version_pk" PRIMARY KEY("asset_id","version")
);
--> statement-breakpoint
CREATE TABLE "campaign_assets" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"campaign_id" uuid NOT NULL,
	"channel" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"current_version" integer DEFAULT 0 NOT NULL,
	"last_version" integer DEFAULT 0 NOT NULL,
	"generating_by" uuid,
	"generating_until" timestamp with time zone,
	"last_error" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_assets_status_check" CHECK ("campaign_assets"."status" in ('draft', 'in-review', 'approved'))
);
--> statement-breakpoint
ALTER TABLE "campaign_asset_versions" ADD CONSTRAINT "campaign_asset_versions_asset_id_campaign_assets_id_fk" FOREIGN KEY ("asset_id") REFERENCES "public"."campaign_assets"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_asset_versions" ADD CONSTRAINT "campaign_asset_versions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_assets" ADD CONSTRAINT "campaign_assets_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_assets" ADD CONSTRAINT "campaign_assets_generating_by_users_id_fk" FOREIGN KEY ("generating_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "campaign_assets_campaign_channel_key" ON "campaign_assets" USING btree ("campaign_id","channel");