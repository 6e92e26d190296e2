CREATE TABLE "segments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contact_engagement" (
	"contact_id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"last_received_at" timestamp with time zone,
	"last_opened_at" timestamp with time zone,
	"last_clicked_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "segment_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "exclude_list_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "exclude_segment_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "segments_account_idx" ON "segments" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "contact_engagement_received_idx" ON "contact_engagement" USING btree ("account_id","last_received_at");--> statement-breakpoint
CREATE INDEX "contact_engagement_opened_idx" ON "contact_engagement" USING btree ("account_id","last_opened_at");--> statement-breakpoint
CREATE INDEX "contact_engagement_clicked_idx" ON "contact_engagement" USING btree ("account_id","last_clicked_at");
