import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, sql } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import type { MemberRole } from '@/lib/auth/principal';
import { getAccountById } from '@/lib/core/accounts/queries';
import { defineVerb } from '@/lib/core/verb';
import { memberInvitations } from '@/lib/db/schema';
import { presentInvitation } from './internal/present';
import { getPendingInvitationInAccount, inviterNameOf } from './internal/queries';
import { invitationPathSchema } from './schemas';
import { newInvitationToken, sendInvitationMail } from './internal/send-invitation-mail';

/**
 * POST member-invitations/{id}/resend (Mailstead extension): a new link with a new expiry, mailed
 * again or handed back. The old link stops working, since only one hash is kept.
 */
export const resendMemberInvitation = defineVerb({
  scope: 'accounts:members:add',
  input: invitationPathSchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    const accountId = principal.targetAccountId;
    return db.transaction(async (tx) => {
      const invitation = await getPendingInvitationInAccount(tx, accountId, input.invitation_id);
      authorizeHoldingEveryScopeOf(principal, { kind: 'role', role: invitation.role as MemberRole });
      const account = await getAccountById(tx, accountId);
      const now = ctx.now();
      const { token, tokenHash } = newInvitationToken();
      const [row] = await tx
        .update(memberInvitations)
        .set({
          tokenHash,
          expiresAt: new Date(now.getTime() + ctx.config.invitationTtlSeconds * 1000),
          lastSentAt: now,
          sendCount: sql`${memberInvitations.sendCount} + 1`,
          updatedAt: now,
        })
        .where(and(eq(memberInvitations.accountId, accountId), eq(memberInvitations.id, invitation.id)))
        .returning();
      const delivery = await sendInvitationMail(ctx, tx, row, {
        token,
        accountName: account.name,
        inviterName: await inviterNameOf(tx, principal.userId),
        now,
      });
      await recordAuditEvent(tx, ctx, { action: 'invitation.resend', resource: { type: 'invitation', id: row.id } });
      return presentInvitation(row, now, delivery);
    });
  },
});
