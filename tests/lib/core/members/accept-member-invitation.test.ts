import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptMemberInvitation } from '@/lib/core/members/accept-member-invitation';
import { addMember } from '@/lib/core/members/add-member';
import { verifyUserCredentials } from '@/lib/core/users/verify-user-credentials';
import { findSessionAccess } from '@/lib/core/users/find-session-access';
import { anonymousPrincipal } from '@/lib/auth/principal';
import { memberInvitations, memberships, users } from '@/lib/db/schema';
import { as, memoryServices, newAccount, type TestServices } from '../../../support/memory-services';

/**
 * Who owns an address (lib/core/users/internal/email-identity.ts): a link handed to the inviter (no system
 * sender) proves nothing, so the user it makes stays inside that account. Another account's
 * invitation makes its own identity, proven when its link was mailed, and the first person's
 * password never opens it.
 */
let services: TestServices;
beforeAll(async () => {
  services = await memoryServices();
});
afterAll(async () => services.close());

const tokenOf = (url: string) => new URL(url).pathname.split('/').at(-1)!;
const anonymous = () => as(services, anonymousPrincipal('127.0.0.1'));
type Invited = { status: string; user_id: string; invitation: { id: string; delivery: string; url: string } };

async function handedLink(accountName: string, email: string, role = 'Analyst') {
  const account = await newAccount(services, accountName);
  const invited = (await addMember(as(services, account.principal), { email, role })) as Invited;
  expect(invited.status).toBe('invited');
  expect(invited.invitation.delivery).toBe('link');
  return { account, invited, token: tokenOf(invited.invitation.url) };
}

/** What sendInvitationMail records when the system sender mailed the link. */
async function markMailed(invitationId: string) {
  await services.db.update(memberInvitations).set({ isMailed: true }).where(eq(memberInvitations.id, invitationId));
}

const accountsOf = async (userId: string) =>
  (
    await services.db
      .select({ accountId: memberships.accountId })
      .from(memberships)
      .where(eq(memberships.userId, userId))
  ).map((row) => row.accountId);

describe('an address nobody proved', () => {
  it("an inviter who accepts their own handed link neither blocks nor captures another account's mailed invitation", async () => {
    const email = 'victim-mailed@example.org';
    const attacker = await handedLink('Attacker', email);
    const made = await acceptMemberInvitation(anonymous(), { token: attacker.token, password: 'attacker password 1' });
    const [unproven] = await services.db.select().from(users).where(eq(users.id, made.user_id));
    expect(unproven).toMatchObject({ emailVerifiedAt: null, limitedToAccountId: attacker.account.accountId });

    const team = await handedLink('Team mailed', email, 'Developer');
    await markMailed(team.invited.invitation.id);
    // The person with the mailbox sets their own password: a new, proven user, not the attacker's.
    const accepted = await acceptMemberInvitation(anonymous(), { token: team.token, password: 'the real password 2' });
    expect(accepted.user_id).toBe(team.invited.user_id);
    expect(accepted.user_id).not.toBe(made.user_id);
    const [proven] = await services.db.select().from(users).where(eq(users.id, accepted.user_id));
    expect(proven.emailVerifiedAt).not.toBeNull();
    expect(proven.limitedToAccountId).toBeNull();

    // Each password opens its own identity; the attacker's reaches only the attacker's account.
    expect((await verifyUserCredentials(services.db, email, 'the real password 2'))?.id).toBe(accepted.user_id);
    expect((await verifyUserCredentials(services.db, email, 'attacker password 1'))?.id).toBe(made.user_id);
    expect(await accountsOf(made.user_id)).toEqual([attacker.account.accountId]);
    expect(await accountsOf(accepted.user_id)).toEqual([team.account.accountId]);
    expect(await findSessionAccess(services.db, made.user_id, team.account.accountId)).toBeNull();

    // Proven now: a third account adds the person at once, and never the attacker's identity.
    const third = await newAccount(services, 'Third');
    const added = (await addMember(as(services, third.principal), { email, role: 'Analyst' })) as {
      status: string;
      user_id: string;
    };
    expect(added).toMatchObject({ status: 'active', user_id: accepted.user_id });
  });

  it("without a system sender, another account's handed link makes an identity of that account: the first password does not open it", async () => {
    const email = 'victim-handed@example.org';
    const attacker = await handedLink('Attacker handed', email);
    const made = await acceptMemberInvitation(anonymous(), { token: attacker.token, password: 'attacker password 1' });

    const team = await handedLink('Team handed', email, 'Developer');
    // Not refused (the old rule asked for the attacker's password here) and not the attacker's user.
    const accepted = await acceptMemberInvitation(anonymous(), { token: team.token, password: 'the real password 2' });
    expect(accepted.user_id).toBe(team.invited.user_id);
    const [own] = await services.db.select().from(users).where(eq(users.id, accepted.user_id));
    expect(own).toMatchObject({ emailVerifiedAt: null, limitedToAccountId: team.account.accountId });
    expect(await accountsOf(accepted.user_id)).toEqual([team.account.accountId]);
    expect(await accountsOf(made.user_id)).toEqual([attacker.account.accountId]);
    expect((await verifyUserCredentials(services.db, email, 'attacker password 1'))?.id).toBe(made.user_id);
    expect((await verifyUserCredentials(services.db, email, 'the real password 2'))?.id).toBe(accepted.user_id);
    expect(await verifyUserCredentials(services.db, email, 'a guessed password 3')).toBeNull();

    // Unproven users are never added at once elsewhere, nor twice to their own account.
    const elsewhere = await newAccount(services, 'Elsewhere');
    expect(((await addMember(as(services, elsewhere.principal), { email, role: 'Analyst' })) as Invited).status).toBe(
      'invited',
    );
    await expect(addMember(as(services, team.account.principal), { email, role: 'Analyst' })).rejects.toThrow(
      /already a member/,
    );
  });

  it("the same account's next handed link for its unproven user needs that user's password", async () => {
    const email = 'again@example.org';
    const first = await handedLink('Again', email);
    const made = await acceptMemberInvitation(anonymous(), { token: first.token, password: 'first password 1' });
    await services.db.delete(memberships).where(eq(memberships.userId, made.user_id));
    const again = (await addMember(as(services, first.account.principal), { email, role: 'Developer' })) as Invited;
    const token = tokenOf(again.invitation.url);
    await expect(acceptMemberInvitation(anonymous(), { token, password: 'someone else 2' })).rejects.toThrow(
      /already has a Mailstead user/,
    );
    expect((await acceptMemberInvitation(anonymous(), { token, password: 'first password 1' })).user_id).toBe(
      made.user_id,
    );
  });

  it('a user with a proven address (made by the operator or a mailed link) is added at once', async () => {
    const account = await newAccount(services, 'Fourth');
    const owner = await newAccount(services, 'Owner elsewhere');
    const [ownerUser] = await services.db
      .select({ email: users.email })
      .from(users)
      .innerJoin(memberships, eq(memberships.userId, users.id))
      .where(eq(memberships.accountId, owner.accountId));
    const added = (await addMember(as(services, account.principal), { email: ownerUser.email, role: 'Analyst' })) as {
      status: string;
    };
    expect(added.status).toBe('active');
  });
});
