import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import type { Services } from '@/lib/core/context';
import { recordSubscriptionChange } from '@/lib/core/contacts/internal/record-subscription-change';
import { contactLists, contacts, listMemberships } from '@/lib/db/schema';
import { unsafeGetRecipientPreferences, type RecipientPreferences } from './get-recipient-preferences';

/**
 * The preferences page's save: each of the contact's live memberships becomes what was ticked.
 * Ticked and unsubscribed becomes `confirmed` (the link in their own mail proves the address);
 * unticked and subscribed becomes `unsubscribed`; complained stays frozen (R9); lists the contact is
 * not on are ignored. Ticking any list also ends an "unsubscribe from everything". Suppressions are
 * untouched (R2). Null for a token that is not ours.
 */
export async function unsafeUpdateRecipientPreferences(
  services: Pick<Services, 'db' | 'secrets' | 'now'>,
  token: string,
  subscribedListIds: string[],
): Promise<RecipientPreferences | null> {
  const before = await unsafeGetRecipientPreferences(services, token);
  if (!before) return null;
  const owned = before.memberships.map((membership) => membership.listId);
  const wanted = subscribedListIds.filter((id) => owned.includes(id));
  const at = services.now();
  const change = { accountId: before.accountId, contactId: before.contactId, email: before.email, at };
  await services.db.transaction(async (tx) => {
    const liveLists = tx
      .select({ id: contactLists.id })
      .from(contactLists)
      .where(and(eq(contactLists.accountId, before.accountId), isNull(contactLists.deletedAt)));
    const resubscribed = wanted.length
      ? await tx
          .update(listMemberships)
          .set({ subscriptionStatus: 'confirmed', updatedAt: at })
          .where(
            and(
              eq(listMemberships.contactId, before.contactId),
              inArray(listMemberships.listId, wanted),
              eq(listMemberships.subscriptionStatus, 'unsubscribed'),
            ),
          )
          .returning({ listId: listMemberships.listId })
      : [];
    const unsubscribed = await tx
      .update(listMemberships)
      .set({ subscriptionStatus: 'unsubscribed', updatedAt: at })
      .where(
        and(
          eq(listMemberships.contactId, before.contactId),
          inArray(listMemberships.listId, liveLists),
          wanted.length ? notInArray(listMemberships.listId, wanted) : undefined,
          inArray(listMemberships.subscriptionStatus, ['confirmed', 'unconfirmed']),
        ),
      )
      .returning({ listId: listMemberships.listId });
    for (const { listId } of resubscribed)
      await recordSubscriptionChange(tx, { ...change, type: 'resubscribed', source: 'preferences_page', listId });
    for (const { listId } of unsubscribed)
      await recordSubscriptionChange(tx, { ...change, type: 'unsubscribed', source: 'preferences_page', listId });
    if (wanted.length && before.isUnsubscribedEverywhere) {
      await tx
        .update(contacts)
        .set({ unsubscribed: false, unsubscribedAt: null, updatedAt: at })
        .where(eq(contacts.id, before.contactId));
      await recordSubscriptionChange(tx, { ...change, type: 'resubscribed', source: 'preferences_page' });
    }
  });
  return unsafeGetRecipientPreferences(services, token);
}
