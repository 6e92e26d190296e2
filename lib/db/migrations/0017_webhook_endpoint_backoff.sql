ALTER TABLE "webhooks" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "routes" ADD COLUMN "next_attempt_at" timestamp with time zone;