import { and, eq, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { segments } from '@/lib/db/schema';
import type { SegmentFilter } from '../schemas';
import { compileSegmentFilter, segmentContact as c } from './compile-segment-filter';

/** The account's segments among `ids`, each compiled; ids of other accounts or deleted segments are skipped. */
async function compileSegments(db: DbOrTx, accountId: string, ids: string[]): Promise<SQL[]> {
  const rows = await db
    .select({ filter: segments.filter })
    .from(segments)
    .where(and(eq(segments.accountId, accountId), inArray(segments.id, ids)));
  return Promise.all(rows.map((row) => compileSegmentFilter(db, accountId, row.filter as SegmentFilter)));
}

/**
 * A campaign's narrowing of its lists' members (marketing-api.md Part 2, Segments), as one condition
 * over contacts `c`: in at least one of `segmentIds` when given, in none of `excludeListIds` (a
 * membership of any status), in none of `excludeSegmentIds`. Missing segments are the campaign
 * validation's to report; here a narrowing to segments of which none exists reaches nobody.
 */
export async function segmentAudienceCondition(
  db: DbOrTx,
  target: { accountId: string; segmentIds?: string[]; excludeListIds?: string[]; excludeSegmentIds?: string[] },
): Promise<SQL> {
  const parts: SQL[] = [];
  if (target.segmentIds?.length) {
    const included = await compileSegments(db, target.accountId, target.segmentIds);
    parts.push(included.length ? sql`(${or(...included)})` : sql`false`);
  }
  if (target.excludeListIds?.length) {
    parts.push(
      sql`not exists (select 1 from list_memberships x where x.contact_id = ${c.id} and x.account_id = ${target.accountId} and x.list_id = any(${sql.param(target.excludeListIds)}::uuid[]))`,
    );
  }
  if (target.excludeSegmentIds?.length) {
    const excluded = await compileSegments(db, target.accountId, target.excludeSegmentIds);
    if (excluded.length) parts.push(sql`not (${or(...excluded)})`);
  }
  return parts.length ? (and(...parts) as SQL) : sql`true`;
}
