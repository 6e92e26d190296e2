import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { listMemberships } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { getMembershipForUpdate } from './internal/get-membership';
import { memberPathSchema } from './schemas';

/**
 * Removes a contact from a list: the membership row is deleted and its record discarded (R11); adding
 * the contact again starts afresh. A complained membership is frozen (R9): removing it would let
 * the complaint be undone by adding the contact again, so it is 409 too.
 */
export const removeListMember = defineVerb({
  scope: 'lists:write',
  input: memberPathSchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    return db.transaction(async (tx) => {
      const current = await getMembershipForUpdate(tx, principal.targetAccountId, input.list_id, input.id_or_email);
      if (current.subscriptionStatus === 'complained')
        throw conflict('this membership is complained: it is frozen and cannot be removed (R9)');
      await tx
        .delete(listMemberships)
        .where(and(eq(listMemberships.listId, current.listId), eq(listMemberships.contactId, current.contactId)));
      await recordAuditEvent(tx, ctx, { action: 'list_member.remove', resource: { type: 'list', id: current.listId } });
      return { message: `contact ${current.contactId} removed from list ${current.listId}` };
    });
  },
});
