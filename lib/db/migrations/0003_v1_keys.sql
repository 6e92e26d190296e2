CREATE TABLE "v1_keys" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"label" text NOT NULL,
	"secret_hash" text NOT NULL,
	"hint" text NOT NULL,
	"last_used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "v1_keys" ADD CONSTRAINT "v1_keys_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "v1_keys_secret_hash_idx" ON "v1_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "v1_keys_account_idx" ON "v1_keys" USING btree ("account_id","id");