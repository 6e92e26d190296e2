-- Fewer indexes written per message (see lib/db/schema/messages.ts). Return-path tokens now carry
-- the message id; a late bounce to a token of the earlier form is ignored.
DROP INDEX "messages_return_path_idx";--> statement-breakpoint
DROP INDEX "messages_content_idx";--> statement-breakpoint
DROP INDEX "messages_locked_by_idx";