CREATE TABLE "routes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"url" text NOT NULL,
	"secret_encrypted" text NOT NULL,
	"recipient" text DEFAULT '' NOT NULL,
	"domain" text,
	"attachments" boolean DEFAULT false NOT NULL,
	"headers" boolean DEFAULT false NOT NULL,
	"group_by_message_id" boolean DEFAULT false NOT NULL,
	"strip_replies" boolean DEFAULT false NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
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
ALTER TABLE "webhook_deliveries" ALTER COLUMN "webhook_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "complained_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "route_id" uuid;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "on_complained" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_daily" ADD COLUMN "complained" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" ADD COLUMN "complained" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_daily" ADD COLUMN "complained" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "complained" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "routes" ADD CONSTRAINT "routes_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "routes_account_idx" ON "routes" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "routes_enabled_domain_idx" ON "routes" USING btree ("domain") WHERE "routes"."enabled";--> statement-breakpoint
CREATE INDEX "routes_enabled_account_idx" ON "routes" USING btree ("account_id") WHERE "routes"."enabled" and "routes"."domain" is null;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_route_id_routes_id_fk" FOREIGN KEY ("route_id") REFERENCES "public"."routes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "webhook_deliveries_event_route_idx" ON "webhook_deliveries" USING btree ("event_id","route_id") WHERE "webhook_deliveries"."route_id" is not null;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_route_idx" ON "webhook_deliveries" USING btree ("route_id","id") WHERE "webhook_deliveries"."route_id" is not null;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_one_target" CHECK (num_nonnulls("webhook_deliveries"."webhook_id", "webhook_deliveries"."route_id") = 1);--> statement-breakpoint
-- The fan-out trigger (lib/core/webhooks/fan-out.ts) learns message.complained, a Mailstead extension.
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
      WHEN 'message.complained' THEN w.on_complained
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
