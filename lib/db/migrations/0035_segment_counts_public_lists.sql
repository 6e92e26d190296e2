ALTER TABLE "segments" ADD COLUMN "contact_count" integer;--> statement-breakpoint
ALTER TABLE "segments" ADD COLUMN "counted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "segments" ADD COLUMN "count_lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "segments_counted_idx" ON "segments" USING btree ("counted_at");--> statement-breakpoint
ALTER TABLE "contact_lists" ADD COLUMN "public_name" text;
