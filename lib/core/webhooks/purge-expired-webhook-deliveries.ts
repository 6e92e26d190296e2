import { sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { accounts, webhookDeliveries } from '@/lib/db/schema';

/**
 * Scheduled job, in batches: the delivery log is message metadata and goes with the account's
 * metadata retention (`message_metadata_retention` days), whatever state a delivery is in, except one
 * in flight. Unsafe: every account's rows, by design; only the scheduler calls it.
 */
export async function unsafePurgeExpiredWebhookDeliveries(
  db: Db,
  now: Date,
  batchSize = 1000,
): Promise<{ deliveries: number }> {
  let purged = 0;
  const at = now.toISOString();
  for (;;) {
    const result = await db.execute(sql`
      delete from ${webhookDeliveries} where ${webhookDeliveries.id} in (
        select d.id from ${webhookDeliveries} d join ${accounts} a on a.id = d.account_id
        -- Retention is at least a day: the constant bound lets the BRIN index skip recent rows.
        where d.created_at < ${at}::timestamptz - interval '1 day'
          and d.created_at < ${at}::timestamptz - make_interval(days => a.message_metadata_retention)
          and (d.lease_until is null or d.lease_until < ${at}::timestamptz)
        limit ${batchSize}
      ) returning 1`);
    const n = (result as unknown as { rows: unknown[] }).rows.length;
    purged += n;
    if (n < batchSize) break;
  }
  return { deliveries: purged };
}
