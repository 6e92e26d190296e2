CREATE TABLE "campaign_hour_counters" (
	"campaign_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"writer" smallint DEFAULT 0 NOT NULL,
	"account_id" uuid NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_hour_counters_campaign_id_hour_writer_pk" PRIMARY KEY("campaign_id","hour","writer")
);
--> statement-breakpoint
CREATE TABLE "campaign_link_counters" (
	"campaign_id" uuid NOT NULL,
	"url_hash" text NOT NULL,
	"writer" smallint DEFAULT 0 NOT NULL,
	"account_id" uuid NOT NULL,
	"url" text NOT NULL,
	"clicks" integer DEFAULT 0 NOT NULL,
	"unique_clicks" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_link_counters_campaign_id_url_hash_writer_pk" PRIMARY KEY("campaign_id","url_hash","writer")
);
--> statement-breakpoint
CREATE TABLE "campaign_provider_counters" (
	"campaign_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"writer" smallint DEFAULT 0 NOT NULL,
	"account_id" uuid NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"deferred" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_provider_counters_campaign_id_provider_writer_pk" PRIMARY KEY("campaign_id","provider","writer")
);
--> statement-breakpoint
ALTER TABLE "message_links" ADD COLUMN "click_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "mailbox_provider" text;--> statement-breakpoint
ALTER TABLE "campaign_counters" ADD COLUMN "total_opens" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "campaign_counters" ADD COLUMN "total_clicks" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_campaign_bounced_idx" ON "messages" USING btree ("campaign_id","updated_at") WHERE "messages"."status" = 'bounced' and "messages"."campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "campaign_recipients_unsubscribed_idx" ON "campaign_recipients" USING btree ("campaign_id","unsubscribed_at") WHERE "campaign_recipients"."unsubscribed_at" is not null;--> statement-breakpoint
INSERT INTO "campaign_counters" ("campaign_id", "writer", "account_id", "total_opens", "total_clicks")
SELECT "campaign_id", 0, "account_id", coalesce(sum("open_count"), 0)::int, coalesce(sum("click_count"), 0)::int
FROM "messages" WHERE "campaign_id" IS NOT NULL GROUP BY "campaign_id", "account_id" HAVING sum("open_count") > 0 OR sum("click_count") > 0
ON CONFLICT ("campaign_id", "writer") DO UPDATE SET "total_opens" = excluded."total_opens", "total_clicks" = excluded."total_clicks";
