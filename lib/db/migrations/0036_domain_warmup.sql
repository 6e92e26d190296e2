ALTER TABLE "domains" ADD COLUMN "warmup_enabled" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "warmup_plan" jsonb;--> statement-breakpoint
ALTER TABLE "domains" ADD COLUMN "warmup_started_at" timestamp with time zone;--> statement-breakpoint
CREATE TABLE "warmup_counters" (
	"domain_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"day" date NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "warmup_counters_domain_id_provider_day_pk" PRIMARY KEY("domain_id","provider","day")
);
