CREATE TABLE "campaign_recipients" (
	"campaign_id" uuid NOT NULL,
	"contact_id" uuid NOT NULL,
	"account_id" uuid NOT NULL,
	"email" text NOT NULL,
	"unsubscribed_at" timestamp with time zone,
	CONSTRAINT "campaign_recipients_campaign_id_contact_id_pk" PRIMARY KEY("campaign_id","contact_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"from_email" text,
	"from_name" text,
	"reply_to" jsonb,
	"subject" text,
	"html_content" text,
	"text_content" text,
	"template_id" uuid,
	"template_version" integer,
	"list_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL,
	"track_opens" boolean,
	"track_clicks" boolean,
	"send_at" timestamp with time zone,
	"validation_errors" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"recipient_count" integer,
	"queued_count" integer DEFAULT 0 NOT NULL,
	"queued_through" uuid,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaign_recipients" ADD CONSTRAINT "campaign_recipients_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaigns_account_idx" ON "campaigns" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "campaigns_pending_idx" ON "campaigns" USING btree ("status","send_at") WHERE "campaigns"."status" in ('validating', 'scheduled', 'sending');--> statement-breakpoint
CREATE INDEX "messages_campaign_idx" ON "messages" USING btree ("campaign_id") WHERE "messages"."campaign_id" is not null;