import { defineVerb } from '@/lib/core/verb';
import { presentList } from './internal/present';
import { getListInAccount, loadMemberCounts } from './internal/queries';
import { listPathSchema } from './schemas';

/** One list with its member counts per status; a deleted list is 404 (R10). */
export const getList = defineVerb({
  scope: 'lists:read',
  input: listPathSchema,
  async run({ db, principal }, input) {
    const list = await getListInAccount(db, principal.targetAccountId, input.list_id);
    return presentList(list, (await loadMemberCounts(db, [list.id])).get(list.id));
  },
});
