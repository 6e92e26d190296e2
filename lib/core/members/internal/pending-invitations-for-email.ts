import { and, asc, eq, gt, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, memberInvitations } from '@/lib/db/schema';

/**
 * Every invitation of an address that can still be accepted, oldest first, locked for the caller's
 * transaction; across accounts (hence unsafe), for single sign-on, where the provider vouched for
 * the address and so stands in for the links.
 */
export async function unsafeListUsableInvitationsByEmail(db: DbOrTx, email: string, now: Date) {
  const rows = await db
    .select({ invitation: memberInvitations })
    .from(memberInvitations)
    .innerJoin(accounts, eq(accounts.id, memberInvitations.accountId))
    .where(
      and(
        eq(memberInvitations.email, email),
        isNull(memberInvitations.acceptedAt),
        isNull(memberInvitations.revokedAt),
        gt(memberInvitations.expiresAt, now),
        isNull(accounts.deletedAt),
      ),
    )
    .orderBy(asc(memberInvitations.createdAt), asc(memberInvitations.id))
    .for('update', { of: memberInvitations });
  return rows.map((row) => row.invitation);
}
