import { boolean, index, pgTable, primaryKey, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { accounts, users } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/** A person's choice per notification kind; no row means the kind is sent (lib/core/notifications/kinds.ts). */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    isEnabled: boolean('is_enabled').notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.kind] })],
);

/**
 * One row per notification mailed. The unique key (person, kind, resource, hour) is what decides
 * "at most one an hour": the insert that wins sends, a conflicting one (another process) does not.
 */
export const notificationSends = pgTable(
  'notification_sends',
  {
    id: id(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id').notNull(),
    hourBucket: timestampColumn('hour_bucket').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('notification_sends_once_an_hour_idx').on(
      table.userId,
      table.kind,
      table.resourceType,
      table.resourceId,
      table.hourBucket,
    ),
    index('notification_sends_created_idx').on(table.createdAt),
  ],
);
