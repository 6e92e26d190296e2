import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { memberInvitations } from '@/lib/db/schema';
import { getPendingInvitationInAccount } from './internal/queries';
import { invitationPathSchema } from './schemas';

/** DELETE member-invitations/{id} (Mailstead extension): the link stops working; the row stays as a record. */
export const revokeMemberInvitation = defineVerb({
  scope: 'accounts:members:remove',
  input: invitationPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const invitation = await getPendingInvitationInAccount(db, principal.targetAccountId, input.invitation_id);
    const at = now();
    await db.transaction(async (tx) => {
      await tx
        .update(memberInvitations)
        .set({ revokedAt: at, updatedAt: at })
        .where(
          and(eq(memberInvitations.accountId, principal.targetAccountId), eq(memberInvitations.id, invitation.id)),
        );
      await recordAuditEvent(tx, ctx, {
        action: 'invitation.revoke',
        resource: { type: 'invitation', id: invitation.id },
      });
    });
    return { message: `invitation of ${invitation.email} revoked` };
  },
});
