import { and, eq, isNull } from 'drizzle-orm';
import { paginate } from '@/lib/core/shared/pagination';
import { defineVerb } from '@/lib/core/verb';
import { contactLists } from '@/lib/db/schema';
import { presentList, type ListRow } from './internal/present';
import { loadMemberCounts } from './internal/queries';
import { listListsQuerySchema } from './schemas';

/** The account's lists, newest first, each with member counts per status; deleted lists are left out (R10). */
export const listLists = defineVerb({
  scope: 'lists:read',
  input: listListsQuerySchema,
  async run({ db, principal }, query) {
    return paginate(db, {
      table: contactLists,
      idColumn: contactLists.id,
      where: and(eq(contactLists.accountId, principal.targetAccountId), isNull(contactLists.deletedAt)),
      query,
      map: async (rows: ListRow[]) => {
        const counts = await loadMemberCounts(
          db,
          rows.map((row) => row.id),
        );
        return rows.map((row) => presentList(row, counts.get(row.id)));
      },
    });
  },
});
