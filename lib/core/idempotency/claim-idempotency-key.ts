import { and, eq } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { idempotencyRecords } from '@/lib/db/schema';

const IDEMPOTENCY_LEASE_MS = 5 * 60 * 1000;
const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** `credential` names who is asking: `api_key:<id>`, `user:<id>`. */
export type IdempotencyRequest = {
  accountId: string;
  key: string;
  method: string;
  path: string;
  bodyHash: string;
  credential: string;
};

export type ClaimResult =
  | { kind: 'fresh' }
  | { kind: 'replay'; status: number; body: string; isEncrypted: boolean }
  | { kind: 'in_progress' }
  | { kind: 'mismatch' };

/**
 * Claims an idempotency key for one execution. The insert is the atomic step: of many parallel
 * requests with one key exactly one inserts and runs; the rest see its record. A record whose lease
 * (in progress) or lifetime (completed) has run out is taken over by the next request.
 */
export async function claimIdempotencyKey(db: Db, request: IdempotencyRequest, now: Date): Promise<ClaimResult> {
  const fresh = {
    ...request,
    state: 'in_progress',
    leaseExpiresAt: new Date(now.getTime() + IDEMPOTENCY_LEASE_MS),
    expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
    responseStatus: null,
    responseBody: null,
    isEncrypted: false,
  };
  const inserted = await db
    .insert(idempotencyRecords)
    .values(fresh)
    .onConflictDoNothing()
    .returning({ key: idempotencyRecords.key });
  if (inserted.length) return { kind: 'fresh' };

  return db.transaction(async (tx) => {
    const where = and(eq(idempotencyRecords.accountId, request.accountId), eq(idempotencyRecords.key, request.key));
    const [row] = await tx.select().from(idempotencyRecords).where(where).for('update');
    if (!row) {
      const again = await tx
        .insert(idempotencyRecords)
        .values(fresh)
        .onConflictDoNothing()
        .returning({ key: idempotencyRecords.key });
      return again.length ? { kind: 'fresh' as const } : { kind: 'in_progress' as const };
    }
    const isExpired = row.state === 'completed' ? row.expiresAt <= now : row.leaseExpiresAt <= now;
    if (isExpired) {
      await tx
        .update(idempotencyRecords)
        .set({ ...fresh, createdAt: now })
        .where(where);
      return { kind: 'fresh' as const };
    }
    if (row.method !== request.method || row.path !== request.path || row.bodyHash !== request.bodyHash) {
      return { kind: 'mismatch' as const };
    }
    if (row.state === 'in_progress') return { kind: 'in_progress' as const };
    // An encrypted response holds a secret (an API key's secret_key) meant for whoever made it. To
    // anyone else it is answered as a different request would be, revealing nothing about it.
    if (row.isEncrypted && row.credential !== request.credential) return { kind: 'mismatch' as const };
    return {
      kind: 'replay' as const,
      status: row.responseStatus ?? 200,
      body: row.responseBody ?? '',
      isEncrypted: row.isEncrypted,
    };
  });
}
