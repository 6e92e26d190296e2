import { givenFields } from '@/lib/core/audit/given-fields';
import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, sql } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { contacts } from '@/lib/db/schema';
import { conflict, notFound } from '@/lib/shared/errors';
import { hasPostgresCode } from './internal/postgres-error';
import { presentContact } from './internal/present';
import {
  checkContactAttributes,
  contactEmailOrThrow,
  getContactInAccount,
  subscriptionSource,
} from './internal/queries';
import { recordSubscriptionChange } from './internal/record-subscription-change';
import { contactPathSchema, updateContactSchema } from './schemas';

/**
 * Partial update: omitted fields stay; null or "" clears a name; `attributes` is merged key by key
 * (null removes a key); `unsubscribed` is the same change as the unsubscribe and resubscribe
 * endpoints, history included (R3). A new address another contact has is a 409. R2: suppressions
 * are not touched.
 */
export const updateContact = defineVerb({
  scope: 'contacts:write',
  input: updateContactSchema.extend(contactPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const email = input.email !== undefined ? contactEmailOrThrow(input.email) : undefined;
    const attributes = input.attributes ? await checkContactAttributes(db, accountId, input.attributes) : null;
    const at = now();
    return db.transaction(async (tx) => {
      const current = await getContactInAccount(tx, accountId, input.id_or_email, { forUpdate: true });
      const isUnsubscribeChange = input.unsubscribed !== undefined && input.unsubscribed !== current.unsubscribed;
      const merged = attributes
        ? sql`(${contacts.attributes} || ${JSON.stringify(attributes.set)}::jsonb) - ${sql.param(attributes.remove)}::text[]`
        : undefined;
      let row;
      try {
        [row] = await tx
          .update(contacts)
          .set({
            ...(email !== undefined ? { email } : {}),
            ...(input.first_name !== undefined ? { firstName: input.first_name || null } : {}),
            ...(input.last_name !== undefined ? { lastName: input.last_name || null } : {}),
            ...(merged ? { attributes: merged } : {}),
            ...(isUnsubscribeChange
              ? { unsubscribed: input.unsubscribed, unsubscribedAt: input.unsubscribed ? at : null }
              : {}),
            updatedAt: at,
          })
          .where(and(eq(contacts.accountId, accountId), eq(contacts.id, current.id)))
          .returning();
      } catch (error) {
        if (hasPostgresCode(error, '23505'))
          throw conflict(`a contact with the email ${email} already exists`, 'email');
        throw error;
      }
      if (!row) throw notFound('contact not found');
      if (isUnsubscribeChange) {
        await recordSubscriptionChange(tx, {
          accountId,
          contactId: row.id,
          email: row.email,
          type: input.unsubscribed ? 'unsubscribed' : 'resubscribed',
          source: subscriptionSource(principal),
          at,
        });
      }
      await recordAuditEvent(tx, ctx, {
        action: 'contact.update',
        resource: { type: 'contact', id: row.id },
        changes: givenFields(input, ['id_or_email']),
      });
      return presentContact(row);
    });
  },
});
