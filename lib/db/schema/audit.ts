import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { id, timestampColumn } from './columns';

/**
 * Who changed what in an account, one row per change, written in the change's own transaction
 * (lib/core/audit/record-audit-event.ts). Reads and sends are never recorded here. `changes` names
 * the fields that changed, never their values. Kept AUDIT_RETENTION_DAYS.
 */
export const auditEvents = pgTable(
  'audit_events',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    occurredAt: timestampColumn('occurred_at')
      .notNull()
      .default(sql`now()`),
    // 'api_key' | 'user' | 'smtp_credential' | 'operator' | 'system'
    actorType: text('actor_type').notNull(),
    actorId: text('actor_id'),
    actorLabel: text('actor_label'),
    // '<resource>.<verb>', e.g. 'api_key.create'
    action: text('action').notNull(),
    resourceType: text('resource_type').notNull(),
    resourceId: text('resource_id'),
    ip: text('ip'),
    requestId: text('request_id'),
    changes: jsonb('changes').$type<string[]>().notNull().default([]),
  },
  (table) => [
    // The Activity page and the API: an account's events, newest first, filtered on top.
    index('audit_events_account_time_idx').on(table.accountId, table.occurredAt.desc(), table.id.desc()),
    index('audit_events_resource_idx').on(table.accountId, table.resourceType, table.resourceId),
    // The retention purge deletes by age across accounts.
    index('audit_events_time_idx').on(table.occurredAt),
  ],
);
