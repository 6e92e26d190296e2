import { recordAuditEvent, type AuditSource } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { contacts } from '@/lib/db/schema';
import { presentContact } from './present';
import { getContactInAccount, subscriptionSource } from './queries';
import { recordSubscriptionChange } from './record-subscription-change';

/**
 * Shared by unsubscribe and resubscribe: sets the account-wide flag and writes the history line (R3).
 * Asking for the state the contact is already in changes nothing and adds no history. Memberships
 * keep their own per-list status (R7) and suppressions are not touched (R2).
 */
export async function setContactSubscription(
  db: DbOrTx,
  source: AuditSource,
  idOrEmail: string,
  isUnsubscribed: boolean,
  at: Date,
) {
  const { principal } = source;
  const accountId = principal.targetAccountId;
  return db.transaction(async (tx) => {
    const current = await getContactInAccount(tx, accountId, idOrEmail, { forUpdate: true });
    if (current.unsubscribed === isUnsubscribed) return presentContact(current);
    const [row] = await tx
      .update(contacts)
      .set({ unsubscribed: isUnsubscribed, unsubscribedAt: isUnsubscribed ? at : null, updatedAt: at })
      .where(and(eq(contacts.accountId, accountId), eq(contacts.id, current.id)))
      .returning();
    await recordSubscriptionChange(tx, {
      accountId,
      contactId: current.id,
      email: current.email,
      type: isUnsubscribed ? 'unsubscribed' : 'resubscribed',
      source: subscriptionSource(principal),
      at,
    });
    await recordAuditEvent(tx, source, {
      action: isUnsubscribed ? 'contact.unsubscribe' : 'contact.resubscribe',
      resource: { type: 'contact', id: current.id },
    });
    return presentContact(row!);
  });
}
