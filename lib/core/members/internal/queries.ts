import { and, asc, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { accounts, memberInvitations, memberships, users } from '@/lib/db/schema';
import { conflict, forbidden, notFound } from '@/lib/shared/errors';
import type { MemberRow } from './present';

const memberColumns = {
  accountId: memberships.accountId,
  userId: memberships.userId,
  role: memberships.role,
  createdAt: memberships.createdAt,
  updatedAt: memberships.updatedAt,
  email: users.email,
  name: users.name,
  ownerId: accounts.ownerId,
};

const membersOf = (db: DbOrTx) =>
  db
    .select(memberColumns)
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .innerJoin(accounts, eq(accounts.id, memberships.accountId));

export async function listMembersInAccount(db: DbOrTx, accountId: string): Promise<MemberRow[]> {
  return membersOf(db)
    .where(eq(memberships.accountId, accountId))
    .orderBy(asc(memberships.createdAt), asc(users.email));
}

export async function findMemberInAccount(db: DbOrTx, accountId: string, userId: string): Promise<MemberRow | null> {
  const [row] = await membersOf(db)
    .where(and(eq(memberships.accountId, accountId), eq(memberships.userId, userId)))
    .limit(1);
  return row ?? null;
}

export async function getMemberInAccount(db: DbOrTx, accountId: string, userId: string): Promise<MemberRow> {
  const row = await findMemberInAccount(db, accountId, userId);
  if (!row) throw notFound('member not found');
  return row;
}

/** A pending (not accepted, not revoked) invitation of the account; expired ones count. */
export async function getPendingInvitationInAccount(db: DbOrTx, accountId: string, invitationId: string) {
  const [row] = await db
    .select()
    .from(memberInvitations)
    .where(
      and(
        eq(memberInvitations.accountId, accountId),
        eq(memberInvitations.id, invitationId),
        isNull(memberInvitations.acceptedAt),
        isNull(memberInvitations.revokedAt),
      ),
    )
    .limit(1);
  if (!row) throw notFound('invitation not found');
  return row;
}

/** How the invitation mail names who sent it: their name, else their address; nobody for a key. */
export async function inviterNameOf(db: DbOrTx, userId: string | undefined): Promise<string | null> {
  if (!userId) return null;
  const [user] = await db
    .select({ name: users.name, email: users.email })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return user ? (user.name ?? user.email) : null;
}

/**
 * The invitation a link's token names, if it can still be used; across accounts, since the token
 * is the credential (hence unsafe). Locked for the caller's transaction when `forUpdate`.
 * Unknown and revoked links are 404, used ones 409, expired ones 403.
 */
export async function unsafeGetUsableInvitationByToken(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
  options: { forUpdate: boolean },
) {
  const query = db
    .select({ invitation: memberInvitations, accountName: accounts.name, accountDeletedAt: accounts.deletedAt })
    .from(memberInvitations)
    .innerJoin(accounts, eq(accounts.id, memberInvitations.accountId))
    .where(eq(memberInvitations.tokenHash, tokenHash))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update', { of: memberInvitations }) : await query;
  if (!row || row.invitation.revokedAt || row.accountDeletedAt)
    throw notFound('this invitation link is not valid: it may have been revoked or replaced by a newer one');
  if (row.invitation.acceptedAt) throw conflict('this invitation has already been used: sign in instead');
  if (row.invitation.expiresAt <= now) throw forbidden('this invitation has expired: ask for a new one');
  return { invitation: row.invitation, accountName: row.accountName };
}
