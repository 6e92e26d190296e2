import { sql } from 'drizzle-orm';
import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/**
 * Sending domains. Deletion is soft (`deleted_at`): messages and events keep pointing at the row.
 * The DNS, DKIM and pause columns arrive with the domains capability.
 */
export const domains = pgTable(
  'domains',
  {
    id: id(),
    accountId: uuid('account_id').notNull().references(() => accounts.id),
    // Lowercase A-label form, no trailing dot.
    domain: text('domain').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    deletedAt: timestampColumn('deleted_at'),
  },
  (table) => [
    uniqueIndex('domains_account_domain_live_idx').on(table.accountId, table.domain).where(sql`${table.deletedAt} is null`),
    index('domains_domain_idx').on(table.domain),
  ],
);
