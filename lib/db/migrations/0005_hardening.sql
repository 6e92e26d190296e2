CREATE TABLE "workers" (
	"id" text PRIMARY KEY NOT NULL,
	"hostname" text NOT NULL,
	"pid" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"heartbeat_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "idempotency_records" ADD COLUMN "credential" text;--> statement-breakpoint
CREATE INDEX "messages_locked_by_idx" ON "messages" USING btree ("locked_by") WHERE "messages"."locked_by" is not null;