ALTER TABLE "campaigns" ADD COLUMN "variants" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ab_test" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ab_phase" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "winner_variant_id" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "test_queued_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "ab_wait_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD COLUMN "variant_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "campaign_variant_id" text;--> statement-breakpoint
CREATE TABLE "campaign_variant_counters" (
	"campaign_id" uuid NOT NULL,
	"variant_id" text NOT NULL,
	"writer" smallint DEFAULT 0 NOT NULL,
	"account_id" uuid NOT NULL,
	"recipients" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"deferred" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"complained" integer DEFAULT 0 NOT NULL,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"total_opens" integer DEFAULT 0 NOT NULL,
	"total_clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_variant_counters_campaign_id_variant_id_writer_pk" PRIMARY KEY("campaign_id","variant_id","writer")
);
