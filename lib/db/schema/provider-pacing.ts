import { integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { timestampColumn, updatedAt } from './columns';

/**
 * Each delivery process's pacing of a mailbox provider (or of another destination) that throttled
 * it, written when it changes (lib/mail/provider-pacing.ts): the API and the dashboard sum the
 * current rows. No foreign key to `workers`: a row outlives its process only until it goes stale.
 */
export const providerPacing = pgTable(
  'provider_pacing',
  {
    workerId: text('worker_id').notNull(),
    // 'gmail' | 'microsoft' | 'yahoo' | 'apple' | 'domain:<name>' | 'relay'
    key: text('key').notNull(),
    concurrency: integer('concurrency').notNull(),
    normalConcurrency: integer('normal_concurrency').notNull(),
    slowedSince: timestampColumn('slowed_since'),
    throttledReplies: integer('throttled_replies').notNull().default(0),
    lastThrottledAt: timestampColumn('last_throttled_at'),
    // The least time between two messages' starts, once one connection is still too many; 0: none.
    spacingMs: integer('spacing_ms').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.workerId, table.key] })],
);
