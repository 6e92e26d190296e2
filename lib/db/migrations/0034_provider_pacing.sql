CREATE TABLE "provider_pacing" (
	"worker_id" text NOT NULL,
	"key" text NOT NULL,
	"concurrency" integer NOT NULL,
	"normal_concurrency" integer NOT NULL,
	"slowed_since" timestamp with time zone,
	"throttled_replies" integer DEFAULT 0 NOT NULL,
	"last_throttled_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_pacing_worker_id_key_pk" PRIMARY KEY("worker_id","key")
);
