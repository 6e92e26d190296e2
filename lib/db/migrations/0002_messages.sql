CREATE TABLE "message_contents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"structured" jsonb,
	"raw" text,
	"global_substitutions" jsonb,
	"is_templated" boolean DEFAULT false NOT NULL,
	"data_retain_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"domain_id" uuid NOT NULL,
	"content_id" uuid NOT NULL,
	"campaign_id" uuid,
	"contact_id" uuid,
	"direction" text DEFAULT 'outbound' NOT NULL,
	"message_id_header" text NOT NULL,
	"sender" text NOT NULL,
	"recipient" text NOT NULL,
	"recipient_name" text,
	"recipient_domain" text NOT NULL,
	"sender_domain" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"substitutions" jsonb,
	"status" text NOT NULL,
	"is_sandbox" boolean DEFAULT false NOT NULL,
	"sandbox_result" text,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"track_opens" boolean DEFAULT false NOT NULL,
	"track_clicks" boolean DEFAULT false NOT NULL,
	"first_attempt_at" timestamp with time zone NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"locked_by" text,
	"return_path_token" text NOT NULL,
	"data_sent_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"delivered_at" timestamp with time zone,
	"bounce_classification" text,
	"delivery_attempts" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"open_count" integer DEFAULT 0 NOT NULL,
	"click_count" integer DEFAULT 0 NOT NULL,
	"retain_until" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_bounces_hourly" (
	"account_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sender_domain" text NOT NULL,
	"recipient_domain" text NOT NULL,
	"classification" text NOT NULL,
	"count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_bounces_hourly_account_id_hour_sender_domain_recipient_domain_classification_pk" PRIMARY KEY("account_id","hour","sender_domain","recipient_domain","classification")
);
--> statement-breakpoint
CREATE TABLE "stats_hourly" (
	"account_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sender_domain" text NOT NULL,
	"recipient_domain" text NOT NULL,
	"reception" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"deferred" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"delivery_time_sum_ms" bigint DEFAULT 0 NOT NULL,
	"delivery_time_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_hourly_account_id_hour_sender_domain_recipient_domain_pk" PRIMARY KEY("account_id","hour","sender_domain","recipient_domain")
);
--> statement-breakpoint
CREATE TABLE "stats_tags_hourly" (
	"account_id" uuid NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"tag" text NOT NULL,
	"sender_domain" text NOT NULL,
	"reception" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"deferred" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"delivery_time_sum_ms" bigint DEFAULT 0 NOT NULL,
	"delivery_time_count" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_tags_hourly_account_id_hour_tag_sender_domain_pk" PRIMARY KEY("account_id","hour","tag","sender_domain")
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"domain" text DEFAULT '' NOT NULL,
	"kind" text NOT NULL,
	"reason" text,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "message_contents_retain_idx" ON "message_contents" USING btree ("data_retain_until");--> statement-breakpoint
CREATE INDEX "messages_account_idx" ON "messages" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("next_attempt_at") WHERE "messages"."status" in ('queued', 'deferred', 'scheduled');--> statement-breakpoint
CREATE INDEX "messages_account_recipient_idx" ON "messages" USING btree ("account_id","recipient");--> statement-breakpoint
CREATE INDEX "messages_return_path_idx" ON "messages" USING btree ("return_path_token");--> statement-breakpoint
CREATE INDEX "messages_content_idx" ON "messages" USING btree ("content_id");--> statement-breakpoint
CREATE UNIQUE INDEX "suppressions_account_email_domain_idx" ON "suppressions" USING btree ("account_id","email","domain");--> statement-breakpoint
CREATE INDEX "suppressions_account_idx" ON "suppressions" USING btree ("account_id","id");