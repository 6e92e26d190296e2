ALTER TABLE "stats_by_tag_daily" ADD COLUMN "writer" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" ADD COLUMN "writer" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_daily" ADD COLUMN "writer" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD COLUMN "writer" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "stats_by_tag_daily" DROP CONSTRAINT "stats_by_tag_daily_account_id_tag_day_sender_domain_recipient_domain_tags_pk";--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" DROP CONSTRAINT "stats_by_tag_hourly_account_id_tag_hour_sender_domain_recipient_domain_tags_pk";--> statement-breakpoint
ALTER TABLE "stats_daily" DROP CONSTRAINT "stats_daily_account_id_day_sender_domain_recipient_domain_pk";--> statement-breakpoint
ALTER TABLE "stats_hourly" DROP CONSTRAINT "stats_hourly_account_id_hour_sender_domain_recipient_domain_pk";--> statement-breakpoint
ALTER TABLE "stats_by_tag_daily" ADD CONSTRAINT "stats_by_tag_daily_account_id_tag_day_sender_domain_recipient_domain_tags_writer_pk" PRIMARY KEY("account_id","tag","day","sender_domain","recipient_domain","tags","writer");--> statement-breakpoint
ALTER TABLE "stats_by_tag_hourly" ADD CONSTRAINT "stats_by_tag_hourly_account_id_tag_hour_sender_domain_recipient_domain_tags_writer_pk" PRIMARY KEY("account_id","tag","hour","sender_domain","recipient_domain","tags","writer");--> statement-breakpoint
ALTER TABLE "stats_daily" ADD CONSTRAINT "stats_daily_account_id_day_sender_domain_recipient_domain_writer_pk" PRIMARY KEY("account_id","day","sender_domain","recipient_domain","writer");--> statement-breakpoint
ALTER TABLE "stats_hourly" ADD CONSTRAINT "stats_hourly_account_id_hour_sender_domain_recipient_domain_writer_pk" PRIMARY KEY("account_id","hour","sender_domain","recipient_domain","writer");
