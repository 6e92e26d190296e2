ALTER TABLE "domains" ADD COLUMN "reports_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "reports_token" text;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_reports_token_idx" ON "domains" USING btree ("reports_token") WHERE "domains"."reports_token" is not null;--> statement-breakpoint
CREATE TABLE "domain_reports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"domain_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"reporter_org" text,
	"reporter_email" text,
	"report_id" text,
	"policy_domain" text,
	"begins_at" timestamp with time zone,
	"ends_at" timestamp with time zone,
	"policy" jsonb,
	"message_count" integer DEFAULT 0 NOT NULL,
	"failure_count" integer DEFAULT 0 NOT NULL,
	"rejection_reason" text,
	"byte_size" integer DEFAULT 0 NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_reports" ADD CONSTRAINT "domain_reports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_reports" ADD CONSTRAINT "domain_reports_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domain_reports_once_idx" ON "domain_reports" USING btree ("domain_id","kind","reporter_org","report_id") WHERE "domain_reports"."status" = 'stored';--> statement-breakpoint
CREATE INDEX "domain_reports_list_idx" ON "domain_reports" USING btree ("domain_id","kind","id");--> statement-breakpoint
CREATE TABLE "dmarc_report_sources" (
	"id" uuid PRIMARY KEY NOT NULL,
	"report_id" uuid NOT NULL,
	"domain_id" uuid NOT NULL,
	"begins_at" timestamp with time zone NOT NULL,
	"source_ip" text NOT NULL,
	"message_count" integer NOT NULL,
	"disposition" text NOT NULL,
	"header_from" text,
	"dkim_aligned" boolean NOT NULL,
	"spf_aligned" boolean NOT NULL,
	"dkim_result" text,
	"dkim_domain" text,
	"spf_result" text,
	"spf_domain" text
);
--> statement-breakpoint
ALTER TABLE "dmarc_report_sources" ADD CONSTRAINT "dmarc_report_sources_report_id_domain_reports_id_fk" FOREIGN KEY ("report_id") REFERENCES "public"."domain_reports"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "dmarc_report_sources_report_idx" ON "dmarc_report_sources" USING btree ("report_id");--> statement-breakpoint
CREATE INDEX "dmarc_report_sources_domain_idx" ON "dmarc_report_sources" USING btree ("domain_id","begins_at");
