import { and, eq, inArray, isNull } from 'drizzle-orm';
import { compileSegmentFilter } from '@/lib/core/segments/internal/compile-segment-filter';
import type { SegmentFilter } from '@/lib/core/segments/schemas';
import type { DbOrTx } from '@/lib/db/client';
import { contactLists, segments } from '@/lib/db/schema';
import { AppError } from '@/lib/shared/errors';
import type { CampaignRow } from './present';

/**
 * Validation of a campaign's segments and excluded lists before it is scheduled: each still exists
 * (segments may be deleted while a campaign is a draft) and each segment's filter still compiles
 * (an attribute it reads may have been deleted since). Returns whether the audience can be counted.
 */
export async function checkAudienceNarrowing(
  db: DbOrTx,
  row: Pick<CampaignRow, 'accountId' | 'segmentIds' | 'excludeListIds' | 'excludeSegmentIds'>,
  fail: (field: string, message: string) => void,
): Promise<boolean> {
  let isUsable = true;
  for (const field of ['segment_ids', 'exclude_segment_ids'] as const) {
    const ids = field === 'segment_ids' ? row.segmentIds : row.excludeSegmentIds;
    if (ids.length === 0) continue;
    const found = await db
      .select({ id: segments.id, name: segments.name, filter: segments.filter })
      .from(segments)
      .where(and(eq(segments.accountId, row.accountId), inArray(segments.id, ids)));
    if (found.length < ids.length) {
      fail(field, `${ids.length - found.length} of the segments no longer exist; remove them`);
      isUsable = false;
    }
    for (const segment of found) {
      try {
        await compileSegmentFilter(db, row.accountId, segment.filter as SegmentFilter);
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        fail(field, `segment ${segment.name} cannot be used: ${error.message}`);
        isUsable = false;
      }
    }
  }
  if (row.excludeListIds.length) {
    const live = await db
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(
        and(
          eq(contactLists.accountId, row.accountId),
          inArray(contactLists.id, row.excludeListIds),
          isNull(contactLists.deletedAt),
        ),
      );
    if (live.length < row.excludeListIds.length) {
      fail(
        'exclude_list_ids',
        `${row.excludeListIds.length - live.length} of the excluded lists no longer exist; remove them`,
      );
      isUsable = false;
    }
  }
  return isUsable;
}
