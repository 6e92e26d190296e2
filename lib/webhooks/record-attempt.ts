import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { systemPrincipal } from '@/lib/auth/principal';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import type { Services } from '@/lib/core/context';
import { notifyPeople } from '@/lib/core/notifications/notify-people';
import { cancelPendingDeliveries } from '@/lib/core/webhooks/cancel-pending-deliveries';
import { deliveryTargetOf } from '@/lib/core/webhooks/delivery-target';
import type { Db } from '@/lib/db/client';
import { routes, webhookDeliveries, webhooks, type WebhookAttempt } from '@/lib/db/schema';
import type { ClaimedDelivery } from './claim-due-deliveries';
import { endpointBackoffMs, nextRetryDelayMs } from './retry-schedule';
import type { AttemptResult } from './send-webhook';

/** Attempts a delivery's log keeps (the oldest go first); enough for a full schedule and some resends. */
const LOG_ENTRIES = 30;

/** `disabledWebhook`: this attempt disabled the delivery's webhook or route. */
export type RecordedAttempt = { status: 'delivered' | 'retrying' | 'failed'; disabledWebhook: boolean };

/**
 * Writes one attempt in one transaction: the delivery's state, next attempt and log, and the counters
 * of its webhook or route (the two tables share those columns). A failure schedules a retry
 * (retry-schedule.ts; routes have their own schedule) until the schedule is used up, and backs the
 * whole endpoint off (its next_attempt_at; a success clears it); sample events get one attempt and
 * leave the counters alone. A target whose run of failures reaches
 * WEBHOOK_DISABLE_AFTER_FAILURES attempts and WEBHOOK_DISABLE_AFTER_SECONDS is disabled, with why and
 * when, and its waiting deliveries end, and the account's administrators are mailed. Only a delivery this worker still holds is written (null
 * otherwise: its lease ran out and another worker has it).
 */
export async function recordAttempt(
  db: Db,
  services: Pick<Services, 'config' | 'logger'>,
  attempt: { workerId: string; delivery: ClaimedDelivery; result: AttemptResult; at: Date; random?: () => number },
): Promise<RecordedAttempt | null> {
  const { delivery, result, at } = attempt;
  const { config } = services;
  const target = deliveryTargetOf(delivery);
  // Same column names in both tables; the cast only picks one static type for the query builder.
  const counters = (target.kind === 'route' ? routes : webhooks) as typeof webhooks;
  const schedule = target.kind === 'route' ? config.webhooks.routeRetrySchedule : config.webhooks.retrySchedule;
  const delayMs =
    result.isSuccess || delivery.isTest ? null : nextRetryDelayMs(delivery.attemptsInRun + 1, schedule, attempt.random);
  const status = result.isSuccess ? 'delivered' : delayMs === null ? 'failed' : 'retrying';
  const entry: WebhookAttempt = {
    at: at.toISOString(),
    response_status: result.status,
    latency_ms: result.latencyMs,
    error: result.error,
    response_body: result.body,
  };

  return db.transaction(async (tx) => {
    // The webhook or route row first, as updates and disables take it (target, then its deliveries).
    const [webhook] = delivery.isTest
      ? [null]
      : await tx
          .select({
            accountId: counters.accountId,
            name: counters.name,
            enabled: counters.enabled,
            errors: counters.errorsSinceLastSuccess,
            failingSince: counters.failingSince,
          })
          .from(counters)
          .where(eq(counters.id, target.id))
          .for('no key update');
    const [held] = await tx
      .update(webhookDeliveries)
      .set({
        status,
        attempts: delivery.attempts + 1,
        attemptsInRun: delivery.attemptsInRun + 1,
        nextAttemptAt: delayMs === null ? null : new Date(at.getTime() + delayMs),
        attemptLog: [...delivery.attemptLog, entry].slice(-LOG_ENTRIES),
        leaseUntil: null,
        lockedBy: null,
        updatedAt: at,
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.lockedBy, attempt.workerId)))
      .returning({ id: webhookDeliveries.id });
    if (!held) return null;
    if (!webhook) {
      // A sample that got through says the endpoint is back: its waiting deliveries need not sit out the backoff.
      if (result.isSuccess)
        await tx
          .update(counters)
          .set({ nextAttemptAt: at })
          .where(and(eq(counters.id, target.id), isNotNull(counters.failingSince)));
      return { status, disabledWebhook: false };
    }

    if (result.isSuccess) {
      await tx
        .update(counters)
        .set({
          successCount: sql`${counters.successCount} + 1`,
          errorsSinceLastSuccess: 0,
          failingSince: null,
          nextAttemptAt: null,
          lastRequestAt: at,
        })
        .where(eq(counters.id, target.id));
      return { status, disabledWebhook: false };
    }
    const errors = webhook.errors + 1;
    const failingSince = webhook.failingSince ?? at;
    const isDisabling =
      webhook.enabled &&
      errors >= config.webhooks.disableAfterFailures &&
      at.getTime() - failingSince.getTime() >= config.webhooks.disableAfterSeconds * 1000;
    await tx
      .update(counters)
      .set({
        errorCount: sql`${counters.errorCount} + 1`,
        errorsSinceLastSuccess: errors,
        failingSince,
        nextAttemptAt: new Date(at.getTime() + endpointBackoffMs(errors, schedule)),
        lastRequestAt: at,
        ...(isDisabling
          ? {
              enabled: false,
              disabledAt: at,
              disabledReason:
                `disabled after ${errors} failed deliveries in a row since ${failingSince.toISOString()}; the last: ${result.error ?? 'failed'}`.slice(
                  0,
                  500,
                ),
            }
          : {}),
      })
      .where(eq(counters.id, target.id));
    if (isDisabling) {
      await cancelPendingDeliveries(
        tx,
        target,
        `not sent: the ${target.kind} was disabled after a run of failed deliveries`,
        at,
      );
      await recordAuditEvent(
        tx,
        { principal: systemPrincipal(webhook.accountId) },
        { action: `${target.kind}.disable`, resource: { type: target.kind, id: target.id }, changes: ['enabled'] },
      );
      await notifyPeople({ ...services, now: () => at }, tx, {
        kind: target.kind === 'route' ? 'route_disabled' : 'webhook_disabled',
        accountId: delivery.accountId,
        resource: { id: target.id, name: webhook.name },
        detail: `${errors} failed deliveries in a row; the last: ${result.error ?? `HTTP ${result.status ?? 'error'}`}`,
      });
    }
    return { status, disabledWebhook: isDisabling };
  });
}
