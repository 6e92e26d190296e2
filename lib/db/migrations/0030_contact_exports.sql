CREATE TABLE "contact_exports" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"requested_by" jsonb NOT NULL,
	"selection" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"exported_count" integer DEFAULT 0 NOT NULL,
	"total_estimate" integer,
	"file_name" text,
	"byte_size" bigint,
	"error" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"locked_by" text,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone,
	"completed_at" timestamp with time zone,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contact_exports" ADD CONSTRAINT "contact_exports_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contact_exports_account_idx" ON "contact_exports" USING btree ("account_id","id");--> statement-breakpoint
CREATE INDEX "contact_exports_due_idx" ON "contact_exports" USING btree ("created_at") WHERE "contact_exports"."status" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "contact_exports_expiry_idx" ON "contact_exports" USING btree ("expires_at") WHERE "contact_exports"."status" in ('done', 'failed');
