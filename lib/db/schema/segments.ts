import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, updatedAt } from './columns';

/** A saved filter over the account's contacts (marketing-api.md Part 2, Segments), with its last count for the list. */
export const segments = pgTable(
  'segments',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    // The filter tree as validated and normalised by segmentFilterSchema.
    filter: jsonb('filter').$type<Record<string, unknown>>().notNull(),
    // The count the list shows, refreshed by the segment count loop and on create, update and GET.
    contactCount: integer('contact_count'),
    countedAt: timestamp('counted_at', { withTimezone: true, mode: 'date' }),
    // While a worker counts it (the count loop's lease); a lapsed lease is simply claimed again.
    countLeaseUntil: timestamp('count_lease_until', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index('segments_account_idx').on(table.accountId, table.id),
    index('segments_counted_idx').on(table.countedAt),
  ],
);

/**
 * The latest campaign mail a contact received, opened and clicked, kept as events arrive (one upsert
 * per event) so that engagement conditions read one row per contact instead of scanning messages.
 * Its own table, not columns of `contacts`: opens arrive often and would rewrite the wide contact row.
 */
export const contactEngagement = pgTable(
  'contact_engagement',
  {
    // No foreign key: the engagement upsert runs inside the statement that records delivery outcomes,
    // where a contact deleted at that moment failed the key check and with it the whole batch (redelivered).
    // deleteContact deletes the row; segments read engagement through contacts, so a stray row matches nothing.
    contactId: uuid('contact_id').primaryKey(),
    accountId: uuid('account_id').notNull(),
    lastReceivedAt: timestamp('last_received_at', { withTimezone: true, mode: 'date' }),
    lastOpenedAt: timestamp('last_opened_at', { withTimezone: true, mode: 'date' }),
    lastClickedAt: timestamp('last_clicked_at', { withTimezone: true, mode: 'date' }),
  },
  (table) => [
    index('contact_engagement_received_idx').on(table.accountId, table.lastReceivedAt),
    index('contact_engagement_opened_idx').on(table.accountId, table.lastOpenedAt),
    index('contact_engagement_clicked_idx').on(table.accountId, table.lastClickedAt),
  ],
);
