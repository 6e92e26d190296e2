import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { idempotencyRecords as t } from '@/lib/db/schema';

/** Scheduled job: drops expired records in small batches. Unsafe: every account's records; only the scheduler calls it. */
export async function unsafePurgeIdempotencyRecords(db: Db, now: Date, batchSize = 1000): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`
      delete from ${t} where (${t.accountId}, ${t.key}) in (
        select ${t.accountId}, ${t.key} from ${t} where ${t.expiresAt} < ${now.toISOString()} limit ${batchSize}
      ) returning 1`);
    const deleted = (result as unknown as { rows: unknown[] }).rows.length;
    total += deleted;
    if (deleted < batchSize) return total;
  }
}
