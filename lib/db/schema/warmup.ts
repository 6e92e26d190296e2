import { date, integer, pgTable, primaryKey, text, uuid } from 'drizzle-orm/pg-core';
import { updatedAt } from './columns';

/**
 * Warm-up counters (lib/mail/warmup-gate.ts): the messages of a warming sending domain handed to
 * each provider's MX on one UTC day, and those held for the next day. Reserved one message at a
 * time by a conditional upsert, so the plan's limit is the decision's only input: no scan of messages.
 */
export const warmupCounters = pgTable(
  'warmup_counters',
  {
    domainId: uuid('domain_id').notNull(),
    // 'gmail' | 'microsoft' | 'yahoo' | 'apple' | 'other'
    provider: text('provider').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    sent: integer('sent').notNull().default(0),
    held: integer('held').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (table) => [primaryKey({ columns: [table.domainId, table.provider, table.day] })],
);
