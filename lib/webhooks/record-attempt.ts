import { and, eq, sql } from 'drizzle-orm';
import type { CoreConfig } from '@/lib/core/config';
import { cancelPendingDeliveries } from '@/lib/core/webhooks/cancel-pending-deliveries';
import type { Db } from '@/lib/db/client';
import { webhookDeliveries, webhooks, type WebhookAttempt } from '@/lib/db/schema';
import type { ClaimedDelivery } from './claim-due-deliveries';
import { nextRetryDelayMs } from './retry-schedule';
import type { AttemptResult } from './send-webhook';

/** Attempts a delivery's log keeps (the oldest go first); enough for a full schedule and some resends. */
const LOG_ENTRIES = 30;

export type RecordedAttempt = { status: 'delivered' | 'retrying' | 'failed'; disabledWebhook: boolean };

/**
 * Writes one attempt in one transaction: the delivery's state, next attempt and log, and the webhook's
 * counters. A failure schedules a retry (retry-schedule.ts) until the schedule is used up; sample events
 * get one attempt and leave the counters alone. A webhook whose run of failures reaches
 * WEBHOOK_DISABLE_AFTER_FAILURES attempts and WEBHOOK_DISABLE_AFTER_SECONDS is disabled, with why and
 * when, and its waiting deliveries end. Only a delivery this worker still holds is written (null
 * otherwise: its lease ran out and another worker has it).
 */
export async function recordAttempt(
  db: Db,
  config: Pick<CoreConfig, 'webhooks'>,
  attempt: { workerId: string; delivery: ClaimedDelivery; result: AttemptResult; at: Date; random?: () => number },
): Promise<RecordedAttempt | null> {
  const { delivery, result, at } = attempt;
  const delayMs = result.isSuccess || delivery.isTest ? null : nextRetryDelayMs(delivery.attemptsInRun + 1, config.webhooks.retrySchedule, attempt.random);
  const status = result.isSuccess ? 'delivered' : delayMs === null ? 'failed' : 'retrying';
  const entry: WebhookAttempt = { at: at.toISOString(), response_status: result.status, latency_ms: result.latencyMs, error: result.error, response_body: result.body };

  return db.transaction(async (tx) => {
    // The webhook row first, as updates and disables take it (webhook, then its deliveries).
    const [webhook] = delivery.isTest
      ? [null]
      : await tx
          .select({ enabled: webhooks.enabled, errors: webhooks.errorsSinceLastSuccess, failingSince: webhooks.failingSince })
          .from(webhooks)
          .where(eq(webhooks.id, delivery.webhookId))
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
    if (!webhook) return { status, disabledWebhook: false };

    if (result.isSuccess) {
      await tx
        .update(webhooks)
        .set({ successCount: sql`${webhooks.successCount} + 1`, errorsSinceLastSuccess: 0, failingSince: null, lastRequestAt: at })
        .where(eq(webhooks.id, delivery.webhookId));
      return { status, disabledWebhook: false };
    }
    const errors = webhook.errors + 1;
    const failingSince = webhook.failingSince ?? at;
    const isDisabling =
      webhook.enabled && errors >= config.webhooks.disableAfterFailures && at.getTime() - failingSince.getTime() >= config.webhooks.disableAfterSeconds * 1000;
    await tx
      .update(webhooks)
      .set({
        errorCount: sql`${webhooks.errorCount} + 1`,
        errorsSinceLastSuccess: errors,
        failingSince,
        lastRequestAt: at,
        ...(isDisabling
          ? { enabled: false, disabledAt: at, disabledReason: `disabled after ${errors} failed deliveries in a row since ${failingSince.toISOString()}; the last: ${result.error ?? 'failed'}`.slice(0, 500) }
          : {}),
      })
      .where(eq(webhooks.id, delivery.webhookId));
    if (isDisabling) await cancelPendingDeliveries(tx, delivery.webhookId, 'not sent: the webhook was disabled after a run of failed deliveries', at);
    return { status, disabledWebhook: isDisabling };
  });
}
