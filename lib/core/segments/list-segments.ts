import { eq } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { segments } from '@/lib/db/schema';
import type { SegmentRow } from './internal/compile-segment-filter';
import { presentSegmentWithCount } from './internal/segment-contacts';
import { listSegmentsQuerySchema } from './schemas';

/** The account's segments, newest first, each with its live count (one count per segment of the page, run together). */
export const listSegments = defineVerb({
  scope: 'contacts:read',
  input: listSegmentsQuerySchema,
  async run({ db, principal }, query) {
    return paginate(db, {
      table: segments,
      idColumn: segments.id,
      where: eq(segments.accountId, principal.targetAccountId),
      query,
      // In parallel: on PostgreSQL each count takes a pooled connection of its own.
      map: (rows: SegmentRow[]) => Promise.all(rows.map((row) => presentSegmentWithCount(db, row))),
    });
  },
});
