ALTER TABLE "campaign_assets" ADD COLUMN "utm_source" text;--> statement-breakpoint
ALTER TABLE "campaign_assets" ADD COLUMN "utm_medium" text;--> statement-breakpoint
ALTER TABLE "campaign_assets" ADD COLUMN "utm_content" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "qr_settings" jsonb;