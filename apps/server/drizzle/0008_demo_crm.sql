CREATE TABLE "crm_accounts" (
	"id" char(18) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"website" text,
	"industry" text,
	"sub_industry" text,
	"country" text,
	"city" text,
	"employees" integer
);
--> statement-breakpoint
CREATE TABLE "crm_campaign_members" (
	"id" char(18) PRIMARY KEY NOT NULL,
	"campaign_id" char(18) NOT NULL,
	"contact_id" char(18) NOT NULL,
	"status" text NOT NULL,
	"has_responded" boolean DEFAULT false NOT NULL,
	"responded_at" date
);
--> statement-breakpoint
CREATE TABLE "crm_campaigns" (
	"id" char(18) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"search_name" text NOT NULL,
	"type" text,
	"status" text NOT NULL,
	"start_date" date,
	"objective" text,
	"line_of_service" text
);
--> statement-breakpoint
CREATE TABLE "crm_contacts" (
	"id" char(18) PRIMARY KEY NOT NULL,
	"account_id" char(18),
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text,
	"title" text,
	"role" text,
	"work_area" text
);
--> statement-breakpoint
CREATE TABLE "crm_seed" (
	"name" text PRIMARY KEY NOT NULL,
	"version" integer NOT NULL,
	"seeded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"anchor_date" date NOT NULL
);
--> statement-breakpoint
ALTER TABLE "crm_campaign_members" ADD CONSTRAINT "crm_campaign_members_campaign_id_crm_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."crm_campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_campaign_members" ADD CONSTRAINT "crm_campaign_members_contact_id_crm_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."crm_contacts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "crm_contacts" ADD CONSTRAINT "crm_contacts_account_id_crm_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."crm_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "crm_accounts_sub_industry_idx" ON "crm_accounts" USING btree ("sub_industry");--> statement-breakpoint
CREATE UNIQUE INDEX "crm_campaign_members_campaign_contact_key" ON "crm_campaign_members" USING btree ("campaign_id","contact_id");--> statement-breakpoint
CREATE INDEX "crm_campaign_members_contact_idx" ON "crm_campaign_members" USING btree ("contact_id","has_responded");--> statement-breakpoint
CREATE INDEX "crm_campaigns_start_date_idx" ON "crm_campaigns" USING btree ("start_date" DESC NULLS LAST,"id");--> statement-breakpoint
CREATE INDEX "crm_campaigns_type_idx" ON "crm_campaigns" USING btree ("type");--> statement-breakpoint
CREATE INDEX "crm_contacts_account_idx" ON "crm_contacts" USING btree ("account_id");--> statement-breakpoint
CREATE INDEX "crm_contacts_name_idx" ON "crm_contacts" USING btree ("last_name","first_name","id");