import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { contactExports } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import type { ContactExportRow } from './present';

/** An export of the account, or 404. */
export async function getContactExportInAccount(
  db: DbOrTx,
  accountId: string,
  exportId: string,
): Promise<ContactExportRow> {
  if (!isUuid(exportId)) throw notFound('contact export not found');
  const [row] = await db
    .select()
    .from(contactExports)
    .where(and(eq(contactExports.accountId, accountId), eq(contactExports.id, exportId.toLowerCase())))
    .limit(1);
  if (!row) throw notFound('contact export not found');
  return row;
}
