import { and, asc, getTableColumns, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { messages } from '@/lib/db/schema';
import { QUEUED_STATES } from './count-queued-messages';

/**
 * What a claim leaves out: the row's history and counters, which delivery never reads (its outcome
 * write appends to `delivery_attempts` in SQL). On PGlite, decoding every column of a 200-message
 * claim was half of the claim's time on the database's thread.
 */
const UNREAD_BY_DELIVERY = [
  'direction',
  'deliveryAttempts',
  'leaseUntil',
  'lockedBy',
  'dataSentAt',
  'sentAt',
  'deliveredAt',
  'bounceClassification',
  'complainedAt',
  'openCount',
  'clickCount',
  'retainUntil',
  'createdAt',
  'updatedAt',
] as const;
type UnreadByDelivery = (typeof UNREAD_BY_DELIVERY)[number];
const ALL_COLUMNS = getTableColumns(messages);
const CLAIMED_COLUMNS = Object.fromEntries(
  Object.entries(ALL_COLUMNS).filter(([key]) => !(UNREAD_BY_DELIVERY as readonly string[]).includes(key)),
) as Omit<typeof ALL_COLUMNS, UnreadByDelivery>;

export type ClaimedMessage = Omit<typeof messages.$inferSelect, UnreadByDelivery>;

/**
 * Claims due messages in one statement: SKIP LOCKED lets workers on many machines take disjoint
 * batches, and the lease hands a dead worker's messages to another once it runs out (the last resort:
 * lib/workers/reclaim-leases.ts frees them as soon as the worker is known to be gone). Unsafe: it takes every
 * account's due mail, by design; only the delivery loop calls it (lib/workers/delivery-loop.ts).
 */
export async function unsafeClaimDueMessages(
  db: Db,
  options: { workerId: string; limit: number; leaseMs: number; now: Date },
): Promise<ClaimedMessage[]> {
  const { now } = options;
  const due = db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        inArray(messages.status, QUEUED_STATES),
        lte(messages.nextAttemptAt, now),
        or(isNull(messages.leaseUntil), lt(messages.leaseUntil, now)),
      ),
    )
    .orderBy(asc(messages.nextAttemptAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(messages)
    .set({ leaseUntil: new Date(now.getTime() + options.leaseMs), lockedBy: options.workerId })
    .where(inArray(messages.id, due))
    .returning(CLAIMED_COLUMNS);
}
