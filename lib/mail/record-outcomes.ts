import { inArray, sql, type SQL } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { messageEventPayload } from '@/lib/core/events/message-event';
import type { EventType } from '@/lib/core/events/internal/record-event';
import { bulkInsert, bulkInsertSql } from '@/lib/core/shared/bulk-insert';
import { CampaignTally } from '@/lib/core/campaigns/campaign-counters';
import { mailboxProviderOf } from '@/lib/core/campaigns/mailbox-provider';
import { SHARED_COUNTER_WRITER } from '@/lib/core/statistics/counter-writers';
import { Rollup, type Counter } from '@/lib/core/statistics/rollup';
import { AUTOMATIC_SUPPRESSION_DAYS, suppressRecipient } from '@/lib/core/suppressions/suppress-recipient';
import type { Db, DbOrTx } from '@/lib/db/client';
import { events, messages, type DeliveryAttempt } from '@/lib/db/schema';
import { newId } from '@/lib/shared/ids';
import { observeDeliveryOutcome } from '@/lib/shared/metrics';
import type { ClaimedMessage } from './claim-due-messages';
import { HARD_BOUNCES } from '@/lib/core/messages/classify-bounce';
import type { Outcome } from './outcome';

const EVENT_OF: Record<Outcome['kind'], { type: EventType; counter: Counter; status: string }> = {
  delivered: { type: 'message.delivered', counter: 'delivered', status: 'delivered' },
  deferred: { type: 'message.transient_error', counter: 'deferred', status: 'deferred' },
  bounced: { type: 'message.bounced', counter: 'bounced', status: 'bounced' },
  failed: { type: 'message.failed', counter: 'failed', status: 'failed' },
  suppressed: { type: 'message.suppressed', counter: 'suppressed', status: 'suppressed' },
};

const DAY_MS = 24 * 3600 * 1000;
const DIVISION_BY_ZERO = '22012';

type Plan = {
  update: {
    id: string;
    subject: string;
    mailboxProvider: string;
    status: string;
    attempts: number;
    nextAttemptAt: Date | null;
    deliveredAt: Date | null;
    classification: string | null;
    isDataSent: boolean;
    attempt: DeliveryAttempt;
  };
  events: (typeof events.$inferInsert)[];
  count: (rollup: Rollup, tally: CampaignTally) => void;
  suppression: Parameters<typeof suppressRecipient>[1] | null;
  /** Acceptance to delivery, for the metrics: delivered real messages only. */
  latencySeconds: number | null;
};

/**
 * Writes a group of outcomes in one transaction: each message's new state and attempt log, its
 * events, the statistics counters, and suppressions for hard bounces. A deferral that would retry
 * after the message expires fails it instead. `dataSentIds` are the "DATA sent" marks of the group
 * (lib/mail/outcome-writer.ts), folded into the same update for the messages that have an outcome.
 * `counterWriter`: whose counter rows the outcomes are counted in (lib/core/statistics/counter-writers.ts).
 */
export async function recordOutcomes(
  services: Pick<Services, 'config'>,
  db: Db,
  workerId: string,
  results: { message: ClaimedMessage; outcome: Outcome }[],
  options: { now: Date; dataSentIds?: string[]; counterWriter?: number },
): Promise<void> {
  const { now } = options;
  const writer = options.counterWriter ?? SHARED_COUNTER_WRITER;
  const dataSent = new Set(options.dataSentIds ?? []);
  const withOutcome = new Set(results.map(({ message }) => message.id));
  const marksOnly = [...dataSent].filter((id) => !withOutcome.has(id));
  // Not guarded by the lease: the data did go out, whoever holds the message now.
  const markDataSent = (tx: DbOrTx) =>
    marksOnly.length > 0 ? tx.update(messages).set({ dataSentAt: now }).where(inArray(messages.id, marksOnly)) : null;
  if (results.length === 0) {
    await markDataSent(db);
    return;
  }
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
    counters.push({
      counter: event.counter,
      deliveryMs: isDelivered ? now.getTime() - message.firstAttemptAt.getTime() : undefined,
    });
    if (outcome.kind === 'delivered') {
      if (outcome.isTls !== undefined) counters.push({ counter: outcome.isTls ? 'deliveredTls' : 'deliveredPlain' });
      if (message.campaignId) counters.push({ counter: 'campaignDelivered' });
      if (message.campaignId && outcome.hasOneClick) counters.push({ counter: 'campaignOneClick' });
    }
    planEvents.push(eventRow(event.type, message, now, { response: outcome.log }));
    const bounce = outcome.kind === 'bounced' ? outcome.classification : null;
    plans.set(message.id, {
      update: {
        id: message.id,
        subject: message.subject,
        mailboxProvider: mailboxProviderOf(message),
        status: event.status,
        attempts: message.attempts + 1,
        nextAttemptAt,
        deliveredAt: isDelivered ? now : null,
        classification: bounce,
        isDataSent: dataSent.has(message.id),
        attempt: { time: now.toISOString(), log: outcome.log, status: event.status },
      },
      events: planEvents,
      count: (rollup, tally) => {
        for (const { counter, deliveryMs } of counters) rollup.count(facts(message, now), counter, deliveryMs);
        if (bounce) rollup.countBounce(facts(message, now), bounce);
        // Counted under the provider the message keeps (its first outcome's), so a deferral is taken off where it was added.
        tally.addTransition(
          { ...message, mailboxProvider: mailboxProviderOf(message) },
          message.status,
          event.status,
          now,
        );
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
      latencySeconds:
        isDelivered && !message.isSandbox ? (now.getTime() - message.firstAttemptAt.getTime()) / 1000 : null,
    });
  }

  const updates = [...plans.values()].map((plan) => plan.update);
  // The lock check keeps a worker whose lease ran out (and whose messages another worker took) from
  // overwriting newer state; only the rows it still held get their events and counters.
  const column = <K extends keyof (typeof updates)[number]>(key: K) => sql.param(updates.map((update) => update[key]));
  const updateHeld = sql`
    update ${messages} as m set
      status = u.status,
      subject = u.subject,
      mailbox_provider = coalesce(m.mailbox_provider, u.mailbox_provider),
      attempts = u.attempts,
      next_attempt_at = u.next_attempt_at,
      lease_until = null,
      locked_by = null,
      sent_at = coalesce(m.sent_at, ${now.toISOString()}::timestamptz),
      delivered_at = coalesce(u.delivered_at, m.delivered_at),
      bounce_classification = coalesce(u.classification, m.bounce_classification),
      data_sent_at = case when u.is_data_sent then coalesce(m.data_sent_at, ${now.toISOString()}::timestamptz) else m.data_sent_at end,
      delivery_attempts = m.delivery_attempts || jsonb_build_array(u.attempt::jsonb),
      updated_at = ${now.toISOString()}::timestamptz
    from unnest(
      ${column('id')}::uuid[], ${column('subject')}::text[], ${column('mailboxProvider')}::text[], ${column('status')}::text[], ${column('attempts')}::int[],
      ${sql.param(updates.map((update) => update.nextAttemptAt?.toISOString() ?? null))}::timestamptz[],
      ${sql.param(updates.map((update) => update.deliveredAt?.toISOString() ?? null))}::timestamptz[],
      ${column('classification')}::text[], ${column('isDataSent')}::boolean[], ${sql.param(updates.map((update) => JSON.stringify(update.attempt)))}::text[]
    ) as u(id, subject, mailbox_provider, status, attempts, next_attempt_at, delivered_at, classification, is_data_sent, attempt)
    where m.id = u.id and m.locked_by = ${workerId}
    returning m.id`;
  const all = [...plans.values()];
  if (
    all.every((plan) => !plan.suppression) &&
    (await writeInOneStatement(db, all, updateHeld, markDataSent(db)?.getSQL() ?? null, writer))
  ) {
    countWritten(all);
    return;
  }

  let written: Plan[] = [];
  await db.transaction(async (tx) => {
    await markDataSent(tx);
    const result = await tx.execute(updateHeld);
    const held = ((result as unknown as { rows: { id: string }[] }).rows ?? [])
      .map((row) => plans.get(row.id))
      .filter((plan): plan is Plan => plan !== undefined);
    const rollup = new Rollup(writer);
    const tally = new CampaignTally();
    for (const plan of held) plan.count(rollup, tally);
    await bulkInsert(
      tx,
      events,
      held.flatMap((plan) => plan.events).map((row) => ({ id: newId(), ...row })),
    );
    for (const plan of held) if (plan.suppression) await suppressRecipient(tx, plan.suppression);
    // Tags before hours, the order in which acceptance's one statement takes them (its last upsert
    // runs first): in the opposite order, outcomes and sends deadlock on the same counter rows.
    for (const statement of rollup.statements(tx).reverse()) await tx.execute(statement);
    await tally.flush(tx, writer);
    written = held;
  });
  countWritten(written);
}

/** Metrics count outcomes once committed, and only those of rows this worker still held. */
function countWritten(plans: Plan[]): void {
  for (const plan of plans) observeDeliveryOutcome(plan.update.status, plan.latencySeconds);
}

/**
 * The common case in one statement (one round trip, no explicit transaction): every row still held,
 * no suppression to write. If some lease was lost, the final division fails the whole statement,
 * nothing is written, and this returns false for the transaction above to write only the held rows.
 */
async function writeInOneStatement(
  db: Db,
  plans: Plan[],
  updateHeld: SQL,
  markDataSent: SQL | null,
  writer: number,
): Promise<boolean> {
  const rollup = new Rollup(writer);
  const tally = new CampaignTally();
  for (const plan of plans) plan.count(rollup, tally);
  // Side statements run after the main one, last listed first: counters as acceptance takes them
  // (tags before hours, see above), then campaigns' counters, events and marks.
  const writes = [
    markDataSent,
    bulkInsertSql(
      events,
      plans.flatMap((plan) => plan.events).map((row) => ({ id: newId(), ...row })),
    ),
    ...tally.statements(writer).reverse(),
    ...rollup.statements(db),
  ].filter((statement): statement is SQL => statement !== null);
  const ctes = writes.map((statement, index) => sql`${sql.raw(`w${index}`)} as (${statement})`);
  try {
    await db.execute(
      sql`with held as (${updateHeld}), ${sql.join(ctes, sql`, `)} select case when count(*) = ${plans.length} then count(*) else count(*) / 0 end from held`,
    );
    return true;
  } catch (error) {
    const cause = (error as { cause?: { code?: string }; code?: string }).cause ?? (error as { code?: string });
    if (cause.code === DIVISION_BY_ZERO) return false;
    throw error;
  }
}

/** The domains whose bounce rate may have changed with these outcomes (see unsafePauseOnBounceRate). */
export function bouncedDomainIds(results: { message: ClaimedMessage; outcome: Outcome }[]): string[] {
  return [
    ...new Set(
      results
        .filter(({ message, outcome }) => outcome.kind === 'bounced' && !message.isSandbox)
        .map(({ message }) => message.domainId),
    ),
  ];
}

function facts(message: ClaimedMessage, at: Date) {
  return {
    accountId: message.accountId,
    at,
    senderDomain: message.senderDomain,
    recipientDomain: message.recipientDomain,
    tags: message.tags,
  };
}

function eventRow(type: EventType, message: ClaimedMessage, at: Date, extra: Record<string, unknown>) {
  return {
    accountId: message.accountId,
    type,
    messageId: message.id,
    domainId: message.domainId,
    payload: messageEventPayload(type, message, extra),
    isSandbox: message.isSandbox,
    createdAt: at,
  };
}
