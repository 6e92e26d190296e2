import { recordAuditEvent } from '@/lib/core/audit/record-audit-event';
import { and, eq, isNull, lte } from 'drizzle-orm';
import { authorizeHoldingEveryScopeOf } from '@/lib/auth/authorize';
import type { VerbContext } from '@/lib/core/context';
import { getAccountById } from '@/lib/core/accounts/queries';
import { defineVerb } from '@/lib/core/verb';
import type { DbOrTx } from '@/lib/db/client';
import { findUserForAccount } from '@/lib/core/users/internal/email-identity';
import { memberInvitations, memberships } from '@/lib/db/schema';
import { conflict } from '@/lib/shared/errors';
import { newId } from '@/lib/shared/ids';
import { presentInvitedMember, presentMember } from './internal/present';
import { findMemberInAccount, getMemberInAccount, inviterNameOf } from './internal/queries';
import { addMemberSchema } from './schemas';
import { newInvitationToken, sendInvitationMail } from './internal/send-invitation-mail';

/**
 * POST members: a user with a proven address becomes a member at once (users are global, so their name is not
 * ours to change); any other address gets an invitation, mailed or handed back as a link.
 * 409 when the person is already a member or already has a pending invitation.
 */
export const addMember = defineVerb({
  scope: 'accounts:members:add',
  input: addMemberSchema,
  async run(ctx, input) {
    const { db, principal } = ctx;
    authorizeHoldingEveryScopeOf(principal, { kind: 'role', role: input.role });
    const accountId = principal.targetAccountId;
    return db.transaction(async (tx) => {
      const account = await getAccountById(tx, accountId);
      // Only a proven user is added at once; this account's own unproven one may already be a member.
      const user = await findUserForAccount(tx, input.email, accountId);
      if (user?.emailVerifiedAt) {
        const inserted = await tx
          .insert(memberships)
          .values({ accountId, userId: user.id, role: input.role })
          .onConflictDoNothing()
          .returning();
        if (!inserted.length) throw conflict(`${input.email} is already a member of this account`, 'email');
        await recordAuditEvent(tx, ctx, { action: 'member.add', resource: { type: 'member', id: user.id } });
        return presentMember(await getMemberInAccount(tx, accountId, user.id));
      }
      if (user && (await findMemberInAccount(tx, accountId, user.id)))
        throw conflict(`${input.email} is already a member of this account`, 'email');
      return invite(ctx, tx, {
        accountId,
        accountName: account.name,
        email: input.email,
        name: input.name ?? null,
        role: input.role,
      });
    });
  },
});

async function invite(
  ctx: VerbContext,
  tx: DbOrTx,
  input: { accountId: string; accountName: string; email: string; name: string | null; role: string },
) {
  const now = ctx.now();
  // An expired invitation no longer holds the address: a new one replaces it.
  await tx
    .update(memberInvitations)
    .set({ revokedAt: now, updatedAt: now })
    .where(
      and(
        eq(memberInvitations.accountId, input.accountId),
        eq(memberInvitations.email, input.email),
        isNull(memberInvitations.acceptedAt),
        isNull(memberInvitations.revokedAt),
        lte(memberInvitations.expiresAt, now),
      ),
    );
  const { token, tokenHash } = newInvitationToken();
  const [row] = await tx
    .insert(memberInvitations)
    .values({
      id: newId(),
      accountId: input.accountId,
      userId: newId(),
      email: input.email,
      name: input.name,
      role: input.role,
      tokenHash,
      invitedBy: ctx.principal.userId ?? null,
      expiresAt: new Date(now.getTime() + ctx.config.invitationTtlSeconds * 1000),
      lastSentAt: now,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning();
  if (!row)
    throw conflict(`${input.email} already has a pending invitation to this account: resend or revoke it`, 'email');
  const inviterName = await inviterNameOf(tx, ctx.principal.userId);
  const delivery = await sendInvitationMail(ctx, tx, row, { token, accountName: input.accountName, inviterName, now });
  await recordAuditEvent(tx, ctx, { action: 'invitation.create', resource: { type: 'invitation', id: row.id } });
  return presentInvitedMember(row, now, delivery);
}
