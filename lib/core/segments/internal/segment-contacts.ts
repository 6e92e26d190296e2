import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import { presentContact, type ContactRow } from '@/lib/core/contacts/internal/present';
import type { DbOrTx } from '@/lib/db/client';
import type { SegmentFilter } from '../schemas';
import { compileSegmentFilter, segmentContact as c, type SegmentRow } from './compile-segment-filter';

/** The account's contacts matching `filter`, as one condition over `c` with the tenancy in it. */
export async function segmentWhere(db: DbOrTx, accountId: string, filter: SegmentFilter): Promise<SQL> {
  return and(eq(c.accountId, accountId), await compileSegmentFilter(db, accountId, filter)) as SQL;
}

/** How many contacts match now: one count over the account's contacts. */
export async function countSegmentContacts(db: DbOrTx, where: SQL): Promise<number> {
  const [row] = await db.select({ count: count() }).from(c).where(where);
  return Number(row?.count ?? 0);
}

/** The first `limit` matching contacts, newest first. */
export async function firstSegmentContacts(db: DbOrTx, where: SQL, limit: number) {
  const rows = await db.select().from(c).where(where).orderBy(desc(c.id)).limit(limit);
  return (rows as ContactRow[]).map(presentContact);
}

export function presentSegment(row: SegmentRow, matching: number) {
  return {
    object: 'segment' as const,
    id: row.id,
    name: row.name,
    filter: row.filter,
    count: matching,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** A saved segment with its live count. */
export async function presentSegmentWithCount(db: DbOrTx, row: SegmentRow) {
  const where = await segmentWhere(db, row.accountId, row.filter as SegmentFilter);
  return presentSegment(row, await countSegmentContacts(db, where));
}
