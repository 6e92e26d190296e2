import { and, asc, eq, inArray, isNull, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { routes, webhookDeliveries, webhooks } from '@/lib/db/schema';

export type ClaimedDelivery = typeof webhookDeliveries.$inferSelect;

/**
 * Claims due deliveries in one statement, as the delivery engine claims messages: SKIP LOCKED lets
 * any number of workers take disjoint sets, and the lease hands a dead worker's rows to another
 * (lib/workers/reclaim-leases.ts frees them sooner). Deliveries of a disabled webhook or route, or of
 * one in backoff (its next_attempt_at ahead), are not taken (sample events excepted), nor those of
 * targets (webhook or route ids) this process already calls at its limit. Unsafe: every account's outbox, by design; only the dispatcher calls it.
 */
export async function unsafeClaimDueDeliveries(
  db: Db,
  options: { workerId: string; limit: number; leaseMs: number; now: Date; skipTargets: string[] },
): Promise<ClaimedDelivery[]> {
  const { now } = options;
  // The closed targets (disabled, or backed off) in one hashed list: a backlog waiting for a failing
  // endpoint costs each poll a lookup per row, not a query per row.
  const at = sql`${now.toISOString()}::timestamptz`;
  const closedTargets = sql`select ${webhooks.id} from ${webhooks} where not ${webhooks.enabled} or ${webhooks.nextAttemptAt} > ${at}
    union all select ${routes.id} from ${routes} where not ${routes.enabled} or ${routes.nextAttemptAt} > ${at}`;
  const due = db
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.status, ['pending', 'retrying']),
        lte(webhookDeliveries.nextAttemptAt, now),
        or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
        or(
          eq(webhookDeliveries.isTest, true),
          sql`coalesce(${webhookDeliveries.webhookId}, ${webhookDeliveries.routeId}) not in (${closedTargets})`,
        ),
        options.skipTargets.length
          ? notInArray(sql`coalesce(${webhookDeliveries.webhookId}, ${webhookDeliveries.routeId})`, options.skipTargets)
          : undefined,
      ),
    )
    .orderBy(asc(webhookDeliveries.nextAttemptAt))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(webhookDeliveries)
    .set({ leaseUntil: new Date(now.getTime() + options.leaseMs), lockedBy: options.workerId })
    .where(inArray(webhookDeliveries.id, due))
    .returning();
}

/** Gives claimed deliveries back untouched (more than this process calls one webhook or route with at once). */
export async function releaseDeliveries(db: Db, workerId: string, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .update(webhookDeliveries)
    .set({ leaseUntil: null, lockedBy: null })
    .where(and(inArray(webhookDeliveries.id, ids), eq(webhookDeliveries.lockedBy, workerId)));
}
