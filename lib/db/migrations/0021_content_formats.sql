ALTER TABLE "templates" ADD COLUMN "format" text DEFAULT 'html' NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "markdown_content" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "blocks_content" jsonb;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "text_generated" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "template_versions" ADD COLUMN "format" text DEFAULT 'html' NOT NULL;--> statement-breakpoint
ALTER TABLE "template_versions" ADD COLUMN "markdown_content" text;--> statement-breakpoint
ALTER TABLE "template_versions" ADD COLUMN "blocks_content" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "format" text DEFAULT 'html' NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "markdown_content" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "blocks_content" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "text_generated" boolean DEFAULT false NOT NULL;
