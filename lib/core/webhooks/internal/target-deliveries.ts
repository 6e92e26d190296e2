import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { VerbContext } from '@/lib/core/context';
import { paginate, type PageQuery } from '@/lib/core/shared/pagination';
import type { DbOrTx } from '@/lib/db/client';
import { webhookDeliveries } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { signalWork } from '@/lib/core/shared/work-signal';
import type { DeliveryTarget } from '../delivery-target';
import { loadDeliveryPayloads } from '../load-delivery-payloads';
import { presentDelivery, type DeliveryRow } from './present';
import { deliveriesOf, getDeliveryInAccount } from './queries';

// The delivery log of one webhook or route (one outbox holds both): the work behind the webhook and
// route delivery verbs, which check their own scopes and fetch the target within the account first.

/** Newest first: each event or message sent, its state and its last attempt. */
export function listDeliveriesOfTarget(db: DbOrTx, accountId: string, target: DeliveryTarget, query: PageQuery) {
  return paginate(db, {
    table: webhookDeliveries,
    idColumn: webhookDeliveries.id,
    where: deliveriesOf(accountId, target),
    query,
    map: (rows: DeliveryRow[]) => rows.map(presentDelivery),
  });
}

/** One delivery with every attempt and the body it sends. */
export async function describeDeliveryOfTarget(
  db: DbOrTx,
  accountId: string,
  target: DeliveryTarget,
  deliveryId: string,
) {
  const row = await getDeliveryInAccount(db, accountId, target, deliveryId);
  const payload = (await loadDeliveryPayloads(db, [row])).get(row.id) ?? null;
  return { ...presentDelivery(row), attempts_log: row.attemptLog, payload };
}

/**
 * "Send again": the same delivery, with the same webhook-id (receivers de-duplicate on it), queued for
 * an attempt now with a fresh retry schedule. Not while an attempt is in flight, nor (tests aside)
 * while the webhook or route is disabled.
 */
export async function resendDeliveryOfTarget(
  { db, now }: Pick<VerbContext, 'db' | 'now'>,
  accountId: string,
  target: DeliveryTarget & { isEnabled: boolean },
  deliveryId: string,
) {
  const row = await getDeliveryInAccount(db, accountId, target, deliveryId);
  if (!target.isEnabled && !row.isTest)
    throw conflict(`the ${target.kind} is disabled: enable it before sending again`);
  const at = now();
  const [queued] = await db
    .update(webhookDeliveries)
    .set({ status: 'pending', nextAttemptAt: at, attemptsInRun: 0, updatedAt: at })
    .where(
      and(
        eq(webhookDeliveries.id, row.id),
        eq(webhookDeliveries.accountId, accountId),
        or(isNull(webhookDeliveries.leaseUntil), lt(webhookDeliveries.leaseUntil, at)),
      ),
    )
    .returning({ id: webhookDeliveries.id });
  if (!queued) throw conflict('this delivery is being attempted right now; try again in a moment');
  signalWork('webhook-deliveries');
  return { message: `delivery ${row.id} of ${row.eventType} queued to be sent again` };
}
