import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/**
 * A contact export job (`object: "contact_export"`, marketing-api.md Part 2, Exports). The worker
 * role writes the CSV under DATA_DIR/exports, named after the id; the file and then the row expire
 * (expires_at, 24 hours after completion; the periodic job deletes the file).
 */
export const contactExports = pgTable(
  'contact_exports',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    // How the audit log names the requester: { type, id, label }.
    requestedBy: jsonb('requested_by').$type<{ type: string; id: string | null; label: string | null }>().notNull(),
    // What to export: nothing (all contacts), { list_id }, { segment_id } or { filter }.
    selection: jsonb('selection').$type<Record<string, unknown>>().notNull().default({}),
    // 'queued' | 'running' | 'done' | 'failed' | 'expired'
    status: text('status').notNull().default('queued'),
    exportedCount: integer('exported_count').notNull().default(0),
    // The selection's size when the run started (a count; contacts may come and go while it runs).
    totalEstimate: integer('total_estimate'),
    fileName: text('file_name'),
    byteSize: bigint('byte_size', { mode: 'number' }),
    error: text('error'),
    attempts: integer('attempts').notNull().default(0),
    lockedBy: text('locked_by'),
    leaseUntil: timestampColumn('lease_until'),
    startedAt: timestampColumn('started_at'),
    completedAt: timestampColumn('completed_at'),
    expiresAt: timestampColumn('expires_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('contact_exports_account_idx').on(table.accountId, table.id),
    index('contact_exports_due_idx')
      .on(table.createdAt)
      .where(sql`${table.status} in ('queued', 'running')`),
    index('contact_exports_expiry_idx')
      .on(table.expiresAt)
      .where(sql`${table.status} in ('done', 'failed')`),
  ],
);
