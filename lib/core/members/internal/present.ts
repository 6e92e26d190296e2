import type { MemberRole } from '@/lib/auth/principal';
import type { memberInvitations } from '@/lib/db/schema';

type InvitationRow = typeof memberInvitations.$inferSelect;

export type MemberRow = {
  accountId: string;
  userId: string;
  role: string;
  createdAt: Date;
  updatedAt: Date;
  email: string;
  name: string | null;
  ownerId: string;
};

/** The contract's UserAccount (no `object` field), with who the member is beside it. */
export function presentMember(row: MemberRow) {
  return {
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    user_id: row.userId,
    account_id: row.accountId,
    role: row.role as MemberRole,
    email: row.email,
    name: row.name,
    is_owner: row.userId === row.ownerId,
    status: 'active' as const,
  };
}

/** How the link reached (or did not reach) the person: only the answer that made it carries it. */
export type InvitationDelivery = { delivery: 'email' | 'link'; url?: string; delivery_error?: string };

export function presentInvitation(row: InvitationRow, now: Date, delivery: InvitationDelivery) {
  return {
    object: 'member_invitation' as const,
    id: row.id,
    account_id: row.accountId,
    user_id: row.userId,
    email: row.email,
    name: row.name,
    role: row.role as MemberRole,
    status: row.expiresAt <= now ? ('expired' as const) : ('pending' as const),
    expires_at: row.expiresAt.toISOString(),
    last_sent_at: row.lastSentAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    ...delivery,
  };
}

/** POST members for an address with no user: the UserAccount to come, and the invitation. */
export function presentInvitedMember(row: InvitationRow, now: Date, delivery: InvitationDelivery) {
  return {
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    user_id: row.userId,
    account_id: row.accountId,
    role: row.role as MemberRole,
    email: row.email,
    name: row.name,
    is_owner: false,
    status: 'invited' as const,
    invitation: presentInvitation(row, now, delivery),
  };
}
