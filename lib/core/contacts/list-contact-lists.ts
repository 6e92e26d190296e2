import { and, eq } from 'drizzle-orm';
import { pageMemberships } from '@/lib/core/lists/internal/membership-page';
import { presentMembership } from '@/lib/core/lists/internal/present';
import { contactListsQuerySchema } from '@/lib/core/contacts/schemas';
import { defineVerb } from '@/lib/core/verb';
import { listMemberships } from '@/lib/db/schema';
import { getContactInAccount } from './internal/queries';
import { contactPathSchema } from './schemas';

/**
 * The contact's memberships, newest list first, including those of deleted lists: they still hold
 * the contact's per-list consent (R10), and this is the only place they can be seen.
 */
export const listContactLists = defineVerb({
  scope: 'lists:read',
  input: contactListsQuerySchema.extend(contactPathSchema.shape),
  async run({ db, principal }, query) {
    const accountId = principal.targetAccountId;
    const contact = await getContactInAccount(db, accountId, query.id_or_email);
    const page = await pageMemberships(db, {
      where: and(eq(listMemberships.accountId, accountId), eq(listMemberships.contactId, contact.id)),
      key: 'listId',
      query,
    });
    return { ...page, items: page.items.map((row) => presentMembership(row)) };
  },
});
