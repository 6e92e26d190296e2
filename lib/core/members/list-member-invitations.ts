import { and, asc, eq, isNull } from 'drizzle-orm';
import { defineVerb } from '@/lib/core/verb';
import { z } from '@/lib/core/zod';
import { memberInvitations } from '@/lib/db/schema';
import { presentInvitation } from './internal/present';

/**
 * GET member-invitations (Mailstead extension): pending invitations, expired ones included so they
 * can be resent. Links are not shown: only their hashes are kept.
 */
export const listMemberInvitations = defineVerb({
  scope: 'accounts:members:read',
  input: z.object({}),
  async run({ db, principal, now, config }) {
    const rows = await db
      .select()
      .from(memberInvitations)
      .where(
        and(
          eq(memberInvitations.accountId, principal.targetAccountId),
          isNull(memberInvitations.acceptedAt),
          isNull(memberInvitations.revokedAt),
        ),
      )
      .orderBy(asc(memberInvitations.createdAt));
    const at = now();
    const delivery = config.systemSender ? ('email' as const) : ('link' as const);
    return { object: 'list' as const, data: rows.map((row) => presentInvitation(row, at, { delivery })) };
  },
});
