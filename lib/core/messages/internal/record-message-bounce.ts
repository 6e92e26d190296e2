import { and, eq, sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { CampaignTally } from '@/lib/core/campaigns/campaign-counters';
import { unsafePauseOnBounceRate } from '@/lib/core/domains/pause-on-bounce-rate';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { recordEvent } from '@/lib/core/events/internal/record-event';
import { Rollup } from '@/lib/core/statistics/rollup';
import { AUTOMATIC_SUPPRESSION_DAYS, suppressRecipient } from '@/lib/core/suppressions/suppress-recipient';
import { messages, type DeliveryAttempt } from '@/lib/db/schema';
import { HARD_BOUNCES } from './bounce-severity';

type MessageRow = typeof messages.$inferSelect;

const DAY_MS = 24 * 3600 * 1000;

/**
 * A bounce that came back by mail (a DSN) after the message was handed over: the same effects as a
 * 5xx during delivery (lib/mail/record-outcomes.ts), in one transaction: status `bounced` with the
 * classification and an attempt line, `message.bounced`, the bounced counters, and for a hard bounce
 * a 30-day suppression; then the sender domain's bounce rate is measured. Only a `delivered`
 * message bounces, once: the conditional update makes a repeated or concurrent report change
 * nothing (false). The delivered counter stays: the handover did happen. Unsafe: the caller found
 * the message by its return-path token, which stands for the account.
 */
export async function unsafeRecordMessageBounce(
  services: Pick<Services, 'db' | 'config' | 'logger'>,
  message: MessageRow,
  bounce: { classification: string; log: string; at: Date },
): Promise<boolean> {
  const { at, classification, log } = bounce;
  const attempt: DeliveryAttempt = { time: at.toISOString(), log, status: 'bounced' };
  const isBounced = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(messages)
      .set({
        status: 'bounced',
        bounceClassification: classification,
        deliveryAttempts: sql`${messages.deliveryAttempts} || jsonb_build_array(${JSON.stringify(attempt)}::jsonb)`,
        updatedAt: at,
      })
      .where(
        and(
          eq(messages.id, message.id),
          eq(messages.accountId, message.accountId),
          eq(messages.status, 'delivered'),
          eq(messages.isSandbox, false),
        ),
      )
      .returning();
    if (!row) return false;
    await recordEvent(tx, {
      accountId: row.accountId,
      type: 'message.bounced',
      domainId: row.domainId,
      messageId: row.id,
      at,
      payload: messageEventPayload('message.bounced', row, { response: log }),
    });
    if (HARD_BOUNCES.has(classification)) {
      await suppressRecipient(tx, {
        accountId: row.accountId,
        email: row.recipient,
        domain: row.senderDomain,
        kind: 'bounce',
        reason: `hard bounce (${classification}): ${log}`.slice(0, 255),
        expiresAt: new Date(at.getTime() + AUTOMATIC_SUPPRESSION_DAYS * DAY_MS),
        at,
      });
    }
    const rollup = new Rollup();
    const facts = {
      accountId: row.accountId,
      at,
      senderDomain: row.senderDomain,
      recipientDomain: row.recipientDomain,
      tags: row.tags,
    };
    rollup.count(facts, 'bounced');
    rollup.countBounce(facts, classification);
    await rollup.flush(tx);
    // A campaign's counts are of its messages' states: this one moves from delivered to bounced.
    const tally = new CampaignTally();
    tally.addLateBounce(row);
    await tally.flush(tx);
    return true;
  });
  if (isBounced) {
    await unsafePauseOnBounceRate(services, services.db, [message.domainId], at).catch((error) =>
      services.logger.error({ err: error }, 'bounce-rate check failed'),
    );
  }
  return isBounced;
}
