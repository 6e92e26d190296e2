import { index, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/**
 * Addresses not to send to: per account, for one domain or ('') all of them. Kinds: bounce,
 * complaint, manual, protected. An expired row no longer counts; a new suppression of the same
 * address and domain takes its place.
 */
export const suppressions = pgTable(
  'suppressions',
  {
    id: id(),
    accountId: uuid('account_id').notNull(),
    email: text('email').notNull(),
    // Lowercase domain name, or '' for every domain of the account (unique with NULLs would not work).
    domain: text('domain').notNull().default(''),
    kind: text('kind').notNull(),
    reason: text('reason'),
    expiresAt: timestampColumn('expires_at').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex('suppressions_account_email_domain_idx').on(table.accountId, table.email, table.domain),
    index('suppressions_account_idx').on(table.accountId, table.id),
  ],
);
