import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { defineVerb } from '@/lib/core/verb';
import { contactEngagement, contacts } from '@/lib/db/schema';
import { eq } from 'drizzle-orm';
import { notFound } from '@/lib/shared/errors';
import { contactMatch } from './internal/queries';
import { contactPathSchema } from './schemas';

/**
 * Deletes the contact; its memberships go with it (the foreign key cascades), in every list,
 * deleted lists included. Its subscription history and every suppression of the address stay (R2).
 */
export const deleteContact = defineVerb({
  scope: 'contacts:delete',
  input: contactPathSchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    const match = contactMatch(principal.targetAccountId, input.id_or_email);
    if (!match) throw notFound('contact not found');
    const row = await db.transaction(async (tx) => {
      const [deleted] = await tx.delete(contacts).where(match).returning({ id: contacts.id, email: contacts.email });
      if (!deleted) throw notFound('contact not found');
      await tx.delete(contactEngagement).where(eq(contactEngagement.contactId, deleted.id));
      await recordAuditEvent(tx, ctx, { action: 'contact.delete', resource: { type: 'contact', id: deleted.id } });
      return deleted;
    });
    return { message: `contact ${row.email} deleted` };
  },
});
