import { and, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { webhookDeliveries } from '@/lib/db/schema';
import type { DeliveryTarget } from './delivery-target';

/**
 * Ends the deliveries of a webhook or route that were still waiting for an attempt (it was disabled):
 * they are `failed` with the reason in their log, and can be sent again one by one. One in flight finishes.
 */
export async function cancelPendingDeliveries(
  db: DbOrTx,
  target: DeliveryTarget,
  reason: string,
  now: Date,
): Promise<void> {
  const entry = JSON.stringify({
    at: now.toISOString(),
    response_status: null,
    latency_ms: 0,
    error: reason,
    response_body: null,
  });
  await db
    .update(webhookDeliveries)
    .set({
      status: 'failed',
      nextAttemptAt: null,
      attemptLog: sql`${webhookDeliveries.attemptLog} || jsonb_build_array(${entry}::jsonb)`,
      updatedAt: now,
    })
    .where(
      and(
        target.kind === 'route' ? eq(webhookDeliveries.routeId, target.id) : eq(webhookDeliveries.webhookId, target.id),
        inArray(webhookDeliveries.status, ['pending', 'retrying']),
        or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, now)),
      ),
    );
}
