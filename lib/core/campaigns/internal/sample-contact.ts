import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { contacts, listMemberships } from '@/lib/db/schema';
import { contactSubstitutions } from './audience';

/** A confirmed member of the lists whose values stand in for every recipient in trial renders and previews. */
export async function sampleContact(
  db: DbOrTx,
  accountId: string,
  listIds: string[],
): Promise<{ email: string; values: Record<string, unknown> }> {
  const [contact] = listIds.length
    ? await db
        .select({
          email: contacts.email,
          firstName: contacts.firstName,
          lastName: contacts.lastName,
          attributes: contacts.attributes,
        })
        .from(listMemberships)
        .innerJoin(contacts, eq(contacts.id, listMemberships.contactId))
        .where(
          and(
            eq(listMemberships.accountId, accountId),
            inArray(listMemberships.listId, listIds),
            eq(listMemberships.subscriptionStatus, 'confirmed'),
          ),
        )
        .limit(1)
    : [];
  if (!contact)
    return {
      email: 'subscriber@example.com',
      values: contactSubstitutions({
        email: 'subscriber@example.com',
        firstName: 'Sam',
        lastName: 'Sample',
        attributes: {},
      }),
    };
  return { email: contact.email, values: contactSubstitutions(contact) };
}
