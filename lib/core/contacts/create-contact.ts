import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { contacts } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { presentContact } from './internal/present';
import { checkContactAttributes, contactEmailOrThrow, subscriptionSource } from './internal/queries';
import { recordSubscriptionChange } from './internal/record-subscription-change';
import { createContactSchema } from './schemas';

/**
 * A new contact of the account (R1: it joins no list). The address is trimmed and lowercased; one
 * the account already has is a 409, decided by the unique index so that parallel creates of one
 * address make one contact. Never touches suppressions (R2).
 */
export const createContact = defineVerb({
  scope: 'contacts:write',
  input: createContactSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const email = contactEmailOrThrow(input.email);
    const attributes = input.attributes ? (await checkContactAttributes(db, accountId, input.attributes)).set : {};
    const at = now();
    const isUnsubscribed = input.unsubscribed === true;
    return db.transaction(async (tx) => {
      const [row] = await tx
        .insert(contacts)
        .values({
          accountId,
          email,
          firstName: input.first_name || null,
          lastName: input.last_name || null,
          attributes,
          unsubscribed: isUnsubscribed,
          unsubscribedAt: isUnsubscribed ? at : null,
          createdAt: at,
          updatedAt: at,
        })
        .onConflictDoNothing({ target: [contacts.accountId, contacts.email] })
        .returning();
      if (!row) throw conflict(`a contact with the email ${email} already exists`, 'email');
      if (isUnsubscribed)
        await recordSubscriptionChange(tx, {
          accountId,
          contactId: row.id,
          email,
          type: 'unsubscribed',
          source: subscriptionSource(principal),
          at,
        });
      await recordAuditEvent(tx, ctx, { action: 'contact.create', resource: { type: 'contact', id: row.id } });
      return presentContact(row);
    });
  },
});
