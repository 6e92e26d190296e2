import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { CampaignTally } from '@/lib/core/campaigns/campaign-counters';
import type { Services } from '@/lib/core/context';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { recordEvent } from '@/lib/core/events/internal/record-event';
import { Rollup } from '@/lib/core/statistics/rollup';
import type { DbOrTx } from '@/lib/db/client';
import { messageLinks, messages } from '@/lib/db/schema';
import { isBotUserAgent, verifyTrackingToken } from './tracking-links';

export type Engagement = { kind: 'open' | 'click'; token: string; userAgent: string; ip: string | null };

/**
 * An open (the pixel loaded) or a click (a tracked link followed): an event with the user agent,
 * IP and a bot flag, the message's counter, the statistics counted once per message (the first
 * open, the first click), and a campaign message's report counters (campaign-counters.ts). Returns
 * the link's URL for clicks; null when the token is not ours.
 */
export async function recordEngagement(
  services: Pick<Services, 'db' | 'secrets' | 'now'>,
  engagement: Engagement,
): Promise<{ url: string | null } | null> {
  const key = services.secrets.deriveKey('tracking-links');
  const verified = verifyTrackingToken(key, engagement.token);
  if (!verified || (engagement.kind === 'click') !== (verified.position !== undefined)) return null;
  const { db } = services;
  let url: string | null = null;
  if (engagement.kind === 'click') {
    const [link] = await db
      .select()
      .from(messageLinks)
      .where(and(eq(messageLinks.messageId, verified.messageId), eq(messageLinks.position, verified.position!)))
      .limit(1);
    if (!link) return null;
    url = link.url;
  }
  const now = services.now();
  const isBot = isBotUserAgent(engagement.userAgent);
  await db.transaction(async (tx) => {
    const counter = engagement.kind === 'open' ? messages.openCount : messages.clickCount;
    const [message] = await tx
      .update(messages)
      .set(engagement.kind === 'open' ? { openCount: sql`${counter} + 1` } : { clickCount: sql`${counter} + 1` })
      .where(eq(messages.id, verified.messageId))
      .returning();
    if (!message) return;
    const type = engagement.kind === 'open' ? 'message.opened' : 'message.clicked';
    await recordEvent(tx, {
      accountId: message.accountId,
      type,
      messageId: message.id,
      domainId: message.domainId,
      at: now,
      payload: messageEventPayload(type, message, {
        user_agent: engagement.userAgent,
        ip: engagement.ip ?? '',
        is_bot: isBot,
        ...(url ? { url } : {}),
      }),
    });
    const count = engagement.kind === 'open' ? message.openCount : message.clickCount;
    const isFirst = count === 1;
    if (isFirst) {
      const rollup = new Rollup();
      rollup.count(
        {
          accountId: message.accountId,
          at: now,
          senderDomain: message.senderDomain,
          recipientDomain: message.recipientDomain,
          tags: message.tags,
        },
        engagement.kind === 'open' ? 'opened' : 'clicked',
      );
      await rollup.flush(tx);
    }
    if (!message.campaignId) return;
    const tally = new CampaignTally();
    const link =
      url === null
        ? undefined
        : { url, urlHash: md5(url), isFirst: await isFirstClickOf(tx, message.id, verified.position!, url) };
    tally.addEngagement(message, { kind: engagement.kind, at: now, isFirst, link });
    await tally.flush(tx);
  });
  return { url };
}

const md5 = (text: string) => createHash('md5').update(text).digest('hex');

/**
 * Counts a click of the link at `position` and tells whether it is the message's first click of its
 * URL (the same URL may sit at several positions). The caller holds the message's row lock, so the
 * clicks of one message are counted one at a time.
 */
async function isFirstClickOf(tx: DbOrTx, messageId: string, position: number, url: string): Promise<boolean> {
  const result = await tx.execute(sql`
    with hit as (
      update ${messageLinks} set click_count = click_count + 1
      where message_id = ${messageId} and position = ${position}
      returning click_count
    )
    select (select click_count from hit) + coalesce((
      select sum(click_count) from ${messageLinks}
      where message_id = ${messageId} and url = ${url} and position <> ${position}
    ), 0) as clicks`);
  return Number((result as unknown as { rows: { clicks: string | number }[] }).rows[0]?.clicks) === 1;
}
