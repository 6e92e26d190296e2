import { sql, type SQL } from 'drizzle-orm';
import { getListInAccount } from '@/lib/core/lists/internal/queries';
import type { DbOrTx } from '@/lib/db/client';
import { invalidInput } from '@/lib/shared/errors';

/** What an export selects, as stored on its row: nothing (every contact), a list, a segment or a filter. */
export type ExportSelection = { list_id?: string; segment_id?: string; filter?: Record<string, unknown> };

/**
 * The selection as a condition over the alias `c` (contacts) of the export's page query, checked
 * against the account: a list or segment of another account, or deleted, is a 404 (AppError).
 */
export async function selectionCondition(db: DbOrTx, accountId: string, selection: ExportSelection): Promise<SQL> {
  if (selection.list_id !== undefined) {
    const list = await getListInAccount(db, accountId, selection.list_id);
    return sql`exists (select 1 from list_memberships m where m.list_id = ${list.id} and m.contact_id = c.id)`;
  }
  if (selection.segment_id !== undefined || selection.filter !== undefined)
    throw invalidInput(
      'exports by segment_id or filter are not available yet: export all contacts or a list_id',
      selection.segment_id !== undefined ? 'segment_id' : 'filter',
    );
  return sql`true`;
}
