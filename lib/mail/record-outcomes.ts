import { and, eq } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { messageEventPayload } from '@/lib/core/events/message-event';
import type { EventType } from '@/lib/core/events/record-event';
import { Rollup, type Counter } from '@/lib/core/stats/rollup';
import { AUTOMATIC_SUPPRESSION_DAYS, suppressRecipient } from '@/lib/core/suppressions/suppress-recipient';
import type { Db } from '@/lib/db/client';
import { events, messages, type DeliveryAttempt } from '@/lib/db/schema';
import type { ClaimedMessage } from './claim-due-messages';
import { HARD_BOUNCES } from './classify-bounce';
import type { Outcome } from './outcome';

const EVENT_OF: Record<Outcome['kind'], { type: EventType; counter: Counter; status: string }> = {
  delivered: { type: 'message.delivered', counter: 'delivered', status: 'delivered' },
  deferred: { type: 'message.transient_error', counter: 'deferred', status: 'deferred' },
  bounced: { type: 'message.bounced', counter: 'bounced', status: 'bounced' },
  failed: { type: 'message.failed', counter: 'failed', status: 'failed' },
  suppressed: { type: 'message.suppressed', counter: 'suppressed', status: 'suppressed' },
};

const DAY_MS = 24 * 3600 * 1000;

/**
 * Writes a batch of outcomes in one transaction: each message's new state and attempt log, its
 * events, the statistics counters, and suppressions for hard bounces. A deferral that would retry
 * after the message expires fails it instead.
 */
export async function recordOutcomes(services: Pick<Services, 'config'>, db: Db, workerId: string, results: { message: ClaimedMessage; outcome: Outcome }[], now: Date): Promise<void> {
  if (results.length === 0) return;
  const rollup = new Rollup();
  const eventRows: (typeof events.$inferInsert)[] = [];
  const schedule = services.config.delivery.retrySchedule;
  await db.transaction(async (tx) => {
    for (const { message, outcome: reported } of results) {
      let outcome = reported;
      const attempts = message.attempts + 1;
      let nextAttemptAt: Date | null = null;
      if (outcome.kind === 'deferred' && !outcome.isFinal) {
        const delaySeconds = schedule[Math.min(message.attempts, schedule.length - 1)];
        nextAttemptAt = new Date(now.getTime() + delaySeconds * 1000);
        if (nextAttemptAt >= message.expiresAt) {
          rollup.count(facts(message, now), 'deferred');
          eventRows.push(eventRow('message.transient_error', message, now, { response: outcome.log }));
          outcome = { kind: 'failed', log: `${outcome.log} (no more attempts before the message expires)` };
          nextAttemptAt = null;
        }
      }
      const event = EVENT_OF[outcome.kind];
      const attempt: DeliveryAttempt = { time: now.toISOString(), log: outcome.log, status: event.status };
      const isDelivered = outcome.kind === 'delivered';
      await tx
        .update(messages)
        .set({
          status: event.status,
          attempts,
          nextAttemptAt,
          leaseUntil: null,
          lockedBy: null,
          sentAt: message.sentAt ?? now,
          deliveredAt: isDelivered ? now : message.deliveredAt,
          bounceClassification: outcome.kind === 'bounced' ? outcome.classification : message.bounceClassification,
          deliveryAttempts: [...message.deliveryAttempts, attempt],
          updatedAt: now,
        })
        .where(and(eq(messages.id, message.id), eq(messages.lockedBy, workerId)));
      rollup.count(facts(message, now), event.counter, isDelivered ? now.getTime() - message.firstAttemptAt.getTime() : undefined);
      eventRows.push(eventRow(event.type, message, now, { response: outcome.log }));
      if (outcome.kind === 'bounced') {
        rollup.countBounce(facts(message, now), outcome.classification);
        if (HARD_BOUNCES.has(outcome.classification) && !message.isSandbox) {
          await suppressRecipient(tx, {
            accountId: message.accountId,
            email: message.recipient,
            domain: message.senderDomain,
            kind: 'bounce',
            reason: `hard bounce (${outcome.classification}): ${outcome.log}`.slice(0, 255),
            expiresAt: new Date(now.getTime() + AUTOMATIC_SUPPRESSION_DAYS * DAY_MS),
            at: now,
          });
        }
      }
    }
    for (let start = 0; start < eventRows.length; start += 500) await tx.insert(events).values(eventRows.slice(start, start + 500));
    await rollup.flush(tx);
  });
}

function facts(message: ClaimedMessage, at: Date) {
  return { accountId: message.accountId, at, senderDomain: message.senderDomain, recipientDomain: message.recipientDomain, tags: message.tags };
}

function eventRow(type: EventType, message: ClaimedMessage, at: Date, extra: Record<string, unknown>) {
  return { accountId: message.accountId, type, messageId: message.id, domainId: message.domainId, payload: messageEventPayload(type, message, extra), createdAt: at };
}
