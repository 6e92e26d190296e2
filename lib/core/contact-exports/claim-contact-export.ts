import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { contactExports } from '@/lib/db/schema';
import type { ContactExportRow } from './internal/present';

/**
 * Claims the oldest export that is queued, or running without a live lease (its worker died or
 * stopped), in one statement: SKIP LOCKED lets any number of workers take different exports. A
 * claimed export always starts from its first row (run-contact-export.ts rewrites the file).
 * Unsafe: every account's exports, by design; only the worker role's export loop calls it.
 */
export async function unsafeClaimContactExport(
  db: Db,
  options: { workerId: string; leaseMs: number; now: Date },
): Promise<ContactExportRow | null> {
  const { now } = options;
  const due = db
    .select({ id: contactExports.id })
    .from(contactExports)
    .where(
      and(
        inArray(contactExports.status, ['queued', 'running']),
        or(isNull(contactExports.leaseUntil), lt(contactExports.leaseUntil, now)),
      ),
    )
    .orderBy(asc(contactExports.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(contactExports)
    .set({
      status: 'running',
      lockedBy: options.workerId,
      leaseUntil: new Date(now.getTime() + options.leaseMs),
      attempts: sql`${contactExports.attempts} + 1`,
      exportedCount: 0,
      startedAt: now,
      updatedAt: now,
    })
    .where(inArray(contactExports.id, due))
    .returning();
  return claimed ?? null;
}

/**
 * Hands an export back for another claim: at once after a stop, which does not count as an attempt,
 * or from `retryAt` after an unexpected error, which does.
 */
export async function releaseContactExport(
  db: Db,
  options: { exportId: string; workerId: string; retryAt?: Date },
): Promise<void> {
  await db
    .update(contactExports)
    .set(
      options.retryAt
        ? { lockedBy: null, leaseUntil: options.retryAt }
        : { lockedBy: null, leaseUntil: null, attempts: sql`greatest(${contactExports.attempts} - 1, 0)` },
    )
    .where(and(eq(contactExports.id, options.exportId), eq(contactExports.lockedBy, options.workerId)));
}
