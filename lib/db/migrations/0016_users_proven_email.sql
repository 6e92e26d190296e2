ALTER TABLE "users" DROP CONSTRAINT "users_email_unique";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "limited_to_account_id" uuid;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_limited_to_account_id_accounts_id_fk" FOREIGN KEY ("limited_to_account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "is_email_verified" OR EXISTS (SELECT 1 FROM "accounts" WHERE "accounts"."owner_id" = "users"."id");--> statement-breakpoint
UPDATE "users" SET "limited_to_account_id" = (SELECT "memberships"."account_id" FROM "memberships" WHERE "memberships"."user_id" = "users"."id" ORDER BY "memberships"."created_at" LIMIT 1) WHERE "email_verified_at" IS NULL;--> statement-breakpoint
DELETE FROM "memberships" USING "users" WHERE "memberships"."user_id" = "users"."id" AND "users"."email_verified_at" IS NULL AND "memberships"."account_id" IS DISTINCT FROM "users"."limited_to_account_id";--> statement-breakpoint
CREATE UNIQUE INDEX "users_verified_email_idx" ON "users" USING btree ("email") WHERE "users"."email_verified_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "users_unverified_email_idx" ON "users" USING btree ("email","limited_to_account_id") WHERE "users"."email_verified_at" is null;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "is_email_verified";
