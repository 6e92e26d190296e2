import { eq } from 'drizzle-orm';
import { recordAuditEvent, type AuditSource } from '@/lib/core/audit/record-audit-event';
import type { DbOrTx } from '@/lib/db/client';
import { memberInvitations, memberships, users } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';

export type InvitationRow = typeof memberInvitations.$inferSelect;

/**
 * The user an invitation makes when the address has no identity it may join, with the id the
 * invitation reserved. Proven when something vouched for the address (a mailed link, the provider
 * of single sign-on); otherwise limited to the inviting account (email-identity.ts).
 */
export async function createInvitedUser(
  tx: DbOrTx,
  invitation: InvitationRow,
  person: { name: string | null; passwordHash: string; isProven: boolean },
  at: Date,
) {
  const [created] = await tx
    .insert(users)
    .values({
      id: invitation.userId,
      email: invitation.email,
      name: person.name,
      passwordHash: person.passwordHash,
      emailVerifiedAt: person.isProven ? at : null,
      limitedToAccountId: person.isProven ? null : invitation.accountId,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing()
    .returning();
  if (!created) throw conflict('this address became a user at the same moment: open the link again');
  return created;
}

/**
 * The end of every way of accepting an invitation (its link, single sign-on): the membership with
 * the invited role, the invitation used, and its audit event, by the person who joined.
 */
export async function completeInvitation(
  tx: DbOrTx,
  source: AuditSource,
  invitation: InvitationRow,
  user: { id: string; email: string },
  at: Date,
) {
  await tx
    .insert(memberships)
    .values({ accountId: invitation.accountId, userId: user.id, role: invitation.role, createdAt: at, updatedAt: at })
    .onConflictDoNothing();
  await tx
    .update(memberInvitations)
    .set({ acceptedAt: at, updatedAt: at })
    .where(eq(memberInvitations.id, invitation.id));
  await recordAuditEvent(tx, source, {
    action: 'invitation.accept',
    resource: { type: 'invitation', id: invitation.id },
    accountId: invitation.accountId,
    actor: { type: 'user', id: user.id, label: user.email },
  });
}
