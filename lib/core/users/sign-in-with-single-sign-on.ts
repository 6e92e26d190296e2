import { and, eq, isNull } from 'drizzle-orm';
import { anonymousPrincipal } from '@/lib/auth/principal';
import { recordAuditEvent, type AuditSource } from '@/lib/core/audit/record-audit-event';
import { completeInvitation, createInvitedUser } from '@/lib/core/members/internal/complete-invitation';
import { unsafeListUsableInvitationsByEmail } from '@/lib/core/members/internal/pending-invitations-for-email';
import type { Db, DbOrTx } from '@/lib/db/client';
import { accounts, memberships } from '@/lib/db/schema';
import { NO_PASSWORD_HASH } from '@/lib/shared/crypto';
import { findProvenUser, type UserRow } from './internal/email-identity';

/** The claims of an ID token that openid-client has checked (signature, issuer, audience, expiry, nonce). */
export type SingleSignOnClaims = { email?: unknown; email_verified?: unknown; name?: unknown };

export type SingleSignOnRefusal = 'no_email' | 'unverified_email' | 'unknown_email';
export type SingleSignOnResult = { ok: true; user: UserRow } | { ok: false; reason: SingleSignOnRefusal };

/**
 * Single sign-on: who a verified address is. Only a proven user (email-identity.ts) matches, as the
 * provider proves the address and an unproven user proved nothing; an unknown address gets in only
 * by accepting its pending invitations, the way their links would (a proven user, the invited roles).
 */
export async function signInWithSingleSignOn(
  db: Db,
  claims: SingleSignOnClaims,
  request: { clientIp: string | null; requestId?: string; now: Date },
): Promise<SingleSignOnResult> {
  if (typeof claims.email !== 'string' || !claims.email.includes('@')) return { ok: false, reason: 'no_email' };
  const email = claims.email.trim().toLowerCase();
  const source: AuditSource = { principal: anonymousPrincipal(request.clientIp), requestId: request.requestId };
  return db.transaction(async (tx) => {
    const known = await findProvenUser(tx, email);
    // Anything but a boolean true (a missing claim, the string "true") is unverified.
    if (claims.email_verified !== true) {
      if (known) await recordForEachAccount(tx, source, known, 'user.sign_in_failed');
      return { ok: false, reason: 'unverified_email' } as const;
    }
    const user = known ?? (await acceptPendingInvitations(tx, source, email, claims, NO_PASSWORD_HASH, request.now));
    if (!user) return { ok: false, reason: 'unknown_email' } as const;
    await recordForEachAccount(tx, source, user, 'user.sign_in');
    return { ok: true, user } as const;
  });
}

/** The user made from the first pending invitation (the id it reserved), joining every account that invited the address. */
async function acceptPendingInvitations(
  tx: DbOrTx,
  source: AuditSource,
  email: string,
  claims: SingleSignOnClaims,
  passwordHash: string,
  at: Date,
): Promise<UserRow | null> {
  const invitations = await unsafeListUsableInvitationsByEmail(tx, email, at);
  if (!invitations.length) return null;
  const [first] = invitations;
  // No password: the person signs in through the provider, or sets one on their profile (or by a reset).
  const name = first.name ?? (typeof claims.name === 'string' && claims.name.trim() ? claims.name.trim() : null);
  const user = await createInvitedUser(tx, first, { name, passwordHash, isProven: true }, at);
  for (const invitation of invitations) await completeInvitation(tx, source, invitation, user, at);
  return user;
}

/** A person's sign-in belongs to no single account: one event in each account they are a member of. */
async function recordForEachAccount(tx: DbOrTx, source: AuditSource, user: UserRow, action: string) {
  const rows = await tx
    .select({ accountId: memberships.accountId })
    .from(memberships)
    .innerJoin(accounts, eq(accounts.id, memberships.accountId))
    .where(and(eq(memberships.userId, user.id), isNull(accounts.deletedAt)));
  for (const { accountId } of rows) {
    await recordAuditEvent(tx, source, {
      action,
      resource: { type: 'user', id: user.id },
      accountId,
      actor: { type: 'user', id: user.id, label: user.email },
    });
  }
}
