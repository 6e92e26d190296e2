import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import type { MemberRole } from '@/lib/auth/principal';
import { defineVerb } from '@/lib/core/verb';
import { memberInvitations, memberships } from '@/lib/db/schema';
import { forbidden, invalidInput, notFound } from '@/lib/shared/errors';
import { findMemberInAccount } from './internal/queries';
import { memberPathSchema } from './schemas';

/**
 * DELETE members/{user_id}: never yourself (400) nor the owner (403), as the contract says. The
 * user_id an invitation answered with revokes that invitation while it is pending. Sessions check
 * membership on every request, so a removed member loses access at once.
 */
export const removeMember = defineVerb({
  scope: 'accounts:members:remove',
  input: memberPathSchema,
  async run(ctx, input) {
    const { db, principal, now } = ctx;
    const accountId = principal.targetAccountId;
    const member = await findMemberInAccount(db, accountId, input.user_id);
    if (!member) {
      const revoked = await db.transaction(async (tx) => {
        const rows = await tx
          .update(memberInvitations)
          .set({ revokedAt: now(), updatedAt: now() })
          .where(
            and(
              eq(memberInvitations.accountId, accountId),
              eq(memberInvitations.userId, input.user_id),
              isNull(memberInvitations.acceptedAt),
              isNull(memberInvitations.revokedAt),
            ),
          )
          .returning({ id: memberInvitations.id, email: memberInvitations.email });
        if (!rows.length) throw notFound('member not found');
        await recordAuditEvent(tx, ctx, {
          action: 'invitation.revoke',
          resource: { type: 'invitation', id: rows[0].id },
        });
        return rows;
      });
      return { message: `invitation of ${revoked[0].email} revoked` };
    }
    if (member.userId === principal.userId) throw invalidInput('you cannot remove yourself from the account');
    if (member.userId === member.ownerId) throw forbidden('the account owner cannot be removed');
    authorizeHoldingEveryScopeOf(principal, { kind: 'role', role: member.role as MemberRole });
    await db.transaction(async (tx) => {
      await tx
        .delete(memberships)
        .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, member.userId)));
      await recordAuditEvent(tx, ctx, { action: 'member.remove', resource: { type: 'member', id: member.userId } });
    });
    return { message: `member ${member.email} removed from the account` };
  },
});
