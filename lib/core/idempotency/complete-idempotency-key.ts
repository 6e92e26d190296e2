import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { idempotencyRecords } from '@/lib/db/schema';

/** Stores the outcome to replay; `ttlMs` is 24 h normally, 5 minutes for secret-bearing responses. */
export async function completeIdempotencyKey(
  db: Db,
  target: { accountId: string; key: string },
  outcome: { status: number; body: string; isEncrypted: boolean; ttlMs: number },
  now: Date,
): Promise<void> {
  await db
    .update(idempotencyRecords)
    .set({
      state: 'completed',
      responseStatus: outcome.status,
      responseBody: outcome.body,
      isEncrypted: outcome.isEncrypted,
      expiresAt: new Date(now.getTime() + outcome.ttlMs),
    })
    .where(
      and(
        eq(idempotencyRecords.accountId, target.accountId),
        eq(idempotencyRecords.key, target.key),
        eq(idempotencyRecords.state, 'in_progress'),
      ),
    );
}
