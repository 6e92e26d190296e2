import type { DbOrTx } from '@/lib/db/client';
import { contactSubscriptionEvents } from '@/lib/db/schema';

export type SubscriptionChange = 'unsubscribed' | 'resubscribed';

/** One line of a contact's subscription history (R3), kept after the contact is deleted. */
export async function recordSubscriptionChange(
  db: DbOrTx,
  change: {
    accountId: string;
    contactId: string;
    email: string;
    type: SubscriptionChange;
    source: string;
    at: Date;
    listId?: string | null;
  },
): Promise<void> {
  await db.insert(contactSubscriptionEvents).values({
    accountId: change.accountId,
    contactId: change.contactId,
    email: change.email,
    type: change.type,
    source: change.source,
    listId: change.listId ?? null,
    createdAt: change.at,
  });
}
