import { and, count, eq, inArray, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { contactLists, listMemberships } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import { emptyCounts, type ListRow, type MemberCounts } from './present';
import type { SubscriptionStatus } from '../schemas';

/** A list of the account that is not deleted, or 404: a deleted list is gone for every request (R10). */
export async function getListInAccount(
  db: DbOrTx,
  accountId: string,
  listId: string,
  options: { forUpdate?: boolean } = {},
): Promise<ListRow> {
  if (!isUuid(listId)) throw notFound('list not found');
  const query = db
    .select()
    .from(contactLists)
    .where(
      and(
        eq(contactLists.accountId, accountId),
        eq(contactLists.id, listId.toLowerCase()),
        isNull(contactLists.deletedAt),
      ),
    )
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('list not found');
  return row;
}

/** Member counts per status of lists already fetched within an account, by list id. */
export async function loadMemberCounts(db: DbOrTx, listIds: string[]): Promise<Map<string, MemberCounts>> {
  const byList = new Map<string, MemberCounts>(listIds.map((id) => [id, emptyCounts()]));
  if (listIds.length === 0) return byList;
  const rows = await db
    .select({ listId: listMemberships.listId, status: listMemberships.subscriptionStatus, count: count() })
    .from(listMemberships)
    .where(inArray(listMemberships.listId, listIds))
    .groupBy(listMemberships.listId, listMemberships.subscriptionStatus);
  for (const row of rows) {
    const counts = byList.get(row.listId);
    if (counts && row.status in counts) counts[row.status as SubscriptionStatus] = Number(row.count);
  }
  return byList;
}
