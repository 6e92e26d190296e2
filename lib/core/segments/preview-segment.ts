import { defineVerb } from '@/lib/core/verb';
import { countSegmentContacts, firstSegmentContacts, segmentWhere } from './internal/segment-contacts';
import { previewSegmentSchema } from './schemas';

export const PREVIEW_CONTACTS = 10;

/** What a filter matches now, without saving it: the builder's live count and first contacts. */
export const previewSegment = defineVerb({
  scope: 'contacts:read',
  input: previewSegmentSchema,
  async run({ db, principal }, input) {
    const where = await segmentWhere(db, principal.targetAccountId, input.filter);
    const [matching, first] = await Promise.all([
      countSegmentContacts(db, where),
      firstSegmentContacts(db, where, PREVIEW_CONTACTS),
    ]);
    return { object: 'segment_preview' as const, count: matching, contacts: first };
  },
});
