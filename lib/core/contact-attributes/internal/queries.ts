import { and, eq, isNotNull, sql, count } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { contactAttributeDefinitions, contacts } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';

export type AttributeDefinitionRow = typeof contactAttributeDefinitions.$inferSelect;

/** A definition of the account by key, or 404. */
export async function getAttributeDefinitionInAccount(
  db: DbOrTx,
  accountId: string,
  key: string,
): Promise<AttributeDefinitionRow> {
  const [row] = await db
    .select()
    .from(contactAttributeDefinitions)
    .where(and(eq(contactAttributeDefinitions.accountId, accountId), eq(contactAttributeDefinitions.key, key)))
    .limit(1);
  if (!row) throw notFound(`attribute ${key} not found`);
  return row;
}

/** How many of the account's contacts hold a value for this key. */
export async function countContactsWithAttribute(db: DbOrTx, accountId: string, key: string): Promise<number> {
  const [row] = await db
    .select({ count: count() })
    .from(contacts)
    .where(and(eq(contacts.accountId, accountId), isNotNull(sql`${contacts.attributes} -> ${key}`)));
  return Number(row?.count ?? 0);
}
