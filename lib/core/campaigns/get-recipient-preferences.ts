import { and, asc, eq, isNull, ne } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { publicListName } from '@/lib/core/lists/internal/public-list-name';
import { contactLists, listMemberships } from '@/lib/db/schema';
import { unsafeDescribeUnsubscribe } from './unsubscribe-recipient';

export type RecipientPreferences = NonNullable<Awaited<ReturnType<typeof unsafeDescribeUnsubscribe>>> & {
  /** The contact's own memberships in live lists, by public name; complained ones are frozen (R9) and left out. */
  memberships: { listId: string; name: string; isSubscribed: boolean }[];
};

/**
 * What the page behind a campaign's unsubscribe link offers: the contact's memberships, each
 * subscribed (confirmed or unconfirmed) or not, by the name contacts see (`public_name`, else `name`).
 * Only lists the contact is on, never others of the account. Null for a token that is not ours.
 * Unsafe: the token is the permission.
 */
export async function unsafeGetRecipientPreferences(
  services: Pick<Services, 'db' | 'secrets'>,
  token: string,
): Promise<RecipientPreferences | null> {
  const target = await unsafeDescribeUnsubscribe(services, token);
  if (!target) return null;
  const rows = await services.db
    .select({ listId: contactLists.id, name: publicListName, status: listMemberships.subscriptionStatus })
    .from(listMemberships)
    .innerJoin(
      contactLists,
      and(
        eq(contactLists.id, listMemberships.listId),
        eq(contactLists.accountId, target.accountId),
        isNull(contactLists.deletedAt),
      ),
    )
    .where(and(eq(listMemberships.contactId, target.contactId), ne(listMemberships.subscriptionStatus, 'complained')))
    .orderBy(asc(publicListName), asc(contactLists.id));
  return {
    ...target,
    memberships: rows.map((row) => ({
      listId: row.listId,
      name: row.name,
      isSubscribed: row.status !== 'unsubscribed',
    })),
  };
}
