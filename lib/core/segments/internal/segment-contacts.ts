import { and, count, desc, eq, isNull, lte, or, type SQL } from 'drizzle-orm';
import { presentContact, type ContactRow } from '@/lib/core/contacts/internal/present';
import type { DbOrTx } from '@/lib/db/client';
import { segments } from '@/lib/db/schema';
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

/** A segment as the API shows it: `count` is the stored count as of `counted_at` (null before its first). */
export function presentSegment(row: SegmentRow, matching: number | null, countedAt: Date | null) {
  return {
    object: 'segment' as const,
    id: row.id,
    name: row.name,
    filter: row.filter,
    count: matching,
    counted_at: countedAt ? countedAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/**
 * Counts a segment now and stores the count as of `startedAt`, unless a count begun later is stored
 * already (a count of the filter before an update never overwrites one of the filter after it).
 */
export async function countAndStoreSegment(db: DbOrTx, row: SegmentRow, startedAt: Date): Promise<number> {
  const where = await segmentWhere(db, row.accountId, row.filter as SegmentFilter);
  const matching = await countSegmentContacts(db, where);
  await db
    .update(segments)
    .set({ contactCount: matching, countedAt: startedAt, countLeaseUntil: null })
    .where(
      and(
        eq(segments.accountId, row.accountId),
        eq(segments.id, row.id),
        or(isNull(segments.countedAt), lte(segments.countedAt, startedAt)),
        // Not if the filter changed after this row was read (within the millisecond a Date keeps).
        lte(segments.updatedAt, new Date(row.updatedAt.getTime() + 1)),
      ),
    );
  return matching;
}

/** A saved segment counted now (create, update and the single GET), its count stored for the list. */
export async function presentSegmentWithCount(db: DbOrTx, row: SegmentRow, now: Date) {
  return presentSegment(row, await countAndStoreSegment(db, row, now), now);
}

/** A segment with its stored count, as the list shows it (no count per request). */
export function presentSegmentWithStoredCount(row: SegmentRow) {
  return presentSegment(row, row.contactCount, row.countedAt);
}
