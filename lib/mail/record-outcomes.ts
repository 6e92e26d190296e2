import { sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { pauseOnBounceRate } from '@/lib/core/domains/pause-on-bounce-rate';
import { messageEventPayload } from '@/lib/core/events/message-event';
import type { EventType } from '@/lib/core/events/record-event';
import { bulkInsert } from '@/lib/core/shared/bulk-insert';
import { Rollup, type Counter } from '@/lib/core/stats/rollup';
import { AUTOMATIC_SUPPRESSION_DAYS, suppressRecipient } from '@/lib/core/suppressions/suppress-recipient';
import type { Db } from '@/lib/db/client';
import { events, messages, type DeliveryAttempt } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
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
type Plan = {
  update: { id: string; status: string; attempts: number; nextAttemptAt: Date | null; deliveredAt: Date | null; classification: string | null; attempt: DeliveryAttempt };
  events: (typeof events.$inferInsert)[];
  count: (rollup: Rollup) => void;
  suppression: Parameters<typeof suppressRecipient>[1] | null;
};

export async function recordOutcomes(services: Pick<Services, 'config' | 'logger'>, db: Db, workerId: string, results: { message: ClaimedMessage; outcome: Outcome }[], now: Date): Promise<void> {
  if (results.length === 0) return;
  const schedule = services.config.delivery.retrySchedule;
  const plans = new Map<string, Plan>();

  for (const { message, outcome: reported } of results) {
    let outcome = reported;
    let nextAttemptAt: Date | null = null;
    const planEvents: (typeof events.$inferInsert)[] = [];
    const counters: { counter: Counter; deliveryMs?: number }[] = [];
    if (outcome.kind === 'deferred' && !outcome.isFinal) {
      const delaySeconds = schedule[Math.min(message.attempts, schedule.length - 1)];
      nextAttemptAt = new Date(now.getTime() + delaySeconds * 1000);
      if (nextAttemptAt >= message.expiresAt) {
        counters.push({ counter: 'deferred' });
        planEvents.push(eventRow('message.transient_error', message, now, { response: outcome.log }));
        outcome = { kind: 'failed', log: `${outcome.log} (no more attempts before the message expires)` };
        nextAttemptAt = null;
      }
    }
    const event = EVENT_OF[outcome.kind];
    const isDelivered = outcome.kind === 'delivered';
    counters.push({ counter: event.counter, deliveryMs: isDelivered ? now.getTime() - message.firstAttemptAt.getTime() : undefined });
    planEvents.push(eventRow(event.type, message, now, { response: outcome.log }));
    const bounce = outcome.kind === 'bounced' ? outcome.classification : null;
    plans.set(message.id, {
      update: {
        id: message.id,
        status: event.status,
        attempts: message.attempts + 1,
        nextAttemptAt,
        deliveredAt: isDelivered ? now : null,
        classification: bounce,
        attempt: { time: now.toISOString(), log: outcome.log, status: event.status },
      },
      events: planEvents,
      count: (rollup) => {
        for (const { counter, deliveryMs } of counters) rollup.count(facts(message, now), counter, deliveryMs);
        if (bounce) rollup.countBounce(facts(message, now), bounce);
      },
      suppression:
        bounce && HARD_BOUNCES.has(bounce) && !message.isSandbox
          ? {
              accountId: message.accountId,
              email: message.recipient,
              domain: message.senderDomain,
              kind: 'bounce',
              reason: `hard bounce (${bounce}): ${outcome.log}`.slice(0, 255),
              expiresAt: new Date(now.getTime() + AUTOMATIC_SUPPRESSION_DAYS * DAY_MS),
              at: now,
            }
          : null,
    });
  }

  const updates = [...plans.values()].map((plan) => plan.update);
  await db.transaction(async (tx) => {
    // One statement for the whole batch. The lock check keeps a worker whose lease ran out (and
    // whose messages another worker took) from overwriting newer state; only the rows it still held
    // get their events and counters.
    const column = <K extends keyof (typeof updates)[number]>(key: K) => sql.param(updates.map((update) => update[key]));
    const result = await tx.execute(sql`
      update ${messages} as m set
        status = u.status,
        attempts = u.attempts,
        next_attempt_at = u.next_attempt_at,
        lease_until = null,
        locked_by = null,
        sent_at = coalesce(m.sent_at, ${now.toISOString()}::timestamptz),
        delivered_at = coalesce(u.delivered_at, m.delivered_at),
        bounce_classification = coalesce(u.classification, m.bounce_classification),
        delivery_attempts = m.delivery_attempts || jsonb_build_array(u.attempt::jsonb),
        updated_at = ${now.toISOString()}::timestamptz
      from unnest(
        ${column('id')}::uuid[], ${column('status')}::text[], ${column('attempts')}::int[],
        ${sql.param(updates.map((update) => update.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
        ${sql.param(updates.map((update) => update.deliveredAt?.toISOString() ?? null))}::timestamptz[],
        ${column('classification')}::text[], ${sql.param(updates.map((update) => JSON.stringify(update.attempt)))}::text[]
      ) as u(id, status, attempts, next_attempt_at, delivered_at, classification, attempt)
      where m.id = u.id and m.locked_by = ${workerId}
      returning m.id`);
    const held = ((result as unknown as { rows: { id: string }[] }).rows ?? []).map((row) => plans.get(row.id)).filter((plan): plan is Plan => plan !== undefined);
    const rollup = new Rollup();
    for (const plan of held) plan.count(rollup);
    await bulkInsert(tx, events, held.flatMap((plan) => plan.events).map((row) => ({ id: newId(), ...row })));
    for (const plan of held) if (plan.suppression) await suppressRecipient(tx, plan.suppression);
    await rollup.flush(tx);
  });
  const bouncedDomains = [...new Set(results.filter(({ message, outcome }) => outcome.kind === 'bounced' && !message.isSandbox).map(({ message }) => message.domainId))];
  await pauseOnBounceRate(services, db, bouncedDomains, now);
}

function facts(message: ClaimedMessage, at: Date) {
  return { accountId: message.accountId, at, senderDomain: message.senderDomain, recipientDomain: message.recipientDomain, tags: message.tags };
}

function eventRow(type: EventType, message: ClaimedMessage, at: Date, extra: Record<string, unknown>) {
  return { accountId: message.accountId, type, messageId: message.id, domainId: message.domainId, payload: messageEventPayload(type, message, extra), isSandbox: message.isSandbox, createdAt: at };
}
