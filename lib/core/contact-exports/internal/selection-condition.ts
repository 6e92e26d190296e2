import { sql, type SQL } from 'drizzle-orm';
import { getListInAccount } from '@/lib/core/lists/internal/queries';
import { compileSegmentFilter, getSegmentInAccount } from '@/lib/core/segments/internal/compile-segment-filter';
import type { SegmentFilter } from '@/lib/core/segments/schemas';
import type { DbOrTx } from '@/lib/db/client';

/** What an export selects, as stored on its row: nothing (every contact), a list, a segment or a filter. */
export type ExportSelection = { list_id?: string; segment_id?: string; filter?: Record<string, unknown> };

/**
 * The selection as a condition over the alias `c` (contacts) of the export's page query, checked
 * against the account: a list or segment of another account, or deleted, is a 404, a filter that
 * names an unknown attribute or list a 400 (AppError). Segments match as they are when this runs.
 */
export async function selectionCondition(db: DbOrTx, accountId: string, selection: ExportSelection): Promise<SQL> {
  if (selection.list_id !== undefined) {
    const list = await getListInAccount(db, accountId, selection.list_id);
    return sql`exists (select 1 from list_memberships m where m.list_id = ${list.id} and m.contact_id = c.id)`;
  }
  if (selection.segment_id !== undefined) {
    const segment = await getSegmentInAccount(db, accountId, selection.segment_id);
    return compileSegmentFilter(db, accountId, segment.filter as SegmentFilter);
  }
  if (selection.filter !== undefined) return compileSegmentFilter(db, accountId, selection.filter as SegmentFilter);
  return sql`true`;
}
