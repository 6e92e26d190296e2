CREATE TABLE "campaign_counters" (
	"campaign_id" uuid NOT NULL,
	"writer" smallint DEFAULT 0 NOT NULL,
	"account_id" uuid NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"deferred" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"complained" integer DEFAULT 0 NOT NULL,
	"unsubscribed" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "campaign_counters_campaign_id_writer_pk" PRIMARY KEY("campaign_id","writer")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "queued_at" timestamp with time zone;--> statement-breakpoint
UPDATE "campaigns" SET "queued_at" = "completed_at" WHERE "completed_at" IS NOT NULL;
--> statement-breakpoint
INSERT INTO "campaign_counters" ("campaign_id", "writer", "account_id", "delivered", "deferred", "bounced", "failed", "suppressed", "opened", "clicked", "complained")
SELECT "campaign_id", 0, "account_id",
	count(*) FILTER (WHERE "status" = 'delivered'), count(*) FILTER (WHERE "status" = 'deferred'), count(*) FILTER (WHERE "status" = 'bounced'),
	count(*) FILTER (WHERE "status" = 'failed'), count(*) FILTER (WHERE "status" = 'suppressed'), count(*) FILTER (WHERE "open_count" > 0),
	count(*) FILTER (WHERE "click_count" > 0), count(*) FILTER (WHERE "complained_at" IS NOT NULL)
FROM "messages" WHERE "campaign_id" IS NOT NULL GROUP BY "campaign_id", "account_id";
--> statement-breakpoint
INSERT INTO "campaign_counters" ("campaign_id", "writer", "account_id", "unsubscribed")
SELECT "campaign_id", 0, "account_id", count(*) FROM "campaign_recipients" WHERE "unsubscribed_at" IS NOT NULL GROUP BY "campaign_id", "account_id"
ON CONFLICT ("campaign_id", "writer") DO UPDATE SET "unsubscribed" = excluded."unsubscribed";
