import { and, asc, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { segments } from '@/lib/db/schema';
import type { SegmentRow } from './internal/compile-segment-filter';

/**
 * Claims segments whose stored count is older than `staleBefore` (or missing), least recently
 * counted first, with a lease: SKIP LOCKED lets any number of workers count different segments, and
 * a count is idempotent, so a lapsed lease is simply claimed again. Unsafe: every account's segments.
 */
export async function unsafeClaimSegmentRecounts(
  db: Db,
  options: { limit: number; leaseMs: number; now: Date; staleBefore: Date },
): Promise<SegmentRow[]> {
  const { now } = options;
  const due = db
    .select({ id: segments.id })
    .from(segments)
    .where(
      and(
        or(isNull(segments.countedAt), lt(segments.countedAt, options.staleBefore)),
        or(isNull(segments.countLeaseUntil), lt(segments.countLeaseUntil, now)),
      ),
    )
    .orderBy(sql`${segments.countedAt} asc nulls first`, asc(segments.id))
    .limit(options.limit)
    .for('update', { skipLocked: true });
  return db
    .update(segments)
    .set({ countLeaseUntil: new Date(now.getTime() + options.leaseMs) })
    .where(inArray(segments.id, due))
    .returning();
}
