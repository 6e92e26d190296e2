import { presentContact, type ContactRow } from '@/lib/core/contacts/internal/present';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { getSegmentInAccount, segmentContact } from './internal/compile-segment-filter';
import { segmentWhere } from './internal/segment-contacts';
import { segmentContactsQuerySchema, segmentPathSchema, type SegmentFilter } from './schemas';

/** The contacts matching a segment now, newest first, paginated like every contact list. */
export const listSegmentContacts = defineVerb({
  scope: 'contacts:read',
  input: segmentContactsQuerySchema.extend(segmentPathSchema.shape),
  async run({ db, principal }, query) {
    const accountId = principal.targetAccountId;
    const segment = await getSegmentInAccount(db, accountId, query.segment_id);
    return paginate(db, {
      table: segmentContact,
      idColumn: segmentContact.id,
      where: await segmentWhere(db, accountId, segment.filter as SegmentFilter),
      query,
      map: (rows: ContactRow[]) => rows.map(presentContact),
    });
  },
});
