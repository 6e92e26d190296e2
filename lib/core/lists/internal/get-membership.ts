import { and, eq } from 'drizzle-orm';
import { getContactInAccount } from '@/lib/core/contacts/internal/queries';
import type { DbOrTx } from '@/lib/db/client';
import { listMemberships } from '@/lib/db/schema';
import { notFound } from '@/lib/shared/errors';
import type { MembershipRow } from './present';
import { getListInAccount } from './queries';

/** A membership of a live list of the account, by the contact's id or email, locked for a change; or 404. */
export async function getMembershipForUpdate(
  tx: DbOrTx,
  accountId: string,
  listId: string,
  idOrEmail: string,
): Promise<MembershipRow> {
  const list = await getListInAccount(tx, accountId, listId);
  const contact = await getContactInAccount(tx, accountId, idOrEmail);
  const [row] = await tx
    .select()
    .from(listMemberships)
    .where(
      and(
        eq(listMemberships.accountId, accountId),
        eq(listMemberships.listId, list.id),
        eq(listMemberships.contactId, contact.id),
      ),
    )
    .for('update');
  if (!row) throw notFound('the contact is not a member of this list');
  return row;
}
