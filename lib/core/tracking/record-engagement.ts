import { and, eq, sql } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { messageEventPayload } from '@/lib/core/events/message-event';
import { recordEvent } from '@/lib/core/events/record-event';
import { Rollup } from '@/lib/core/stats/rollup';
import { messageLinks, messages } from '@/lib/db/schema';
import { isBotUserAgent, verifyTrackingToken } from './tracking-links';

export type Engagement = { kind: 'open' | 'click'; token: string; userAgent: string; ip: string | null };

/**
 * An open (the pixel loaded) or a click (a tracked link followed): an event with the user agent,
 * IP and a bot flag, the message's counter, and the statistics counted once per message (the first
 * open, the first click). Returns the link's URL for clicks; null when the token is not ours.
 */
export async function recordEngagement(services: Pick<Services, 'db' | 'secrets' | 'now'>, engagement: Engagement): Promise<{ url: string | null } | null> {
  const key = services.secrets.deriveKey('tracking-links');
  const verified = verifyTrackingToken(key, engagement.token);
  if (!verified || (engagement.kind === 'click') !== (verified.position !== undefined)) return null;
  const { db } = services;
  let url: string | null = null;
  if (engagement.kind === 'click') {
    const [link] = await db.select().from(messageLinks).where(and(eq(messageLinks.messageId, verified.messageId), eq(messageLinks.position, verified.position!))).limit(1);
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
      payload: messageEventPayload(type, message, { user_agent: engagement.userAgent, ip: engagement.ip ?? '', is_bot: isBot, ...(url ? { url } : {}) }),
    });
    const count = engagement.kind === 'open' ? message.openCount : message.clickCount;
    if (count === 1) {
      const rollup = new Rollup();
      rollup.count({ accountId: message.accountId, at: now, senderDomain: message.senderDomain, recipientDomain: message.recipientDomain, tags: message.tags }, engagement.kind === 'open' ? 'opened' : 'clicked');
      await rollup.flush(tx);
    }
  });
  return { url };
}
