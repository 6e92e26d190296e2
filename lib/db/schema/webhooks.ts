import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { accounts } from './accounts';
import { createdAt, id, timestampColumn, updatedAt } from './columns';
import { routes } from './routes';

/** One attempt to deliver a webhook event, as the delivery log shows it. */
export type WebhookAttempt = {
  at: string;
  response_status: number | null;
  latency_ms: number;
  error: string | null;
  /** The first bytes of the receiver's answer. */
  response_body: string | null;
};

/**
 * Outbound event subscriptions. The signing secret is encrypted (it is needed in plain form to sign);
 * `disabled_reason`/`disabled_at` say why and when Mailstead turned the webhook off by itself.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: id(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    url: text('url').notNull(),
    secretEncrypted: text('secret_encrypted').notNull(),
    // 'global' | 'scoped'; a scoped webhook's domains are in webhook_domains.
    scope: text('scope').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    onReception: boolean('on_reception').notNull().default(false),
    onDelivered: boolean('on_delivered').notNull().default(false),
    onTransientError: boolean('on_transient_error').notNull().default(false),
    onFailed: boolean('on_failed').notNull().default(false),
    onBounced: boolean('on_bounced').notNull().default(false),
    onSuppressed: boolean('on_suppressed').notNull().default(false),
    onOpened: boolean('on_opened').notNull().default(false),
    onClicked: boolean('on_clicked').notNull().default(false),
    onSuppressionCreated: boolean('on_suppression_created').notNull().default(false),
    onDnsError: boolean('on_dns_error').notNull().default(false),
    // `message.complained`, a Mailstead extension (complaint reports, ARF).
    onComplained: boolean('on_complained').notNull().default(false),
    successCount: integer('success_count').notNull().default(0),
    errorCount: integer('error_count').notNull().default(0),
    errorsSinceLastSuccess: integer('errors_since_last_success').notNull().default(0),
    // When the current run of failures began (null after a success): auto-disable needs a long run.
    failingSince: timestampColumn('failing_since'),
    // Backoff per endpoint: while it fails, none of its deliveries is claimed before this; then one probe at a time.
    nextAttemptAt: timestampColumn('next_attempt_at'),
    lastRequestAt: timestampColumn('last_request_at'),
    disabledReason: text('disabled_reason'),
    disabledAt: timestampColumn('disabled_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  // The fan-out trigger looks webhooks up by account for every statement that writes events.
  (table) => [
    index('webhooks_account_idx').on(table.accountId, table.id),
    index('webhooks_enabled_account_idx')
      .on(table.accountId)
      .where(sql`${table.enabled}`),
  ],
);

/** The domains (by name) of a scoped webhook: it receives the events of these sending domains. */
export const webhookDomains = pgTable(
  'webhook_domains',
  {
    webhookId: uuid('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    domain: text('domain').notNull(),
  },
  (table) => [primaryKey({ columns: [table.webhookId, table.domain] })],
);

/**
 * The outbox: one row per (event, webhook), written by the fan-out trigger on `events` in the
 * transaction of the event (see lib/core/webhooks/fan-out.ts), or per (inbound message, route),
 * written by the MX (lib/core/inbound/receive-inbound-mail.ts); exactly one of webhook_id and
 * route_id is set. Workers claim due rows with FOR UPDATE SKIP LOCKED and a lease; the id is the
 * `webhook-id` header, the same on every retry.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: id(),
    accountId: uuid('account_id').notNull(),
    webhookId: uuid('webhook_id').references(() => webhooks.id, { onDelete: 'cascade' }),
    routeId: uuid('route_id').references(() => routes.id, { onDelete: 'cascade' }),
    // The event row; for a route, the route-message id (`data.id`); for sample events sent by "trigger", an id of their own with no row.
    eventId: uuid('event_id').notNull(),
    eventType: text('event_type').notNull(),
    // Deliveries with no event row carry their payload here: samples (trigger) and, whole, inbound mail for a route.
    samplePayload: jsonb('sample_payload').$type<Record<string, unknown>>(),
    isTest: boolean('is_test').notNull().default(false),
    // 'pending' | 'retrying' | 'delivered' | 'failed'
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    // Attempts since the delivery was last queued (created or sent again): the retry schedule's position.
    attemptsInRun: integer('attempts_in_run').notNull().default(0),
    nextAttemptAt: timestampColumn('next_attempt_at'),
    leaseUntil: timestampColumn('lease_until'),
    lockedBy: text('locked_by'),
    attemptLog: jsonb('attempt_log')
      .$type<WebhookAttempt[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    check('webhook_deliveries_one_target', sql`num_nonnulls(${table.webhookId}, ${table.routeId}) = 1`),
    uniqueIndex('webhook_deliveries_event_webhook_idx').on(table.eventId, table.webhookId),
    // An inbound message is routed once per route (and recipient): a sender's retry after a lost 250 adds nothing.
    uniqueIndex('webhook_deliveries_event_route_idx')
      .on(table.eventId, table.routeId)
      .where(sql`${table.routeId} is not null`),
    index('webhook_deliveries_webhook_idx').on(table.webhookId, table.id),
    index('webhook_deliveries_route_idx')
      .on(table.routeId, table.id)
      .where(sql`${table.routeId} is not null`),
    index('webhook_deliveries_due_idx')
      .on(table.nextAttemptAt)
      .where(sql`${table.status} in ('pending', 'retrying')`),
    index('webhook_deliveries_locked_by_idx')
      .on(table.lockedBy)
      .where(sql`${table.lockedBy} is not null`),
    index('webhook_deliveries_created_idx').using('brin', table.createdAt),
  ],
);
