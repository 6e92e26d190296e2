ALTER TABLE "templates" ADD COLUMN "preheader" text;--> statement-breakpoint
ALTER TABLE "template_versions" ADD COLUMN "preheader" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "preheader" text;
