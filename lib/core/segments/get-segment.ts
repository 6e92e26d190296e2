import { defineVerb } from '@/lib/core/verb';
import { getSegmentInAccount } from './internal/compile-segment-filter';
import { presentSegmentWithCount } from './internal/segment-contacts';
import { segmentPathSchema } from './schemas';

/** A segment with `count`, the contacts matching it now (counted here, and stored for the list). */
export const getSegment = defineVerb({
  scope: 'contacts:read',
  input: segmentPathSchema,
  async run({ db, principal, now }, input) {
    const row = await getSegmentInAccount(db, principal.targetAccountId, input.segment_id);
    return presentSegmentWithCount(db, row, now());
  },
});
