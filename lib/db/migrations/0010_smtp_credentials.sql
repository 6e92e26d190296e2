CREATE TABLE "smtp_credential_domains" (
	"credential_id" uuid NOT NULL,
	"domain" text NOT NULL,
	CONSTRAINT "smtp_credential_domains_credential_id_domain_pk" PRIMARY KEY("credential_id","domain")
);
--> statement-breakpoint
CREATE TABLE "smtp_credentials" (
	"id" uuid PRIMARY KEY NOT NULL,
	"account_id" uuid NOT NULL,
	"name" text NOT NULL,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"scope" text NOT NULL,
	"is_sandbox" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "smtp_credential_domains" ADD CONSTRAINT "smtp_credential_domains_credential_id_smtp_credentials_id_fk" FOREIGN KEY ("credential_id") REFERENCES "public"."smtp_credentials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "smtp_credentials" ADD CONSTRAINT "smtp_credentials_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "smtp_credentials_username_idx" ON "smtp_credentials" USING btree ("username");--> statement-breakpoint
CREATE INDEX "smtp_credentials_account_idx" ON "smtp_credentials" USING btree ("account_id","id");