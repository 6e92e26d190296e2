import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { listMemberships } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { getMembershipForUpdate } from './internal/get-membership';
import { presentMembership } from './internal/present';
import { memberPathSchema, updateListMemberSchema } from './schemas';

/**
 * Sets a member's per-list status (R7). `complained` cannot be written (400, in the schema) and a
 * complained membership cannot be changed (409, R9). The same status again changes nothing.
 */
export const updateListMember = defineVerb({
  scope: 'lists:write',
  input: updateListMemberSchema.extend(memberPathSchema.shape),
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    return db.transaction(async (tx) => {
      const current = await getMembershipForUpdate(tx, principal.targetAccountId, input.list_id, input.id_or_email);
      if (current.subscriptionStatus === 'complained')
        throw conflict('this membership is complained: it is frozen and cannot be changed (R9)', 'subscription_status');
      if (current.subscriptionStatus === input.subscription_status) return presentMembership(current);
      const [row] = await tx
        .update(listMemberships)
        .set({ subscriptionStatus: input.subscription_status, updatedAt: now() })
        .where(and(eq(listMemberships.listId, current.listId), eq(listMemberships.contactId, current.contactId)))
        .returning();
      await recordAuditEvent(tx, ctx, {
        action: 'list_member.update',
        resource: { type: 'list', id: current.listId },
        changes: ['subscription_status'],
      });
      return presentMembership(row!);
    });
  },
});
