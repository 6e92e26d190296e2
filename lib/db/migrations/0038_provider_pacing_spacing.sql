ALTER TABLE "provider_pacing" ADD COLUMN "spacing_ms" integer DEFAULT 0 NOT NULL;
