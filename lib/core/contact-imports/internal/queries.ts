import { and, eq, isNull, ne } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { contactImports, contactLists } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import { isUuid } from '@/lib/shared/ids';
import type { ContactImportRow } from './present';

/** An import of the account, or 404. One still receiving its upload does not exist yet for anyone. */
export async function getContactImportInAccount(
  db: DbOrTx,
  accountId: string,
  importId: string,
): Promise<ContactImportRow> {
  if (!isUuid(importId)) throw notFound('contact import not found');
  const [row] = await db
    .select()
    .from(contactImports)
    .where(
      and(
        eq(contactImports.accountId, accountId),
        eq(contactImports.id, importId.toLowerCase()),
        ne(contactImports.status, 'receiving'),
      ),
    )
    .limit(1);
  if (!row) throw notFound('contact import not found');
  return row;
}

/** Whether the list is one of the account's and not deleted (an import target). */
export async function isLiveListOfAccount(db: DbOrTx, accountId: string, listId: string): Promise<boolean> {
  if (!isUuid(listId)) return false;
  const [row] = await db
    .select({ id: contactLists.id })
    .from(contactLists)
    .where(
      and(
        eq(contactLists.accountId, accountId),
        eq(contactLists.id, listId.toLowerCase()),
        isNull(contactLists.deletedAt),
      ),
    )
    .limit(1);
  return Boolean(row);
}
