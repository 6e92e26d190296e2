import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/**
 * Message templates (marketing-api.md, Templates): an editable draft and its published versions.
 * Deleting sets `deleted_at` and keeps the versions, so a campaign that froze one still has it.
 */
export const templates = pgTable(
  'templates',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    // 'transactional' | 'campaign'
    kind: text('kind').notNull(),
    // The draft: each part may be missing until it is published.
    subject: text('subject'),
    htmlContent: text('html_content'),
    textContent: text('text_content'),
    // 'html' | 'markdown' | 'blocks'; with markdown or blocks, html_content is rendered from the source.
    format: text('format').notNull().default('html'),
    markdownContent: text('markdown_content'),
    blocksContent: jsonb('blocks_content').$type<unknown>(),
    // text_content was made from the HTML (none given), so it is made again when the HTML changes.
    textGenerated: boolean('text_generated').notNull().default(false),
    // The inbox preview line after the subject, a Jinja template; shown in no part of the body.
    preheader: text('preheader'),
    // 0 until the first publish; versions are 1, 2, ... with no gaps.
    latestVersion: integer('latest_version').notNull().default(0),
    // Bumped by every write: writers compare it to detect a change they did not see.
    revision: integer('revision').notNull().default(1),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestampColumn('deleted_at'),
  },
  (table) => [index('templates_account_idx').on(table.accountId, table.id)],
);

/** A published version: a frozen copy of the draft. Never updated; the key makes a duplicate impossible. */
export const templateVersions = pgTable(
  'template_versions',
  {
    templateId: uuid('template_id')
      .notNull()
      .references(() => templates.id),
    version: integer('version').notNull(),
    accountId: uuid('account_id').notNull(),
    subject: text('subject').notNull(),
    htmlContent: text('html_content'),
    textContent: text('text_content'),
    format: text('format').notNull().default('html'),
    markdownContent: text('markdown_content'),
    blocksContent: jsonb('blocks_content').$type<unknown>(),
    preheader: text('preheader'),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.templateId, table.version] })],
);
