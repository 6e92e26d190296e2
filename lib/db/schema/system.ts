import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { createdAt, id, timestampColumn, updatedAt } from './columns';

/** Instance-wide facts, such as the master-key fingerprint. */
export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

/** Stored outcomes of requests made with an Idempotency-Key (see lib/api/middleware/idempotency.ts). */
export const idempotencyRecords = pgTable(
  'idempotency_records',
  {
    accountId: uuid('account_id').notNull(),
    key: text('key').notNull(),
    method: text('method').notNull(),
    path: text('path').notNull(),
    bodyHash: text('body_hash').notNull(),
    // 'in_progress' | 'completed'
    state: text('state').notNull(),
    leaseExpiresAt: timestampColumn('lease_expires_at').notNull(),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    isEncrypted: boolean('is_encrypted').notNull().default(false),
    // Who ran it (`api_key:<id>`, `user:<id>`): a secret-bearing response replays only to them.
    credential: text('credential'),
    expiresAt: timestampColumn('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.accountId, table.key] }),
    index('idempotency_expires_idx').on(table.expiresAt),
  ],
);

/**
 * The event log, in webhook vocabulary (`message.delivered`, `domain.dns_error`, ...). Written in the
 * same transaction as the change it records; webhooks and statistics read from it.
 */
export const events = pgTable(
  'events',
  {
    id: id(),
    accountId: uuid('account_id').notNull(),
    type: text('type').notNull(),
    messageId: uuid('message_id'),
    domainId: uuid('domain_id'),
    payload: jsonb('payload').notNull(),
    isSandbox: boolean('is_sandbox').notNull().default(false),
    createdAt: createdAt(),
  },
  (table) => [
    index('events_account_idx').on(table.accountId, table.id),
    // For the bounce-rate pause: only real outcomes, so that accepting mail does not pay for it.
    index('events_domain_outcomes_idx')
      .on(table.domainId, table.createdAt)
      .where(sql`${table.type} in ('message.bounced', 'message.delivered') and not ${table.isSandbox}`),
    index('events_message_idx')
      .on(table.messageId)
      .where(sql`${table.messageId} is not null`),
  ],
);

/**
 * Scheduled work, claimed with FOR UPDATE SKIP LOCKED so that each job runs once however many worker
 * processes there are. Periodic jobs are one row per name that reschedules itself.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    // Unique for periodic jobs; null for one-off jobs.
    name: text('name').unique(),
    kind: text('kind').notNull(),
    payload: jsonb('payload')
      .notNull()
      .default(sql`'{}'::jsonb`),
    runAt: timestampColumn('run_at')
      .notNull()
      .default(sql`now()`),
    intervalSeconds: integer('interval_seconds'),
    lockedUntil: timestampColumn('locked_until'),
    lockedBy: text('locked_by'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index('jobs_due_idx').on(table.runAt)],
);

/**
 * Processes that claim work (delivery leases), with a heartbeat: at start, and while running, a
 * process frees at once the leases of workers that are gone (dead pid on this host, or silent).
 */
export const workers = pgTable('workers', {
  id: text('id').primaryKey(),
  hostname: text('hostname').notNull(),
  pid: integer('pid').notNull(),
  startedAt: timestampColumn('started_at').notNull(),
  heartbeatAt: timestampColumn('heartbeat_at').notNull(),
});
