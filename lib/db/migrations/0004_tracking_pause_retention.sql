CREATE TABLE "message_links" (
	"message_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"url" text NOT NULL,
	CONSTRAINT "message_links_message_id_position_pk" PRIMARY KEY("message_id","position")
);
--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "pause_window_started_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "is_sandbox" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "events_domain_outcomes_idx" ON "events" USING btree ("domain_id","created_at") WHERE "events"."type" in ('message.bounced', 'message.delivered') and not "events"."is_sandbox";--> statement-breakpoint
CREATE INDEX "messages_retain_idx" ON "messages" USING brin ("retain_until");