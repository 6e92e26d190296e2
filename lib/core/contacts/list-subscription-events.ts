import { and, desc, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { contactSubscriptionEvents } from '@/lib/db/schema';
import { getContactInAccount } from './internal/queries';
import { contactPathSchema } from './schemas';

/** At most this many lines of history are shown; a contact rarely changes its mind more often. */
const HISTORY_LIMIT = 100;

/** A contact's subscription history (R3), newest first, for its dashboard page. */
export const listSubscriptionEvents = defineVerb({
  scope: 'contacts:read',
  input: contactPathSchema,
  async run({ db, principal }, input) {
    const accountId = principal.targetAccountId;
    const contact = await getContactInAccount(db, accountId, input.id_or_email);
    const rows = await db
      .select()
      .from(contactSubscriptionEvents)
      .where(
        and(eq(contactSubscriptionEvents.accountId, accountId), eq(contactSubscriptionEvents.contactId, contact.id)),
      )
      .orderBy(desc(contactSubscriptionEvents.id))
      .limit(HISTORY_LIMIT);
    return {
      object: 'list' as const,
      data: rows.map((row) => ({
        object: 'contact_subscription_event' as const,
        type: row.type as 'unsubscribed' | 'resubscribed',
        source: row.source,
        list_id: row.listId,
        created_at: row.createdAt.toISOString(),
      })),
    };
  },
});
