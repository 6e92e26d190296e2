CREATE TABLE "dkim_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"domain_id" uuid NOT NULL,
	"selector" text NOT NULL,
	"status" text NOT NULL,
	"private_key_encrypted" text NOT NULL,
	"public_key" text NOT NULL,
	"key_bits" integer NOT NULL,
	"is_customer_provided" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"activated_at" timestamp with time zone,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "sending_type" text DEFAULT 'transactional' NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "tracking_subdomain" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "return_path_subdomain" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "subscription_subdomain" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "media_subdomain" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "dkim_selector" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "dsn_recipient" text;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "dns_valid" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "dns_checks" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "last_dns_check_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "is_paused" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "paused_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "pause_reason" text;--> statement-breakpoint
ALTER TABLE "dkim_keys" ADD CONSTRAINT "dkim_keys_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "dkim_keys_domain_selector_idx" ON "dkim_keys" USING btree ("domain_id","selector");--> statement-breakpoint
CREATE INDEX "dkim_keys_domain_status_idx" ON "dkim_keys" USING btree ("domain_id","status");--> statement-breakpoint
CREATE INDEX "domains_account_idx" ON "domains" USING btree ("account_id","id");