import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { idempotencyRecords } from '@/lib/db/schema';

/** After a 5xx, a 429 or a crash of the handler: nothing is stored and a retry runs again. */
export async function releaseIdempotencyKey(db: Db, target: { accountId: string; key: string }): Promise<void> {
  await db
    .delete(idempotencyRecords)
    .where(
      and(
        eq(idempotencyRecords.accountId, target.accountId),
        eq(idempotencyRecords.key, target.key),
        eq(idempotencyRecords.state, 'in_progress'),
      ),
    );
}
