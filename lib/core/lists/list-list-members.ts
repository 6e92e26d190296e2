import { and, eq, inArray, type SQL } from 'drizzle-orm';
import { presentContact } from '@/lib/core/contacts/internal/present';
import { defineVerb } from '@/lib/core/verb';
import { contacts, listMemberships } from '@/lib/db/schema';
import { pageMemberships } from './internal/membership-page';
import { presentMembership } from './internal/present';
import { getListInAccount } from './internal/queries';
import { listMembersQuerySchema, listPathSchema } from './schemas';

/**
 * A live list's members, newest contact first, filtered by `subscription_status`. With
 * `include_contacts=true` each carries its Contact, which needs `contacts:read` too (R12).
 */
export const listListMembers = defineVerb({
  scope: 'lists:read',
  input: listMembersQuerySchema.extend(listPathSchema.shape),
  alsoNeeds: (query) => (query.include_contacts === 'true' ? ['contacts:read'] : []),
  async run({ db, principal }, query) {
    const isIncludingContacts = query.include_contacts === 'true';
    const accountId = principal.targetAccountId;
    const list = await getListInAccount(db, accountId, query.list_id);
    const conditions: SQL[] = [eq(listMemberships.accountId, accountId), eq(listMemberships.listId, list.id)];
    if (query.subscription_status !== undefined)
      conditions.push(eq(listMemberships.subscriptionStatus, query.subscription_status));
    const page = await pageMemberships(db, { where: and(...conditions), key: 'contactId', query });
    const contactRows =
      isIncludingContacts && page.items.length > 0
        ? await db
            .select()
            .from(contacts)
            .where(
              and(
                eq(contacts.accountId, accountId),
                inArray(
                  contacts.id,
                  page.items.map((row) => row.contactId),
                ),
              ),
            )
        : [];
    const byId = new Map(contactRows.map((row) => [row.id, presentContact(row)]));
    return { ...page, items: page.items.map((row) => presentMembership(row, byId.get(row.contactId))) };
  },
});
