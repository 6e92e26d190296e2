import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';

export const QUEUED_STATES = ['queued', 'deferred', 'scheduled'] as const;

export type QueueDepth = { counts: Record<(typeof QUEUED_STATES)[number], number>; oldestDueAt: Date | null };

/**
 * Messages waiting for delivery, by state, and when the longest-waiting due one became due. One
 * grouped statement whose filter is the predicate of the partial index messages_due_idx, so it
 * reads the queue, never the delivered history. Unsafe: every account's queue, for the metrics.
 */
export async function unsafeCountQueuedMessages(db: Db, now: Date): Promise<QueueDepth> {
  const result = await db.execute(sql`
    select status, count(*)::int as count, min(next_attempt_at) filter (where next_attempt_at <= ${now.toISOString()}::timestamptz)::text as oldest_due
    from messages where status in ('queued', 'deferred', 'scheduled') group by status`);
  const rows = (result as unknown as { rows: { status: string; count: number; oldest_due: string | null }[] }).rows;
  const counts = { queued: 0, deferred: 0, scheduled: 0 };
  let oldestDueAt: Date | null = null;
  for (const row of rows) {
    if (row.status in counts) counts[row.status as keyof typeof counts] = Number(row.count);
    const due = row.oldest_due ? new Date(row.oldest_due) : null;
    if (due && (!oldestDueAt || due < oldestDueAt)) oldestDueAt = due;
  }
  return { counts, oldestDueAt };
}
