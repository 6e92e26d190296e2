import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/**
 * Inbound routes: mail our MX accepts for a matching recipient is POSTed to `url` as `message.routing`
 * through the webhook outbox (webhook_deliveries.route_id). The counters and auto-disable columns are
 * the webhooks' own, so that one dispatcher records attempts for both.
 */
export const routes = pgTable(
  'routes',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    url: text('url').notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    // The pattern as the API shows it, lower-cased: '' (no filter), `local@domain` with `*` in the local part, or a local part alone.
    recipient: text('recipient').notNull().default(''),
    // The pattern's domain (scopes, `?domain=`, the MX's lookup); null when it names none (every domain of the account).
    domain: text('domain'),
    attachments: boolean('attachments').notNull().default(false),
    headers: boolean('headers').notNull().default(false),
    groupByMessageId: boolean('group_by_message_id').notNull().default(false),
    stripReplies: boolean('strip_replies').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    successCount: integer('success_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    errorsSinceLastSuccess: integer('errors_since_last_success').notNull().default(0),
    failingSince: timestampColumn('failing_since'),
    // Backoff per endpoint: while it fails, none of its deliveries is claimed before this; then one probe at a time.
    nextAttemptAt: timestampColumn('next_attempt_at'),
    lastRequestAt: timestampColumn('last_request_at'),
    disabledReason: text('disabled_reason'),
    disabledAt: timestampColumn('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The MX looks up enabled routes by domain (and the account's domain-less ones) at every RCPT TO.
  (table) => [
    index('routes_account_idx').on(table.accountId, table.id),
    index('routes_enabled_domain_idx')
      .on(table.domain)
      .where(sql`${table.enabled}`),
    index('routes_enabled_account_idx')
      .on(table.accountId)
      .where(sql`${table.enabled} and ${table.domain} is null`),
  ],
);
