CREATE TABLE "recipient_domain_providers" (
	"domain" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"mx_hosts" text[] DEFAULT '{}' NOT NULL,
	"checked_at" timestamp with time zone DEFAULT now() NOT NULL
);--> statement-breakpoint
CREATE INDEX "recipient_domain_providers_provider_idx" ON "recipient_domain_providers" ("provider","domain");--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivered_tls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivered_plain" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "campaign_delivered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "campaign_one_click" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_daily" ADD COLUMN "delivered_tls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_daily" ADD COLUMN "delivered_plain" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_daily" ADD COLUMN "campaign_delivered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_daily" ADD COLUMN "campaign_one_click" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" ADD COLUMN "delivered_tls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" ADD COLUMN "delivered_plain" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" ADD COLUMN "campaign_delivered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" ADD COLUMN "campaign_one_click" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_daily" ADD COLUMN "delivered_tls" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_daily" ADD COLUMN "delivered_plain" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_daily" ADD COLUMN "campaign_delivered" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_daily" ADD COLUMN "campaign_one_click" integer DEFAULT 0 NOT NULL;
