CREATE TABLE "webhook_deliveries" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"webhook_id" uuid NOT NULL,
	"event_id" uuid NOT NULL,
	"event_type" text NOT NULL,
	"sample_payload" jsonb,
	"is_test" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"attempts_in_run" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"lease_until" timestamp with time zone,
	"locked_by" text,
	"attempt_log" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_domains" (
	"webhook_id" uuid NOT NULL,
	"domain" text NOT NULL,
	CONSTRAINT "webhook_domains_webhook_id_domain_pk" PRIMARY KEY("webhook_id","domain")
);
--> statement-breakpoint
CREATE TABLE "webhooks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"secret_encrypted" text NOT NULL,
	"scope" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"on_reception" boolean DEFAULT false NOT NULL,
	"on_delivered" boolean DEFAULT false NOT NULL,
	"on_transient_error" boolean DEFAULT false NOT NULL,
	"on_failed" boolean DEFAULT false NOT NULL,
	"on_bounced" boolean DEFAULT false NOT NULL,
	"on_suppressed" boolean DEFAULT false NOT NULL,
	"on_opened" boolean DEFAULT false NOT NULL,
	"on_clicked" boolean DEFAULT false NOT NULL,
	"on_suppression_created" boolean DEFAULT false NOT NULL,
	"on_dns_error" boolean DEFAULT false NOT NULL,
	"success_count" integer DEFAULT 0 NOT NULL,
	"error_count" integer DEFAULT 0 NOT NULL,
	"errors_since_last_success" integer DEFAULT 0 NOT NULL,
	"failing_since" timestamp with time zone,
	"last_request_at" timestamp with time zone,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "stats_by_tag_daily" (
	"account_id" uuid NOT NULL,
	"tag" text NOT NULL,
	"day" timestamp with time zone NOT NULL,
	"sender_domain" text NOT NULL,
	"recipient_domain" text NOT NULL,
	"tags" text[] NOT NULL,
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
	"delivery_time_0_1s" integer DEFAULT 0 NOT NULL,
	"delivery_time_1_5s" integer DEFAULT 0 NOT NULL,
	"delivery_time_5_30s" integer DEFAULT 0 NOT NULL,
	"delivery_time_30_60s" integer DEFAULT 0 NOT NULL,
	"delivery_time_1_5m" integer DEFAULT 0 NOT NULL,
	"delivery_time_5_30m" integer DEFAULT 0 NOT NULL,
	"delivery_time_30m_2h" integer DEFAULT 0 NOT NULL,
	"delivery_time_over_2h" integer DEFAULT 0 NOT NULL,
	"bounced_authentication_failed" integer DEFAULT 0 NOT NULL,
	"bounced_bad_domain" integer DEFAULT 0 NOT NULL,
	"bounced_dns_failure" integer DEFAULT 0 NOT NULL,
	"bounced_inactive_mailbox" integer DEFAULT 0 NOT NULL,
	"bounced_invalid_recipient" integer DEFAULT 0 NOT NULL,
	"bounced_policy_related" integer DEFAULT 0 NOT NULL,
	"bounced_protocol_errors" integer DEFAULT 0 NOT NULL,
	"bounced_quota_issues" integer DEFAULT 0 NOT NULL,
	"bounced_routing_errors" integer DEFAULT 0 NOT NULL,
	"bounced_transient_failure" integer DEFAULT 0 NOT NULL,
	"bounced_uncategorized" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_by_tag_daily_account_id_tag_day_sender_domain_recipient_domain_tags_pk" PRIMARY KEY("account_id","tag","day","sender_domain","recipient_domain","tags")
);
--> statement-breakpoint
CREATE TABLE "stats_by_tag_hourly" (
	"account_id" uuid NOT NULL,
	"tag" text NOT NULL,
	"hour" timestamp with time zone NOT NULL,
	"sender_domain" text NOT NULL,
	"recipient_domain" text NOT NULL,
	"tags" text[] NOT NULL,
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
	"delivery_time_0_1s" integer DEFAULT 0 NOT NULL,
	"delivery_time_1_5s" integer DEFAULT 0 NOT NULL,
	"delivery_time_5_30s" integer DEFAULT 0 NOT NULL,
	"delivery_time_30_60s" integer DEFAULT 0 NOT NULL,
	"delivery_time_1_5m" integer DEFAULT 0 NOT NULL,
	"delivery_time_5_30m" integer DEFAULT 0 NOT NULL,
	"delivery_time_30m_2h" integer DEFAULT 0 NOT NULL,
	"delivery_time_over_2h" integer DEFAULT 0 NOT NULL,
	"bounced_authentication_failed" integer DEFAULT 0 NOT NULL,
	"bounced_bad_domain" integer DEFAULT 0 NOT NULL,
	"bounced_dns_failure" integer DEFAULT 0 NOT NULL,
	"bounced_inactive_mailbox" integer DEFAULT 0 NOT NULL,
	"bounced_invalid_recipient" integer DEFAULT 0 NOT NULL,
	"bounced_policy_related" integer DEFAULT 0 NOT NULL,
	"bounced_protocol_errors" integer DEFAULT 0 NOT NULL,
	"bounced_quota_issues" integer DEFAULT 0 NOT NULL,
	"bounced_routing_errors" integer DEFAULT 0 NOT NULL,
	"bounced_transient_failure" integer DEFAULT 0 NOT NULL,
	"bounced_uncategorized" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_by_tag_hourly_account_id_tag_hour_sender_domain_recipient_domain_tags_pk" PRIMARY KEY("account_id","tag","hour","sender_domain","recipient_domain","tags")
);
--> statement-breakpoint
CREATE TABLE "stats_daily" (
	"account_id" uuid NOT NULL,
	"day" timestamp with time zone NOT NULL,
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
	"delivery_time_0_1s" integer DEFAULT 0 NOT NULL,
	"delivery_time_1_5s" integer DEFAULT 0 NOT NULL,
	"delivery_time_5_30s" integer DEFAULT 0 NOT NULL,
	"delivery_time_30_60s" integer DEFAULT 0 NOT NULL,
	"delivery_time_1_5m" integer DEFAULT 0 NOT NULL,
	"delivery_time_5_30m" integer DEFAULT 0 NOT NULL,
	"delivery_time_30m_2h" integer DEFAULT 0 NOT NULL,
	"delivery_time_over_2h" integer DEFAULT 0 NOT NULL,
	"bounced_authentication_failed" integer DEFAULT 0 NOT NULL,
	"bounced_bad_domain" integer DEFAULT 0 NOT NULL,
	"bounced_dns_failure" integer DEFAULT 0 NOT NULL,
	"bounced_inactive_mailbox" integer DEFAULT 0 NOT NULL,
	"bounced_invalid_recipient" integer DEFAULT 0 NOT NULL,
	"bounced_policy_related" integer DEFAULT 0 NOT NULL,
	"bounced_protocol_errors" integer DEFAULT 0 NOT NULL,
	"bounced_quota_issues" integer DEFAULT 0 NOT NULL,
	"bounced_routing_errors" integer DEFAULT 0 NOT NULL,
	"bounced_transient_failure" integer DEFAULT 0 NOT NULL,
	"bounced_uncategorized" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "stats_daily_account_id_day_sender_domain_recipient_domain_pk" PRIMARY KEY("account_id","day","sender_domain","recipient_domain")
);
--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_0_1s" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_1_5s" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_5_30s" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_30_60s" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_1_5m" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_5_30m" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_30m_2h" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "delivery_time_over_2h" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_authentication_failed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_bad_domain" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_dns_failure" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_inactive_mailbox" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_invalid_recipient" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_policy_related" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_protocol_errors" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_quota_issues" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_routing_errors" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_transient_failure" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "bounced_uncategorized" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_domains" ADD CONSTRAINT "webhook_domains_webhook_id_webhooks_id_fk" FOREIGN KEY ("webhook_id") REFERENCES "public"."webhooks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_webhook_idx" ON "webhook_deliveries" USING btree ("event_id","webhook_id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_webhook_idx" ON "webhook_deliveries" USING btree ("webhook_id","id");--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "webhook_deliveries_locked_by_idx" ON "webhook_deliveries" USING btree ("locked_by") WHERE "webhook_deliveries"."locked_by" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_created_idx" ON "webhook_deliveries" USING brin ("created_at");--> statement-breakpoint
CREATE INDEX "webhooks_account_idx" ON "webhooks" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "webhooks_enabled_account_idx" ON "webhooks" USING btree ("account_id") WHERE "webhooks"."enabled";--> statement-breakpoint

-- Existing rollups carried into the new shape: bounce classes become columns of stats_hourly, the
-- daily tables are summed from the hours, and tagged counts (which had no recipient domain) go under
-- recipient domain '' with the tag as their whole tag set. The delivery-time histogram starts empty.
UPDATE "stats_hourly" s SET
  "bounced_authentication_failed" = s."bounced_authentication_failed" + coalesce(b."bounced_authentication_failed", 0),
  "bounced_bad_domain" = s."bounced_bad_domain" + coalesce(b."bounced_bad_domain", 0),
  "bounced_dns_failure" = s."bounced_dns_failure" + coalesce(b."bounced_dns_failure", 0),
  "bounced_inactive_mailbox" = s."bounced_inactive_mailbox" + coalesce(b."bounced_inactive_mailbox", 0),
  "bounced_invalid_recipient" = s."bounced_invalid_recipient" + coalesce(b."bounced_invalid_recipient", 0),
  "bounced_policy_related" = s."bounced_policy_related" + coalesce(b."bounced_policy_related", 0),
  "bounced_protocol_errors" = s."bounced_protocol_errors" + coalesce(b."bounced_protocol_errors", 0),
  "bounced_quota_issues" = s."bounced_quota_issues" + coalesce(b."bounced_quota_issues", 0),
  "bounced_routing_errors" = s."bounced_routing_errors" + coalesce(b."bounced_routing_errors", 0),
  "bounced_transient_failure" = s."bounced_transient_failure" + coalesce(b."bounced_transient_failure", 0),
  "bounced_uncategorized" = s."bounced_uncategorized" + coalesce(b."bounced_uncategorized", 0)
FROM (
  SELECT account_id, hour, sender_domain, recipient_domain,
    sum(count) FILTER (WHERE classification = 'AuthenticationFailed') AS "bounced_authentication_failed",
    sum(count) FILTER (WHERE classification = 'BadDomain') AS "bounced_bad_domain",
    sum(count) FILTER (WHERE classification = 'DNSFailure') AS "bounced_dns_failure",
    sum(count) FILTER (WHERE classification = 'InactiveMailbox') AS "bounced_inactive_mailbox",
    sum(count) FILTER (WHERE classification = 'InvalidRecipient') AS "bounced_invalid_recipient",
    sum(count) FILTER (WHERE classification = 'PolicyRelated') AS "bounced_policy_related",
    sum(count) FILTER (WHERE classification = 'ProtocolErrors') AS "bounced_protocol_errors",
    sum(count) FILTER (WHERE classification = 'QuotaIssues') AS "bounced_quota_issues",
    sum(count) FILTER (WHERE classification = 'RoutingErrors') AS "bounced_routing_errors",
    sum(count) FILTER (WHERE classification = 'TransientFailure') AS "bounced_transient_failure",
    sum(count) FILTER (WHERE classification NOT IN ('AuthenticationFailed','BadDomain','DNSFailure','InactiveMailbox','InvalidRecipient','PolicyRelated','ProtocolErrors','QuotaIssues','RoutingErrors','TransientFailure')) AS "bounced_uncategorized"
  FROM "stats_bounces_hourly" GROUP BY account_id, hour, sender_domain, recipient_domain
) b
WHERE s.account_id = b.account_id AND s.hour = b.hour AND s.sender_domain = b.sender_domain AND s.recipient_domain = b.recipient_domain;--> statement-breakpoint
INSERT INTO "stats_daily" ("account_id", "day", "sender_domain", "recipient_domain", "reception", "delivered", "deferred", "bounced", "failed", "suppressed", "opened", "clicked", "delivery_time_sum_ms", "delivery_time_count", "bounced_authentication_failed", "bounced_bad_domain", "bounced_dns_failure", "bounced_inactive_mailbox", "bounced_invalid_recipient", "bounced_policy_related", "bounced_protocol_errors", "bounced_quota_issues", "bounced_routing_errors", "bounced_transient_failure", "bounced_uncategorized")
SELECT account_id, date_trunc('day', hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sender_domain, recipient_domain, sum("reception"), sum("delivered"), sum("deferred"), sum("bounced"), sum("failed"), sum("suppressed"), sum("opened"), sum("clicked"), sum("delivery_time_sum_ms"), sum("delivery_time_count"), sum("bounced_authentication_failed"), sum("bounced_bad_domain"), sum("bounced_dns_failure"), sum("bounced_inactive_mailbox"), sum("bounced_invalid_recipient"), sum("bounced_policy_related"), sum("bounced_protocol_errors"), sum("bounced_quota_issues"), sum("bounced_routing_errors"), sum("bounced_transient_failure"), sum("bounced_uncategorized")
FROM "stats_hourly" GROUP BY 1, 2, 3, 4;--> statement-breakpoint
INSERT INTO "stats_by_tag_hourly" ("account_id", "tag", "hour", "sender_domain", "recipient_domain", "tags", "reception", "delivered", "deferred", "bounced", "failed", "suppressed", "opened", "clicked", "delivery_time_sum_ms", "delivery_time_count")
SELECT account_id, tag, hour, sender_domain, '', ARRAY[tag], "reception", "delivered", "deferred", "bounced", "failed", "suppressed", "opened", "clicked", "delivery_time_sum_ms", "delivery_time_count" FROM "stats_tags_hourly";--> statement-breakpoint
INSERT INTO "stats_by_tag_daily" ("account_id", "tag", "day", "sender_domain", "recipient_domain", "tags", "reception", "delivered", "deferred", "bounced", "failed", "suppressed", "opened", "clicked", "delivery_time_sum_ms", "delivery_time_count")
SELECT account_id, tag, date_trunc('day', hour AT TIME ZONE 'UTC') AT TIME ZONE 'UTC', sender_domain, '', ARRAY[tag], sum("reception"), sum("delivered"), sum("deferred"), sum("bounced"), sum("failed"), sum("suppressed"), sum("opened"), sum("clicked"), sum("delivery_time_sum_ms"), sum("delivery_time_count")
FROM "stats_tags_hourly" GROUP BY account_id, tag, 3, sender_domain;--> statement-breakpoint
DROP TABLE "stats_bounces_hourly" CASCADE;--> statement-breakpoint
DROP TABLE "stats_tags_hourly" CASCADE;--> statement-breakpoint
-- Webhook fan-out: every statement that writes events also writes, in the same transaction, one
-- outbox row per (event, subscribed webhook). The rule is documented in lib/core/webhooks/fan-out.ts;
-- keep the flag mapping below and WEBHOOK_EVENTS there the same.

-- A time-ordered UUID (version 7), so that outbox rows page newest first like every other table.
CREATE OR REPLACE FUNCTION mailstead_uuid_v7() RETURNS uuid LANGUAGE sql VOLATILE AS $$
  SELECT encode(
    set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) PLACING substring(int8send((extract(epoch FROM clock_timestamp()) * 1000)::bigint) FROM 3) FROM 1 FOR 6), 52, 1), 53, 1),
    'hex')::uuid
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION webhook_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (id, account_id, webhook_id, event_id, event_type, next_attempt_at, created_at, updated_at)
  SELECT mailstead_uuid_v7(), e.account_id, w.id, e.id, e.type, e.created_at, e.created_at, e.created_at
  FROM inserted e
  JOIN webhooks w ON w.account_id = e.account_id AND w.enabled
  WHERE CASE e.type
      WHEN 'message.reception' THEN w.on_reception
      WHEN 'message.delivered' THEN w.on_delivered
      WHEN 'message.transient_error' THEN w.on_transient_error
      WHEN 'message.failed' THEN w.on_failed
      WHEN 'message.bounced' THEN w.on_bounced
      WHEN 'message.suppressed' THEN w.on_suppressed
      WHEN 'message.opened' THEN w.on_opened
      WHEN 'message.clicked' THEN w.on_clicked
      WHEN 'suppression.created' THEN w.on_suppression_created
      WHEN 'domain.dns_error' THEN w.on_dns_error
      ELSE false
    END
    AND (
      w.scope = 'global'
      OR EXISTS (
        SELECT 1 FROM webhook_domains wd
        WHERE wd.webhook_id = w.id
          AND wd.domain = coalesce((SELECT d.domain FROM domains d WHERE d.id = e.domain_id), nullif(e.payload ->> 'sending_domain', ''))
      )
    )
  ON CONFLICT (event_id, webhook_id) DO NOTHING;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER events_webhook_fan_out
  AFTER INSERT ON events
  REFERENCING NEW TABLE AS inserted
  FOR EACH STATEMENT EXECUTE FUNCTION webhook_fan_out();
