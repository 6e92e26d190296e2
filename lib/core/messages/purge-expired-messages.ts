import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { messageContents, messageLinks, messages } from '@/lib/db/schema';

/**
 * Scheduled job, in small batches: message metadata past its retention goes (with its tracked
 * links); content goes once its data retention passed and none of its messages still waits to be
 * sent (a data retention of 0 keeps content only for delivery). Unsafe: every account's rows, by
 * design; only the scheduler calls it.
 */
export async function unsafePurgeExpiredMessages(
  db: Db,
  now: Date,
  batchSize = 1000,
): Promise<{ messages: number; contents: number }> {
  let purgedMessages = 0;
  let purgedContents = 0;
  const at = now.toISOString();
  for (;;) {
    const result = await db.execute(sql`
      with gone as (
        delete from ${messages} where ${messages.id} in (
          select ${messages.id} from ${messages} where ${messages.retainUntil} < ${at}::timestamptz limit ${batchSize}
        ) returning ${messages.id} as id
      ), links as (
        delete from ${messageLinks} where ${messageLinks.messageId} in (select id from gone) returning 1
      )
      select count(*)::int as n from gone`);
    const n = Number((result as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0);
    purgedMessages += n;
    if (n < batchSize) break;
  }
  for (;;) {
    const result = await db.execute(sql`
      delete from ${messageContents} where ${messageContents.id} in (
        select c.id from ${messageContents} c
        where c.data_retain_until < ${at}::timestamptz
          -- content_id has no index: a hash anti-join over the due queue (messages_due_idx).
          and not exists (select 1 from ${messages} m where m.content_id = c.id and m.status in ('queued', 'deferred', 'scheduled'))
        limit ${batchSize}
      ) returning 1`);
    const n = (result as unknown as { rows: unknown[] }).rows.length;
    purgedContents += n;
    if (n < batchSize) break;
  }
  return { messages: purgedMessages, contents: purgedContents };
}
