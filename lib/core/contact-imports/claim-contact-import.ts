import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { contactImports } from '@/lib/db/schema';
import type { ContactImportRow } from './internal/present';

const FREE_LEASE = { leaseUntil: null, lockedBy: null };

/**
 * Claims the oldest import that is queued, or running without a live lease (its worker died or
 * stopped), in one statement: SKIP LOCKED lets any number of workers take different imports, and
 * the lease (renewed with every batch) keeps one import on one worker. Unsafe: every account's
 * imports, by design; only the worker role's import loop calls it (lib/workers/contact-import-loop.ts).
 */
export async function unsafeClaimContactImport(
  db: Db,
  options: { workerId: string; leaseMs: number; now: Date },
): Promise<ContactImportRow | null> {
  const { now } = options;
  const due = db
    .select({ id: contactImports.id })
    .from(contactImports)
    .where(
      and(
        inArray(contactImports.status, ['queued', 'running']),
        or(isNull(contactImports.leaseUntil), lt(contactImports.leaseUntil, now)),
      ),
    )
    .orderBy(asc(contactImports.createdAt))
    .limit(1)
    .for('update', { skipLocked: true });
  const [claimed] = await db
    .update(contactImports)
    .set({
      status: 'running',
      lockedBy: options.workerId,
      leaseUntil: new Date(now.getTime() + options.leaseMs),
      attempts: sql`${contactImports.attempts} + 1`,
      startedAt: sql`coalesce(${contactImports.startedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(inArray(contactImports.id, due))
    .returning();
  return claimed ?? null;
}

/** Extends the lease of an import this worker holds; false when it is no longer ours. */
export async function renewImportLease(
  db: Db,
  options: { importId: string; workerId: string; leaseMs: number; now: Date },
): Promise<boolean> {
  const renewed = await db
    .update(contactImports)
    .set({ leaseUntil: new Date(options.now.getTime() + options.leaseMs) })
    .where(and(eq(contactImports.id, options.importId), eq(contactImports.lockedBy, options.workerId)))
    .returning({ id: contactImports.id });
  return renewed.length > 0;
}

/**
 * Hands an import back for another claim: at once after a stop, which does not count as an attempt,
 * or from `retryAt` after an unexpected error, which does (an import that keeps failing then fails).
 */
export async function releaseContactImport(
  db: Db,
  options: { importId: string; workerId: string; retryAt?: Date },
): Promise<void> {
  await db
    .update(contactImports)
    .set(
      options.retryAt
        ? { lockedBy: null, leaseUntil: options.retryAt }
        : { ...FREE_LEASE, attempts: sql`greatest(${contactImports.attempts} - 1, 0)` },
    )
    .where(and(eq(contactImports.id, options.importId), eq(contactImports.lockedBy, options.workerId)));
}

/**
 * Uploads that never finished (their process died while receiving): gone with their chunks. The
 * web server ends a request after 5 minutes, so an hour-old upload is certainly dead.
 */
export async function unsafePurgeAbandonedUploads(db: Db, options: { olderThan: Date }): Promise<number> {
  const purged = await db
    .delete(contactImports)
    .where(and(eq(contactImports.status, 'receiving'), lt(contactImports.createdAt, options.olderThan)))
    .returning({ id: contactImports.id });
  return purged.length;
}
