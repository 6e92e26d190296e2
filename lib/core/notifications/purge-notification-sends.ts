import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { notificationSends as t } from '@/lib/db/schema';

/** Long enough past the hour that decides a send; the audit log keeps the lasting record. */
const KEEP_MS = 24 * 3600 * 1000;

/**
 * Scheduled job: drops once-an-hour rows of past days, in small batches. Unsafe: every account's
 * rows; only the scheduler calls it.
 */
export async function unsafePurgeNotificationSends(db: Db, now: Date, batchSize = 1000): Promise<number> {
  const before = new Date(now.getTime() - KEEP_MS).toISOString();
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${t} where ${t.id} in (
        select ${t.id} from ${t} where ${t.createdAt} < ${before} limit ${batchSize}
      ) returning 1`);
    const deleted = (result as unknown as { rows: unknown[] }).rows.length;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
