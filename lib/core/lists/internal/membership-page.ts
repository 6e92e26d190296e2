import { and, asc, desc, gt, lt, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { decodeCursor, encodeCursor, type Page, type PageQuery } from '@/lib/core/shared/pagination';
import type { DbOrTx } from '@/lib/db/client';
import { invalidInput } from '@/lib/shared/errors';
import { listMemberships } from '@/lib/db/schema';
import type { MembershipRow } from './present';

/**
 * A page of memberships with the same cursors as every other list. Memberships have no id of their
 * own, so the keyset is the other half of the key: the contact id within a list, the list id within
 * a contact. Both are UUIDv7, so the page is newest contact (or list) first.
 */
export async function pageMemberships(
  db: DbOrTx,
  options: { where: SQL | undefined; key: 'contactId' | 'listId'; query: PageQuery },
): Promise<Page<MembershipRow>> {
  const { where, query } = options;
  const keyColumn: PgColumn = listMemberships[options.key];
  const keyOf = (row: MembershipRow) => row[options.key];
  const afterRaw = query.after ?? query.cursor;
  if (afterRaw !== undefined && query.before !== undefined)
    throw invalidInput('after and before cannot be used together', 'before');
  const limit = query.limit;
  const select = (condition: SQL | undefined, order: SQL, take: number) =>
    db.select().from(listMemberships).where(and(where, condition)).orderBy(order).limit(take);
  const probe = async (condition: SQL) => (await select(condition, asc(keyColumn), 1)).length > 0;

  let rows: MembershipRow[];
  let hasMore: boolean;
  let hasPrevious: boolean;
  if (query.before !== undefined) {
    const beforeKey = decodeCursor(query.before, 'before');
    const found = await select(gt(keyColumn, beforeKey), asc(keyColumn), limit + 1);
    hasPrevious = found.length > limit;
    rows = found.slice(0, limit).reverse();
    const last = rows.at(-1);
    hasMore = last ? await probe(lt(keyColumn, keyOf(last))) : false;
  } else {
    const afterKey =
      afterRaw !== undefined ? decodeCursor(afterRaw, query.after !== undefined ? 'after' : 'cursor') : undefined;
    const found = await select(afterKey ? lt(keyColumn, afterKey) : undefined, desc(keyColumn), limit + 1);
    hasMore = found.length > limit;
    rows = found.slice(0, limit);
    const first = rows[0];
    hasPrevious = afterKey !== undefined && first !== undefined ? await probe(gt(keyColumn, keyOf(first))) : false;
  }
  const firstKey = rows[0] ? keyOf(rows[0]) : undefined;
  const lastKey = rows.at(-1) ? keyOf(rows.at(-1)!) : undefined;
  return {
    items: rows,
    hasMore,
    nextCursor: hasMore && lastKey ? encodeCursor(lastKey) : undefined,
    previousCursor: hasPrevious && firstKey ? encodeCursor(firstKey) : undefined,
  };
}
