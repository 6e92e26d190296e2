import type { Services } from '@/lib/core/context';
import { AppError } from '@/lib/shared/errors';
import { segments } from '@/lib/db/schema';
import { and, eq } from 'drizzle-orm';
import type { SegmentRow } from './internal/compile-segment-filter';
import { countAndStoreSegment } from './internal/segment-contacts';

/**
 * The count loop's work on one claimed segment: count it and store the count. A filter that no
 * longer compiles (a list or attribute deleted since) is stored as counted with no count, so the
 * loop does not claim it again at once. Unsafe: the claim, not a principal, names the segment.
 */
export async function unsafeRecountSegment(
  services: Pick<Services, 'db' | 'now'>,
  row: SegmentRow,
): Promise<number | null> {
  const startedAt = services.now();
  try {
    return await countAndStoreSegment(services.db, row, startedAt);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    await services.db
      .update(segments)
      .set({ contactCount: null, countedAt: startedAt, countLeaseUntil: null })
      .where(and(eq(segments.accountId, row.accountId), eq(segments.id, row.id)));
    return null;
  }
}
