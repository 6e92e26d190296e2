import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anonymousPrincipal, systemPrincipal } from '@/lib/auth/principal';
import { acceptMemberInvitation } from '@/lib/core/members/accept-member-invitation';
import { addMember } from '@/lib/core/members/add-member';
import { revokeMemberInvitation } from '@/lib/core/members/revoke-member-invitation';
import { signInWithSingleSignOn, type SingleSignOnClaims } from '@/lib/core/users/sign-in-with-single-sign-on';
import { auditEvents, memberInvitations, memberships, users } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * Who a provider's verified address is: a proven user (any case of the address), or, for an address
 * with pending invitations, a new proven user who accepts them. Unproven users, unverified
 * addresses and unknown ones are refused.
 */
let services: TestServices;
beforeAll(async () => {
  services = await memoryServices();
});
afterAll(async () => services.close());

type Invited = { status: string; user_id: string; invitation: { id: string; url: string } };
const request = () => ({ clientIp: '203.0.113.7', requestId: 'req-sso', now: services.now() });
const signIn = (claims: SingleSignOnClaims) => signInWithSingleSignOn(services.db, claims, request());

async function ownerOf(accountId: string) {
  const [row] = await services.db
    .select({ id: users.id, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.accountId, accountId));
  return row;
}

/** Without a system sender, the invitation's link is handed to the inviter (an unproven address). */
const invite = async (accountId: string, email: string, role: string) =>
  (await addMember(as(services, systemPrincipal(accountId)), { email, role })) as Invited;

const eventsOf = (userId: string) =>
  services.db
    .select()
    .from(auditEvents)
    .where(eq(auditEvents.actorId, userId))
    .orderBy(auditEvents.action, auditEvents.accountId);

describe('a proven user', () => {
  it('signs in by a verified address in any case, with a user.sign_in event in each of their accounts', async () => {
    const first = await newAccount(services, 'SSO first');
    const owner = await ownerOf(first.accountId);
    const second = await newAccount(services, 'SSO second');
    expect((await invite(second.accountId, owner.email, 'Developer')).status).toBe('active');

    const result = await signIn({ email: `  ${owner.email.toUpperCase()} `, email_verified: true });
    expect(result).toMatchObject({ ok: true, user: { id: owner.id, email: owner.email } });
    const events = (await eventsOf(owner.id)).filter((event) => event.action === 'user.sign_in');
    expect(events.map((event) => event.accountId).sort()).toEqual([first.accountId, second.accountId].sort());
    expect(events[0]).toMatchObject({
      actorType: 'user',
      actorLabel: owner.email,
      resourceType: 'user',
      resourceId: owner.id,
      ip: '203.0.113.7',
      requestId: 'req-sso',
    });
  });

  it.each([
    ['false', false],
    ['missing', undefined],
    ['the string "true"', 'true'],
  ])('is refused when email_verified is %s, and the attempt is recorded', async (_name, emailVerified) => {
    const account = await newAccount(services, 'SSO unverified');
    const owner = await ownerOf(account.accountId);
    expect(await signIn({ email: owner.email, email_verified: emailVerified })).toEqual({
      ok: false,
      reason: 'unverified_email',
    });
    const events = await eventsOf(owner.id);
    expect(events.map((event) => event.action)).toEqual(['user.sign_in_failed']);
  });
});

describe('an address without a proven user', () => {
  it.each([
    ['no email', {}, 'no_email'],
    ['an unknown address', { email: 'nobody-sso@example.org', email_verified: true }, 'unknown_email'],
  ] as const)('%s is refused and makes no user', async (_name, claims, reason) => {
    expect(await signIn(claims)).toEqual({ ok: false, reason });
    expect(await services.db.select().from(users).where(eq(users.email, 'nobody-sso@example.org'))).toEqual([]);
  });

  it('an unproven user (made from a handed link) is not matched', async () => {
    const account = await newAccount(services, 'SSO handed');
    const email = 'handed-sso@example.org';
    const invited = await invite(account.accountId, email, 'Analyst');
    const token = new URL(invited.invitation.url).pathname.split('/').at(-1)!;
    await acceptMemberInvitation(as(services, anonymousPrincipal(null)), { token, password: 'a handed password' });
    expect(await signIn({ email, email_verified: true })).toEqual({ ok: false, reason: 'unknown_email' });
  });

  it('accepts every pending invitation of the address: one proven user, the invited roles, the links used', async () => {
    const email = 'Invited-SSO@Example.org';
    const a = await newAccount(services, 'SSO inviter A');
    const b = await newAccount(services, 'SSO inviter B');
    const first = await invite(a.accountId, email.toLowerCase(), 'Analyst');
    services.clock.advance(1000);
    const second = await invite(b.accountId, email.toLowerCase(), 'Developer');

    const result = await signIn({ email, email_verified: true, name: 'Ada Invited' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.user).toMatchObject({ id: first.user_id, email: email.toLowerCase(), name: 'Ada Invited' });
    expect(result.user.emailVerifiedAt).not.toBeNull();
    expect(result.user.limitedToAccountId).toBeNull();
    const roles = await services.db
      .select({ accountId: memberships.accountId, role: memberships.role })
      .from(memberships)
      .where(eq(memberships.userId, first.user_id));
    expect(roles).toEqual(
      expect.arrayContaining([
        { accountId: a.accountId, role: 'Analyst' },
        { accountId: b.accountId, role: 'Developer' },
      ]),
    );
    const invitations = await services.db
      .select({ acceptedAt: memberInvitations.acceptedAt })
      .from(memberInvitations)
      .where(eq(memberInvitations.email, email.toLowerCase()));
    expect(invitations.every((row) => row.acceptedAt !== null)).toBe(true);
    const events = await eventsOf(first.user_id);
    expect(events.map((event) => `${event.action} ${event.accountId}`).sort()).toEqual(
      [
        `invitation.accept ${a.accountId}`,
        `invitation.accept ${b.accountId}`,
        `user.sign_in ${a.accountId}`,
        `user.sign_in ${b.accountId}`,
      ].sort(),
    );
    expect(events.find((event) => event.action === 'invitation.accept')?.resourceId).toBe(first.invitation.id);

    // The links are used now; the next sign-in matches the user the invitation made.
    const token = new URL(second.invitation.url).pathname.split('/').at(-1)!;
    await expect(
      acceptMemberInvitation(as(services, anonymousPrincipal(null)), { token, password: 'too late password' }),
    ).rejects.toThrow(/already been used/);
    expect(await signIn({ email, email_verified: true })).toMatchObject({ ok: true, user: { id: first.user_id } });
  });

  it('revoked and expired invitations let nobody in', async () => {
    const account = await newAccount(services, 'SSO stale');
    const revoked = await invite(account.accountId, 'revoked-sso@example.org', 'Analyst');
    await revokeMemberInvitation(as(services, systemPrincipal(account.accountId)), {
      invitation_id: revoked.invitation.id,
    });
    await invite(account.accountId, 'expired-sso@example.org', 'Analyst');
    services.clock.advance(8 * 24 * 3600 * 1000);
    for (const email of ['revoked-sso@example.org', 'expired-sso@example.org'])
      expect(await signIn({ email, email_verified: true })).toEqual({ ok: false, reason: 'unknown_email' });
    expect(await services.db.select().from(users).where(eq(users.email, 'expired-sso@example.org'))).toEqual([]);
  });
});
