import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { auditEvents } from '@/lib/db/schema';

const DAY_MS = 24 * 3600 * 1000;

/**
 * Scheduled job: audit events older than the retention go, in bounded batches (each its own short
 * statement, so writers never wait long behind it). Unsafe: every account's rows, by design; only
 * the scheduler calls it.
 */
export async function unsafePurgeExpiredAuditEvents(
  db: Db,
  now: Date,
  retentionDays: number,
  batchSize = 1000,
): Promise<number> {
  const before = new Date(now.getTime() - retentionDays * DAY_MS).toISOString();
  let purged = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${auditEvents} where ${auditEvents.id} in (
        select ${auditEvents.id} from ${auditEvents} where ${auditEvents.occurredAt} < ${before}::timestamptz limit ${batchSize}
      ) returning 1`);
    const n = (result as unknown as { rows: unknown[] }).rows.length;
    purged += n;
    if (n < batchSize) return purged;
  }
}
